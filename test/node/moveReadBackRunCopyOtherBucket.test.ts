/**
 * Two File → Move items of one run, through n8n-core's engine over real HTTP to the emulator, its clock held in one
 * second. The first moves a file to dst/d.txt in another bucket; the second moves a file with the same bytes to
 * dst/d.txt in the source bucket. A file's CDN location names its key, not its bucket (spec §3.9), so the second
 * item's check of its copy (the HEAD, the read-back) may be answered with the first item's file. Another writer
 * replaces the second copy at the same size right after its upload: the second source must not be deleted on a
 * read of the first item's file while its own destination holds the other writer's bytes.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The storage's clock, held at one instant (every write is dated in one second) while `held` is set.
let held: number | undefined;
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE], now: () => held ?? Date.now() });
const text = async (bucket: typeof SOURCE, key: string) =>
	(await emulator().readObject(bucket.name, bucket.region, key))?.body.toString();

afterEach(() => {
	held = undefined;
	emulator().adversary.setHooks(undefined);
});

describe.each([2, 3])('File → Move items of one run onto one key in two buckets (node version %i)', (typeVersion) => {
	it('a source is never deleted on a read of the run’s own copy in the other bucket while its destination holds another writer’s file', async () => {
		for (const key of ['src/a.txt', 'src/b.txt', 'dst/d.txt']) await emulator().adversary.remove(SOURCE, key, 'setup');
		await emulator().adversary.remove(OTHER, 'dst/d.txt', 'setup');
		const now = Date.now();
		// The sources are dated 10 s before the run's second: their reads are settled at once.
		held = now - 10_000;
		const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
		await emulator().adversary.put(SOURCE, 'src/a.txt', Buffer.from('BBBB copied'), options);
		await emulator().adversary.put(SOURCE, 'src/b.txt', Buffer.from('BBBB copied'), options);
		held = now;
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call) => {
				if (call.op !== 'upload' || call.query.get('bucket_name') !== SOURCE.name) return;
				if (call.query.get('key') !== 'dst/d.txt' || struck) return;
				struck = true;
				// Another writer, the same size, the same second.
				await emulator().adversary.put(SOURCE, 'dst/d.txt', Buffer.from('ZZZZ writer'), {
					...options,
					writer: 'other',
				});
			},
		});
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			typeVersion,
			items: [
				{ json: { from: 'src/a.txt', bucket: OTHER.name, region: OTHER.region } },
				{ json: { from: 'src/b.txt', bucket: SOURCE.name, region: SOURCE.region } },
			],
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: 'dst/d.txt',
				options: { destinationBucket: '={{ $json.bucket }}', destinationRegion: '={{ $json.region }}' },
			},
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		const second = {
			source: await text(SOURCE, 'src/b.txt'),
			destination: await text(SOURCE, 'dst/d.txt'),
			reportedMoved: result.items[1]?.json.error === undefined,
			checked: result.items[1]?.json.checked,
		};
		// Refused before its upload (the other writer never came): the source stays.
		if (!struck) expect(second).toMatchObject({ source: 'BBBB copied', reportedMoved: false });
		// The second source's bytes stay at its key, or its own destination holds them.
		if (second.source === undefined) expect(second).toMatchObject({ destination: 'BBBB copied' });
		// Never reported moved while its destination holds the other writer's file.
		if (second.destination === 'ZZZZ writer')
			expect(second).toMatchObject({ reportedMoved: false, source: 'BBBB copied' });
	}, 60_000);
});
