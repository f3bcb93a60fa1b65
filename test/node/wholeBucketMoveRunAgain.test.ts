/**
 * Folder → Move (and Copy) of a whole bucket (Allow Whole Bucket) into a folder of another bucket, run again after
 * a first run kept a file (its key was written in the other bucket by that run). The second run must not
 * read that source through the other bucket's file at the same key (one CDN location per key, spec §3.9)
 * and delete it: no file loses its bytes. Through n8n-core's engine over real HTTP to the emulator.
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

async function transferWholeBucket(typeVersion: number, operation = 'move') {
	const result = await runNode({
		credentials: credentialsFor(emulator()),
		typeVersion,
		parameters: {
			...BUCKET,
			resource: 'folder',
			operation,
			folder: path(''),
			destinationFolder: path('archive/'),
			options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region, allowWholeBucket: true },
		},
		continueOnFail: true,
	});
	return result.items.map((item) => item.json);
}

describe.each([2, 3])(
	'Folder → Move of a whole bucket into another bucket, run again (node version %i)',
	(typeVersion) => {
		it('a second run keeps every source byte somewhere', async () => {
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('BBBB old'), options);
			await sleep(2100);
			// The first run moves x.txt to archive/x.txt there and keeps the source archive/x.txt (its key written there).
			await transferWholeBucket(typeVersion);
			// Run again to finish: the source archive/x.txt shares its CDN location with the copy of x.txt.
			await transferWholeBucket(typeVersion);
			const places = [
				await text(SOURCE, 'archive/x.txt'),
				await text(OTHER, 'archive/archive/x.txt'),
				await text(OTHER, 'archive/x.txt'),
				await text(SOURCE, 'x.txt'),
			];
			// Both files' bytes are somewhere: the source archive/x.txt is never deleted unread.
			expect(places).toContain('AAAA top');
			expect(places).toContain('BBBB old');
		}, 60_000);
	},
);

describe.each([2, 3])(
	'Folder → Copy of a whole bucket into another bucket, run again (node version %i)',
	(typeVersion) => {
		it('a second run copies no file with bytes other than its own', async () => {
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('BBBB old'), options);
			await sleep(2100);
			const first = await transferWholeBucket(typeVersion, 'copy');
			const second = await transferWholeBucket(typeVersion, 'copy');
			const copy = await text(OTHER, 'archive/archive/x.txt');
			// A copy of the source archive/x.txt, if made, holds its bytes.
			expect({ copy, first, second }).toEqual({ copy: copy === undefined ? undefined : 'BBBB old', first, second });
		}, 60_000);
	},
);
