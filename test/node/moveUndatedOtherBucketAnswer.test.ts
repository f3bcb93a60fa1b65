/**
 * File → Move (and Copy) of a source whose key another bucket of the account holds too, its file of
 * the same size written later. One CDN location per key (spec §3.9; docs/api-choices.md, "Another
 * bucket of the account holding the source's key"): the source's read may be answered with that
 * bucket's file, and a CDN or proxy may send no Last-Modified (spec §3.12, "whatever headers the CDN
 * sends"). Such an answer is dated by nothing: it cannot be told from the source's own bytes, so it
 * must not be copied as the source, and a Move must never delete the source on it.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, runFileStorage, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const emulator = useEmulator({ buckets: [OTHER, HERE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (where: typeof HERE, key: string) =>
	(await emulator().readObject(where.name, where.region, key))?.body.toString();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('File → Move and Copy of a source another bucket holds at its key, the CDN answering undated', () => {
	it.each(['move', 'copy'])(
		'%s: the source’s bytes are kept at the source or copied, never replaced by the other bucket’s file',
		async (operation) => {
			const key = `undated-location-${operation}/report.txt`;
			const moved = `undated-location-${operation}/report.moved`;
			const options = { visibility: 'public' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(HERE, key, Buffer.from('mine: AAAA'), options);
			await sleep(1100);
			await emulator().adversary.put(OTHER, key, Buffer.from('other BBBB'), { ...options, writer: 'other' });
			await sleep(4500);
			// The CDN answers the key's one location with the other bucket's file, and no Last-Modified.
			emulator().adversary.setHooks({
				before: async (call: HookCall) => {
					if (call.op !== 'cdn' || !call.path.endsWith(`/${key}`)) return undefined;
					const other = await text(OTHER, key);
					return {
						status: 200,
						headers: { 'Content-Type': 'text/plain', Date: new Date().toUTCString() },
						body: other,
					};
				},
			});
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation,
					fileKey: { __rl: true, mode: 'key', value: key },
					destinationKey: moved,
					options: { maxRetries: 0 },
				},
				{ typeVersion: 3, continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			const stored = { source: await text(HERE, key), copy: await text(HERE, moved) };
			// The source's bytes are still somewhere in its bucket.
			expect([stored.source, stored.copy]).toContain('mine: AAAA');
			// A copy made holds the source's bytes, not the other bucket's.
			if (stored.copy !== undefined)
				expect({ stored, result: result.items[0]?.json }).toMatchObject({ stored: { copy: 'mine: AAAA' } });
		},
		60_000,
	);
});
