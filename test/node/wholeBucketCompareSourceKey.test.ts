/**
 * Folder → Copy and Move of a whole bucket into a folder of another bucket, where a file is already at a
 * destination (archive/x.txt there, other bytes of the same size) and the source bucket itself holds a file at that
 * destination's key (its archive/x.txt, the bytes of x.txt), all stored in one second. Both have one CDN location
 * (spec §3.9: a location names the key, not the bucket), and the run lists that source file itself: the comparison
 * of x.txt with the destination must not read the source bucket's archive/x.txt as the destination, and report the
 * destination a copy of x.txt (Copy `skipped`, Move `moved` deleting x.txt). Through n8n-core's engine over real
 * HTTP to the emulator, its clock held in one second while the files are stored.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'other-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The storage's clock, held at one instant while `held` is set (files stored in one second).
let held: number | undefined;
// The source bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [SOURCE, OTHER], now: () => held ?? Date.now() });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const text = async (bucket: typeof SOURCE, key: string) =>
	(await emulator().readObject(bucket.name, bucket.region, key))?.body.toString();

async function transferWholeBucket(typeVersion: number, operation: 'copy' | 'move') {
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

describe.each([
	[2, 'copy'],
	[3, 'copy'],
	[2, 'move'],
	[3, 'move'],
] as const)(
	'Folder → Copy/Move of a whole bucket onto a destination already there (node version %i, %s)',
	(typeVersion, operation) => {
		afterEach(() => (held = undefined));

		it('reports x.txt done only when the destination holds its bytes', async () => {
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			held = Date.now();
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(OTHER, 'archive/x.txt', Buffer.from('CCCC new'), options);
			held = undefined;
			const items = await transferWholeBucket(typeVersion, operation);
			const x = items.find((item) => (item.source as { key?: string } | undefined)?.key === 'x.txt');
			const destination = await text(OTHER, 'archive/x.txt');
			const done = ['skipped', 'moved', 'copied'].includes(String(x?.status));
			// x.txt is reported copied before (or moved) only if archive/x.txt there holds its bytes.
			expect({ status: x?.status, destination, x }).toEqual({
				status: x?.status,
				destination: done ? 'AAAA top' : 'CCCC new',
				x,
			});
		}, 60_000);
	},
);
