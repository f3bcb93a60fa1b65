/**
 * Move: the source is listed (still the version copied), then the destination, then the source is
 * deleted. docs/api-choices.md ("A write at the destination between a Move's last look and its
 * delete") says the window in which a newer source version is deleted unseen is "the time from the
 * last listing's answer to the delete's arrival, never a wait of the pool: milliseconds plus one
 * request's way to the service, not the seconds of a Retry-After". When the destination's listing is
 * answered 503 with a Retry-After, its repeat waits out the run's paused pool (version 3) or the
 * Retry-After (version 2) AFTER the source was listed: a newer source stored in that wait must not be
 * deleted. Through n8n-core's engine over real HTTP to the emulator; the 503 and the other writer come
 * from its hooks.
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

describe.each([3, 2])('Move (node version %i)', (typeVersion) => {
	it("never deletes a newer source version stored while the destination's listing waited out a Retry-After", async () => {
		const source = `move-dest-wait-${typeVersion}/ledger.txt`;
		const destination = `move-dest-wait-${typeVersion}/archive/ledger.txt`;
		await put(source, randomFile(1000), 'setup');
		// Sources written moments ago are read only once their listed second has passed (moveSource.ts).
		await sleep(4000);
		const events: string[] = [];
		let uploaded = false;
		let sourceListedAfterCopy = false;
		let answered503 = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (call.op === 'delete' && key === source) events.push('source delete');
				if (call.op !== 'list' || key !== destination || !sourceListedAfterCopy || answered503) return undefined;
				answered503 = true;
				events.push('destination listing 503');
				// The accountant stores a newer version of the source a second later, while the listing waits.
				setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 1000);
				return {
					status: 503,
					headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
					body: JSON.stringify({ error: 'Service unavailable' }),
				};
			},
			after: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (call.op === 'upload' && key === destination) uploaded = true;
				if (call.op === 'list' && uploaded && key === source) sourceListedAfterCopy = true;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{ typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		// The scenario happened: the source was listed, then the newer version stored, then the delete went (if at all).
		const at = (event: string) => events.indexOf(event);
		expect(at('destination listing 503')).toBeGreaterThan(-1);
		expect(at('newer source stored')).toBeGreaterThan(at('destination listing 503'));
		expect(at('source delete') === -1 || at('source delete') > at('newer source stored')).toBe(true);
		const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
		expect(result.items[0]?.json.error).toBeDefined();
	}, 60_000);
});
