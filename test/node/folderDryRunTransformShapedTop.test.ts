/**
 * Folder → Copy and Move with Dry Run into the top of the bucket, when one sub-folder of the source has
 * the shape of a CDN transformation (`tr-…`, `thumb-…`): a real run refuses that file (its key at the top
 * would be read by the CDN as a transformation), the other files go. Dry Run promises to list every file
 * with what would happen, and change nothing: the refused file is listed as such, the others as they
 * would go, and the run is no failure that says files "already moved stay so".
 */
import { BUCKET, HERE, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);

describe('Folder → Copy and Move, Dry Run to the top of the bucket with a transformation-shaped sub-folder', () => {
	it.each(['copy', 'move'] as const)(
		'%s: Dry Run lists every file, the one a real run refuses included, and changes nothing',
		async (operation) => {
			const from = `dry-${operation}/`;
			const files = [`${from}a.txt`, `${from}tr-w_200/cat.txt`, `${from}z.txt`];
			for (const key of files) {
				await emulator().adversary.put(HERE, key, Buffer.from(`bytes of ${key}`), {
					visibility: 'private',
					contentType: 'text/plain',
					writer: 'setup',
				});
			}
			const result = await runFileStorage(emulator(), {
				resource: 'folder',
				operation,
				folder: path(from),
				destinationFolder: path('/'),
				dryRun: true,
			});
			expect(result.error?.message).toBeUndefined();
			const listed = result.items.map((item) => (item.json.source as { key?: string } | undefined)?.key).sort();
			expect(listed).toEqual([...files].sort());
			for (const key of files) expect(await read(key)).toBeDefined();
			expect(await read('a.txt')).toBeUndefined();
		},
		60_000,
	);
});
