/**
 * Two File → Move items of one version-3 run (items in parallel), through n8n-core's engine over
 * real HTTP to the emulator: the first writes its copy at a key of another bucket that is the key
 * of the second item's source. A file's CDN location names its key, not its bucket (spec §3.9), so
 * once that copy is there the second source's read may be answered with it. The second Move must
 * not then copy the first file's bytes as its own and delete its source.
 */
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (where: typeof SOURCE, key: string) =>
	(await emulator().readObject(where.name, where.region, key))?.body.toString();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('File → Move items of one run, one writing at another bucket’s key that is another item’s source', () => {
	// The writer's source sorts before or after the shared key: the items' turns then come in either order.
	it.each(['x', 'yy'])(
		'writer source col/%s.txt: the later source keeps its bytes, never copied from the run’s own copy nor deleted on it',
		async (name) => {
			const writer = `col/${name}.txt`;
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			for (const key of ['col/y.txt', 'col/z.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			await emulator().adversary.remove(OTHER, 'col/y.txt', 'setup');
			await emulator().adversary.put(SOURCE, writer, Buffer.from('AAAA'), options);
			await emulator().adversary.put(SOURCE, 'col/y.txt', Buffer.from('BBBB'), options);
			await sleep(6000);
			// The second item's source link is asked for once the first item's copy is at its key over there.
			emulator().adversary.setHooks({
				before: async (call: HookCall) => {
					if (call.op !== 'signedUrl' || call.query.get('bucket_name') !== SOURCE.name) return undefined;
					if (call.query.get('key') !== 'col/y.txt') return undefined;
					for (let waited = 0; waited < 15_000; waited += 100) {
						if ((await text(OTHER, 'col/y.txt')) !== undefined) break;
						await sleep(100);
					}
					return undefined;
				},
			});
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				typeVersion: 3,
				items: [
					{ json: { from: writer, to: 'col/y.txt', bucket: OTHER.name, region: OTHER.region } },
					{ json: { from: 'col/y.txt', to: 'col/z.txt', bucket: SOURCE.name, region: SOURCE.region } },
				],
				parameters: {
					...BUCKET,
					resource: 'file',
					operation: 'move',
					fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
					destinationKey: '={{ $json.to }}',
					options: { destinationBucket: '={{ $json.bucket }}', destinationRegion: '={{ $json.region }}' },
				},
				continueOnFail: true,
			});
			emulator().adversary.setHooks(undefined);
			const stored = [
				await text(SOURCE, writer),
				await text(SOURCE, 'col/y.txt'),
				await text(OTHER, 'col/y.txt'),
				await text(SOURCE, 'col/z.txt'),
			];
			// Both files' bytes are still somewhere.
			expect(stored).toContain('AAAA');
			expect(stored).toContain('BBBB');
			// And a copy made holds the bytes of its own source.
			if (stored[3] !== undefined) expect(stored[3]).toBe('BBBB');
			// Refused, the reader says why.
			const reader = result.items[1]?.json;
			if (reader?.error)
				expect(String(reader.description)).toMatch(/this run wrote 'col\/y.txt' in bucket 'first-bucket'/);
			// The writer's turn first (its source sorts after the shared key): the reader cannot but be refused.
			if (name === 'yy') expect(String(reader?.error)).toMatch(/cannot be read apart from a file this run wrote/);
			expect(result.items).toHaveLength(2);
		},
		90_000,
	);
});
