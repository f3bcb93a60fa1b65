/**
 * Folder → Move of a whole bucket (Allow Whole Bucket) into a folder of another bucket of the account. A
 * whole bucket overlaps every folder of another, so the move is not refused for it; its files are guarded
 * one by one: the run writes `archive/x.txt` there, which has the CDN location of the source's own
 * `archive/x.txt` (a location names the key, not the bucket, spec §3.9), so that source is not read
 * (`kept`), and no file loses its bytes. Through n8n-core's engine over real HTTP to the emulator.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE] });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (bucket: typeof SOURCE, key: string) =>
	(await emulator().readObject(bucket.name, bucket.region, key))?.body.toString();

describe.each([2, 3])(
	'Folder → Move of a whole bucket into a folder of another bucket (node version %i)',
	(typeVersion) => {
		it('moves every file whose key the run did not write there, keeps the one it did, and loses no bytes', async () => {
			// The one bucket pair serves both versions: what the last run left is removed first.
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('BBBB old'), options);
			await sleep(5000);
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				typeVersion,
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation: 'move',
					folder: path(''),
					destinationFolder: path('archive/'),
					options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region, allowWholeBucket: true },
				},
				continueOnFail: true,
			});
			const statuses = Object.fromEntries(
				result.items.map((item) => [(item.json.source as { key?: string } | null)?.key, item.json.status]),
			);
			// Every byte is somewhere: the top file moved, the source whose key the run wrote there kept.
			expect(await text(OTHER, 'archive/x.txt')).toBe('AAAA top');
			expect(await text(SOURCE, 'x.txt')).toBeUndefined();
			expect(statuses['x.txt']).toBe('moved');
			const old = [await text(SOURCE, 'archive/x.txt'), await text(OTHER, 'archive/archive/x.txt')];
			expect(old).toContain('BBBB old');
			if (old[0] === 'BBBB old') expect(statuses['archive/x.txt']).not.toBe('moved');
		}, 60_000);
	},
);
