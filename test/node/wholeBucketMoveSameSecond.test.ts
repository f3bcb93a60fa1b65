/**
 * Folder → Move of a whole bucket (Allow Whole Bucket) into a folder of another bucket, run again: the first run
 * moved x.txt to the other bucket's archive/x.txt, and a file archive/x.txt of the same size was stored in the
 * source bucket in that same second of the storage's clock (the run's next file, an upload of another workflow).
 * Both have one CDN location (spec §3.9: a location names the key, not the bucket). The second run must not delete
 * the source's archive/x.txt unread. Through n8n-core's engine over real HTTP to the emulator.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The storage's clock, held at one instant while `held` is set (a write dated in a chosen second).
let held: number | undefined;
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE], now: () => held ?? Date.now() });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (bucket: typeof SOURCE, key: string) =>
	(await emulator().readObject(bucket.name, bucket.region, key))?.body.toString();

async function moveWholeBucket(typeVersion: number) {
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
	return result.items.map((item) => item.json);
}

describe.each([2, 3])(
	'Folder → Move of a whole bucket into another bucket, run again (node version %i)',
	(typeVersion) => {
		afterEach(() => (held = undefined));

		it('keeps the bytes of a source stored in the second of the first run copy at its key', async () => {
			for (const key of ['x.txt', 'archive/x.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
			for (const key of ['archive/x.txt', 'archive/archive/x.txt'])
				await emulator().adversary.remove(OTHER, key, 'setup');
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, 'x.txt', Buffer.from('AAAA top'), options);
			await sleep(2100);
			const first = await moveWholeBucket(typeVersion);
			const copied = (await emulator().adversary.current('archive/x.txt'))?.lastModified;
			// Another writer stores archive/x.txt in the source bucket in the second the first run stored its copy.
			held = Date.parse(copied ?? '');
			await emulator().adversary.put(SOURCE, 'archive/x.txt', Buffer.from('BBBB new'), options);
			held = undefined;
			const second = await moveWholeBucket(typeVersion);
			const places = [
				await text(SOURCE, 'archive/x.txt'),
				await text(OTHER, 'archive/archive/x.txt'),
				await text(OTHER, 'archive/x.txt'),
				await text(SOURCE, 'x.txt'),
			];
			// The source archive/x.txt's bytes are somewhere: never deleted unread.
			expect({ places, first, second }).toEqual({ places: expect.arrayContaining(['BBBB new']), first, second });
		}, 60_000);
	},
);
