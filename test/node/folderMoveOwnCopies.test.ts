/**
 * Folder → Move into another bucket of the account, below the source folder's own path
 * (`nest/` → `nest/b/` there), through n8n-core's engine over real HTTP to the emulator. A file's
 * CDN location names its key, not its bucket (spec §3.9): the run's own copy of `nest/x` lands at
 * `nest/b/x` in the destination bucket, the very key of another source file, `nest/b/x`. Reading
 * that source afterwards may be answered with the run's own copy; the Move must not then delete a
 * source whose bytes it never read, nor report a copy of other bytes as the source's.
 */
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const DESTINATION = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The destination bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [DESTINATION, SOURCE] });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (where: typeof SOURCE, key: string) =>
	(await emulator().readObject(where.name, where.region, key))?.body.toString();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Folder → Move into another bucket, below the source folder’s own path', () => {
	it.each([
		['move', 2],
		['move', 3],
		['copy', 2],
	] as const)(
		'%s, version %s: a source whose key the run has already written in the destination bucket keeps its bytes (never lost, and its copy is of its own bytes)',
		async (operation, typeVersion) => {
			const root = `nest-${operation}-v${typeVersion}/`;
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			// Two files of the same size, other bytes: nest/data.txt goes to nest/b/data.txt over there.
			await emulator().adversary.put(SOURCE, `${root}data.txt`, Buffer.from('AAAA'), options);
			await emulator().adversary.put(SOURCE, `${root}b/data.txt`, Buffer.from('BBBB'), options);
			await sleep(6000);
			// Version 3 handles both files at once: the second one's link is asked for once the first one's
			// copy is there (the order version 2 takes by itself).
			emulator().adversary.setHooks({
				before: async (call: HookCall) => {
					if (call.op !== 'signedUrl' || call.query.get('bucket_name') !== SOURCE.name) return undefined;
					if (call.query.get('key') !== `${root}b/data.txt`) return undefined;
					for (let waited = 0; waited < 20_000; waited += 100) {
						if ((await text(DESTINATION, `${root}b/data.txt`)) !== undefined) break;
						await sleep(100);
					}
					return undefined;
				},
			});
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				typeVersion,
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation,
					folder: path(root),
					destinationFolder: path(`${root}b/`),
					options: { destinationBucket: DESTINATION.name, destinationRegion: DESTINATION.region },
				},
				continueOnFail: true,
			});
			emulator().adversary.setHooks(undefined);
			const stored = [
				await text(SOURCE, `${root}data.txt`),
				await text(SOURCE, `${root}b/data.txt`),
				await text(DESTINATION, `${root}b/data.txt`),
				await text(DESTINATION, `${root}b/b/data.txt`),
			];
			// Both files' bytes are still somewhere.
			expect(stored).toContain('AAAA');
			expect(stored).toContain('BBBB');
			// And what is reported moved holds the bytes of its source.
			for (const item of result.items) {
				if (item.json.status !== 'moved' && item.json.status !== 'copied') continue;
				const source = (item.json.source as { key: string }).key;
				const copy = await text(DESTINATION, String(item.json.key));
				expect({ source, copy }).toEqual({ source, copy: source.endsWith('b/data.txt') ? 'BBBB' : 'AAAA' });
			}
		},
		60_000,
	);
});
