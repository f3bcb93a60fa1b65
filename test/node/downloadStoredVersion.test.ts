/**
 * File → Download of a public file replaced by one of the same size (spec §3.9: a CDN keeps serving
 * an earlier version for a while; the emulator keeps public answers for `cdnCacheSeconds`). A public
 * file's signed link is its plain CDN location: the download reads it as Copy reads its source
 * (purge first, the answer judged against the service's record: files/proof.ts), so it gives the
 * version the service stores, or fails with nothing stored. A private file costs no request more.
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, put } from '../trigger/support';
import { downloadByKey, runFileStorage, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 60 });

beforeEach(() => emulator().adversary.setHooks(undefined));

const download = async (key: string, typeVersion = 3) => await downloadByKey(emulator(), key, { typeVersion });

/** The API's requests by kind from now on (every request let through). */
function counting(): Map<string, number> {
	const seen = new Map<string, number>();
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			seen.set(call.op, (seen.get(call.op) ?? 0) + 1);
			return await Promise.resolve(undefined);
		},
	});
	return seen;
}

/** Stores version-1, downloads it (filling the CDN cache for a public file), then stores version-2 a second later. */
async function downloadedThenReplaced(key: string, visibility: string): Promise<void> {
	await put(apiFor(emulator()), key, 'version-1', { visibility });
	const first = await download(key);
	expect(first.error).toBeUndefined();
	expect((await first.readBinary(first.items[0])).toString()).toBe('version-1');
	await nextSecond();
	await put(apiFor(emulator()), key, 'version-2', { visibility });
}

describe('File → Download of a file replaced by one of the same size', () => {
	it('a public file: gives the bytes stored now, never the version the CDN kept, in every version', async () => {
		for (const typeVersion of [1, 2, 3]) {
			const key = `dl-public-${typeVersion}/report.txt`;
			await downloadedThenReplaced(key, 'public');
			const requests = counting();
			const result = await download(key, typeVersion);
			expect(result.error).toBeUndefined();
			expect((await result.readBinary(result.items[0])).toString()).toBe('version-2');
			// The cost: a purge before the read, and the service's record listed before the read and after it.
			expect(Object.fromEntries(requests)).toEqual({ signedUrl: 1, purge: 1, cdn: 1, list: 2 });
		}
	});

	it('a public file the CDN keeps even after its purge: fails saying why, nothing stored', async () => {
		const key = 'dl-kept/report.txt';
		await downloadedThenReplaced(key, 'public');
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				await Promise.resolve(
					call.op === 'cdn'
						? { status: 200, headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' }, body: 'version-1' }
						: undefined,
				),
		});
		const result = await download(key);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(
			/^Download of 'dl-kept\/report\.txt' was not kept: the CDN's answer cannot be shown to be the version the service stores \(a cache marked the CDN's answer as kept \(Age: 30, X-Cache: HIT\), so its bytes cannot be shown/,
		);
		expect(result.error?.description).toMatch(/^Nothing was stored\. .*Run the node again in a few minutes/);
	});

	it('a private file: read through its signed link with no purge, then one list request for its record, the bytes stored now', async () => {
		const key = 'dl-private/report.txt';
		await downloadedThenReplaced(key, 'private');
		const requests = counting();
		const result = await download(key);
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).toString()).toBe('version-2');
		// The record listed after the read ties the answer to this bucket's file (one CDN location per key).
		expect(Object.fromEntries(requests)).toEqual({ signedUrl: 1, cdn: 1, list: 1 });
	});
});

describe('File → Download of public files over a request pool of one slot (version 3, Parallel Requests 1)', () => {
	it('finishes: the record is read before the answer’s body takes the one slot', async () => {
		const keys = ['dl-slot/a.txt', 'dl-slot/b.txt'];
		for (const key of keys) await put(apiFor(emulator()), key, `bytes of ${key}`, { visibility: 'public' });
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'download',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.key }}' },
				options: { maxRetries: 0, parallelRequests: 1 },
			},
			{ typeVersion: 3, items: keys.map((key) => ({ json: { key } })), timeoutMs: 10_000 },
		);
		expect(result.error).toBeUndefined();
		const given = await Promise.all(result.items.map(async (item) => (await result.readBinary(item)).toString()));
		expect(given).toEqual(keys.map((key) => `bytes of ${key}`));
	}, 20_000);
});
