/**
 * Folder → Copy of a whole bucket (a folder of the source bucket is the destination folder's name) into another
 * bucket, run again after a first run, all within one second of the storage's clock (small files uploaded and
 * copied at once). The first run writes the other bucket's archive/x.txt (a copy of x.txt), which has the CDN
 * location of the source's archive/x.txt (spec §3.9: a location names the key, not the bucket). The second run
 * must not copy the source's archive/x.txt with the bytes of the first run's copy. Through n8n-core's engine over
 * real HTTP to the emulator, its clock held in one second.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The storage's clock, held at one instant (every write is dated in one second) while `held` is set.
let held: number | undefined;
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE], now: () => held ?? Date.now() });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const text = async (bucket: typeof SOURCE, key: string) =>
	(await emulator().readObject(bucket.name, bucket.region, key))?.body.toString();

async function copyWholeBucket(typeVersion: number) {
	const result = await runNode({
		credentials: credentialsFor(emulator()),
		typeVersion,
		parameters: {
			...BUCKET,
			resource: 'folder',
			operation: 'copy',
			folder: path(''),
			destinationFolder: path('archive/'),
			options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
		},
		continueOnFail: true,
	});
	return result.items.map((item) => item.json);
}

describe.each([2, 3])(
	'Folder → Copy of a whole bucket into another bucket within one second (node version %i)',
	(typeVersion) => {
		afterEach(() => (held = undefined));

		it('a run again copies no file with the bytes of a copy the first run wrote at its key', async () => {
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			held = Date.now();
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('BBBB old'), options);
			const first = await copyWholeBucket(typeVersion);
			const second = await copyWholeBucket(typeVersion);
			const copy = await text(OTHER, 'archive/archive/x.txt');
			// A copy of the source archive/x.txt, if made, holds its own bytes, never those of x.txt.
			expect({ copy, first, second }).toEqual({ copy: copy === undefined ? undefined : 'BBBB old', first, second });
		}, 60_000);
	},
);
