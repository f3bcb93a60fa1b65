/**
 * Move, version 3: the source is listed (still the version copied), then the destination, then the
 * source's delete takes its slot of the run's pool. docs/api-choices.md ("A write at the destination
 * between a Move's last look and its delete") leaves only the destination's listing as the window in
 * which a newer source version is deleted unseen. When the pool is paused (another item of the run
 * got a 503 with Retry-After), the delete waits there after those listings, for seconds: a newer
 * version of the source another writer stores in that wait must not be deleted, as a repeat of the
 * delete is checked in its slot. Through n8n-core's engine over real HTTP to the emulator; the other
 * item's 503 and the other writer come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const NEWER = Buffer.from('the newer version of the ledger, stored by the accountant');

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

async function put(key: string, body: Buffer, writer: string) {
	await emulator().adversary.put(HERE, key, body, { visibility: 'private', contentType: 'text/plain', writer });
}

describe('Move (node version 3)', () => {
	it("never deletes a newer source version stored while its delete waited for the run's paused pool", async () => {
		const source = 'move-slot/ledger.txt';
		const destination = 'move-slot/archive/ledger.txt';
		const otherSource = 'move-slot/other.txt';
		const otherDestination = 'move-slot/archive/other.txt';
		await put(source, randomFile(1000), 'setup');
		await put(otherSource, randomFile(1000), 'setup');
		// Sources written moments ago are read only once their listed second has passed (moveSource.ts).
		await sleep(4000);
		const events: string[] = [];
		let uploaded = false;
		let sourceListedAfterCopy = false;
		let lastLook: () => void = () => undefined;
		const looked = new Promise<void>((resolve) => (lastLook = resolve));
		let pausedOnce = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (!pausedOnce && call.op === 'signedUrl' && key === otherDestination) {
					// The other item's first request is answered 503 once the Move's last look is made.
					await Promise.race([looked, sleep(20_000)]);
					pausedOnce = true;
					events.push('other item 503');
					return {
						status: 503,
						headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
						body: JSON.stringify({ error: 'Service unavailable' }),
					};
				}
				if (call.op === 'delete' && key === source) events.push('source delete');
				return undefined;
			},
			after: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (call.op === 'upload' && key === destination) uploaded = true;
				if (call.op !== 'list') return;
				if (uploaded && key === source) sourceListedAfterCopy = true;
				if (!sourceListedAfterCopy || key !== destination || pausedOnce) return;
				events.push('destination listed');
				lastLook();
				// The accountant stores a newer version a second after the last look was answered.
				setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 1000);
				// The listing's answer reaches n8n after the 503 that pauses the pool.
				await sleep(300);
			},
		});
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: byKey('={{ $json.from }}'),
				destinationKey: '={{ $json.to }}',
			},
			{
				items: [{ json: { from: source, to: destination } }, { json: { from: otherSource, to: otherDestination } }],
				typeVersion: 3,
				continueOnFail: true,
			},
		);
		emulator().adversary.setHooks(undefined);
		// The scenario happened: the newer version was stored after the Move's last look, before its delete went.
		const at = (event: string) => events.indexOf(event);
		expect(at('other item 503')).toBeGreaterThan(-1);
		expect(at('newer source stored')).toBeGreaterThan(at('destination listed'));
		expect(at('source delete') === -1 || at('source delete') > at('newer source stored')).toBe(true);
		const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
		expect(result.items[0]?.json.error).toBeDefined();
	}, 60_000);
});
