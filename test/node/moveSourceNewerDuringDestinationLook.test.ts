/**
 * Folder → Move and File → Move: before the source's delete, the source is listed (still the version
 * copied), then the destination (still the copy proven), then the delete goes out. docs/api-choices.md ("A write at
 * the destination between a Move's last look and its delete") says the window in which a newer source version is
 * deleted unseen is "never a wait of the pool: milliseconds plus one request's way to the service, not the seconds of
 * a Retry-After". Here the run's pool is paused (another file's request answered 503 with Retry-After) right after the
 * source's listing: the destination's listing waits in the pool for seconds, another writer stores a newer version of
 * the source meanwhile, and the delete, which then finds its slot free, must not delete that newer version unseen.
 * The same in version 2, where the destination's listing is itself answered 503 and retried after its Retry-After.
 * Through n8n-core's engine over real HTTP to the emulator; the 503 and the other writer come from its hooks.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const NEWER = Buffer.from('the newer version of the ledger, stored by the accountant while the Move ran');

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

async function put(key: string, body: Buffer, writer: string) {
	await emulator().adversary.put(HERE, key, body, { visibility: 'private', contentType: 'text/plain', writer });
}

const keyOf = (call: HookCall) => call.query.get('key') ?? call.query.get('prefix') ?? '';

/**
 * The hooks: the other file's first request is held until the Move's source is listed after its copy, then
 * answered 503 with Retry-After: 3 (the pool pauses), before that listing's answer reaches n8n; a second later the
 * accountant stores a newer version of the source, while the destination's listing waits for the pool.
 */
function pauseAfterSourceLook(source: string, destination: string, other: string, events: string[]) {
	let uploaded = false;
	let paused = false;
	let sourceLooked: () => void = () => undefined;
	const looked = new Promise<void>((resolve) => (sourceLooked = resolve));
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			const key = keyOf(call);
			if (!paused && key.includes(other) && call.op !== 'cdn') {
				paused = true;
				await Promise.race([looked, sleep(30_000)]);
				events.push('other file 503');
				return {
					status: 503,
					headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
					body: JSON.stringify({ error: 'Service unavailable' }),
				};
			}
			if (call.op === 'list' && key === destination && events.includes('source listed after copy')) {
				events.push('destination listed');
			}
			if (call.op === 'delete' && key === source) events.push('source delete');
			return undefined;
		},
		after: async (call: HookCall) => {
			const key = keyOf(call);
			if (call.op === 'upload' && key === destination) uploaded = true;
			if (call.op !== 'list' || !uploaded || key !== source || events.includes('source listed after copy')) return;
			events.push('source listed after copy');
			sourceLooked();
			setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 1000);
			// The listing's answer reaches n8n after the 503 that pauses the pool.
			await sleep(300);
		},
	});
}

async function expectNewerKept(source: string, events: string[]) {
	emulator().adversary.setHooks(undefined);
	const at = (event: string) => events.indexOf(event);
	// The scenario happened: the newer version was stored after the source's last look, before the destination's.
	expect(at('other file 503')).toBeGreaterThan(-1);
	expect(at('newer source stored')).toBeGreaterThan(at('source listed after copy'));
	expect(at('destination listed')).toBeGreaterThan(at('newer source stored'));
	// A delete, if one goes out at all (the check in its slot withholds it), comes after the destination's look.
	if (at('source delete') > -1) expect(at('source delete')).toBeGreaterThan(at('destination listed'));
	const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
	expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
}

describe("Move's source delete after a destination look that waited (version 3 unless named)", () => {
	it("Folder → Move never deletes a newer source version stored while the destination's last look waited for the paused pool", async () => {
		const source = 'fm-look/ledger.txt';
		const destination = 'fm-look-to/ledger.txt';
		await put(source, randomFile(1000), 'setup');
		await put('fm-look/other.txt', randomFile(1000), 'setup');
		await sleep(4500);
		const events: string[] = [];
		pauseAfterSourceLook(source, destination, 'other.txt', events);
		const parameters: INodeParameters = {
			resource: 'folder',
			operation: 'move',
			folder: { __rl: true, mode: 'path', value: 'fm-look/' },
			destinationFolder: { __rl: true, mode: 'path', value: 'fm-look-to/' },
		};
		await runFileStorage(emulator(), parameters, { typeVersion: 3, continueOnFail: true });
		await expectNewerKept(source, events);
	}, 90_000);

	it("File → Move never deletes a newer source version stored while the destination's last look waited for the paused pool", async () => {
		const source = 'm-look/ledger.txt';
		const destination = 'm-look/archive/ledger.txt';
		await put(source, randomFile(1000), 'setup');
		await put('m-look/other.txt', randomFile(1000), 'setup');
		await sleep(4500);
		const events: string[] = [];
		pauseAfterSourceLook(source, destination, 'other.txt', events);
		await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey('={{ $json.from }}'), destinationKey: '={{ $json.to }}' },
			{
				items: [
					{ json: { from: source, to: destination } },
					{ json: { from: 'm-look/other.txt', to: 'm-look/archive/other.txt' } },
				],
				typeVersion: 3,
				continueOnFail: true,
			},
		);
		await expectNewerKept(source, events);
	}, 90_000);
	it("Folder → Move (version 2) never deletes a newer source version stored while the destination's last look was retried after a 503", async () => {
		const source = 'fm2-look/ledger.txt';
		const destination = 'fm2-look-to/ledger.txt';
		await put(source, randomFile(1000), 'setup');
		await sleep(4500);
		const events: string[] = [];
		let uploaded = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = keyOf(call);
				if (call.op === 'upload' && key === destination) uploaded = true;
				if (call.op === 'delete' && key === source) events.push('source delete');
				if (call.op !== 'list' || !events.includes('source listed after copy') || key !== destination) return undefined;
				if (events.includes('destination answered 503')) {
					events.push('destination listed');
					return undefined;
				}
				events.push('destination answered 503');
				// The accountant stores a newer version while the listing's retry waits.
				setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 500);
				return {
					status: 503,
					headers: { 'Content-Type': 'application/json', 'Retry-After': '2' },
					body: JSON.stringify({ error: 'Service unavailable' }),
				};
			},
			after: async (call: HookCall) => {
				if (call.op === 'list' && uploaded && keyOf(call) === source && !events.includes('source listed after copy')) {
					events.push('source listed after copy');
				}
				return undefined;
			},
		});
		const parameters: INodeParameters = {
			resource: 'folder',
			operation: 'move',
			folder: { __rl: true, mode: 'path', value: 'fm2-look/' },
			destinationFolder: { __rl: true, mode: 'path', value: 'fm2-look-to/' },
		};
		await runFileStorage(emulator(), parameters, { typeVersion: 2, continueOnFail: true });
		emulator().adversary.setHooks(undefined);
		const at = (event: string) => events.indexOf(event);
		expect(at('destination listed')).toBeGreaterThan(at('newer source stored'));
		expect(at('newer source stored')).toBeGreaterThan(at('source listed after copy'));
		const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
	}, 90_000);
});
