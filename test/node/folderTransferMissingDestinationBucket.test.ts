/**
 * Folder → Copy and Move to a destination bucket that does not exist (in that region): the error names the fields
 * to fix, Destination Bucket Name and Destination Region (the options), not the source's Bucket Name and Region,
 * which are right (the folder was listed from them). Through n8n-core's engine over real HTTP to the emulator.
 */
import { apiFor, put } from '../trigger/support';
import { BUCKET, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });

describe('Folder → Copy and Move to a destination bucket that does not exist', () => {
	it.each([
		['copy', { destinationBucket: 'no-such-bucket' }],
		['move', { destinationBucket: 'no-such-bucket' }],
		['move', { destinationRegion: 'eu-west-1' }],
	] as const)(
		'%s with %j: the error names Destination Bucket Name and Destination Region, and the source stays',
		async (operation, options) => {
			const key = `nobucket-${operation}-${Object.keys(options)[0]}/a.txt`;
			await put(api(), key, 'the source', { visibility: 'private' });
			const folder = key.slice(0, key.indexOf('/') + 1);
			const result = await runFileStorage(
				emulator(),
				{ resource: 'folder', operation, folder: path(folder), destinationFolder: path('archive/'), options },
				{ continueOnFail: true },
			);
			const failed = result.items.find((item) => item.json.status === 'failed');
			expect(failed).toBeDefined();
			const words = `${String(failed?.json.error)} ${String(failed?.json.description)}`;
			expect(words).toMatch(/Destination Bucket Name/);
			expect(words).toMatch(/Destination Region/);
			expect(words).not.toMatch(/check Bucket Name and Region/);
			expect((await read(key))?.body.toString()).toBe('the source');
		},
		60_000,
	);
});

describe('a missing destination bucket is found once, before any source is read', () => {
	it.each(['copy', 'move'] as const)(
		'Folder → %s of several files: one failed item for the run, no source read, the summary counts it',
		async (operation) => {
			for (const name of ['a', 'b', 'c'])
				await put(api(), `once-${operation}/${name}.txt`, name, { visibility: 'private' });
			const before = emulator().stats().requests;
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'folder',
					operation,
					folder: path(`once-${operation}/`),
					destinationFolder: path('archive/'),
					options: { destinationBucket: 'no-such-bucket', summary: true },
				},
				{ continueOnFail: true },
			);
			const after = emulator().stats().requests;
			const files = result.items.filter((item) => item.json.summary !== true);
			expect(files.map((item) => item.json.status)).toEqual(['failed']);
			expect(String(files[0].json.description)).toMatch(/check Destination Bucket Name and Destination Region/);
			expect(result.items.at(-1)?.json).toMatchObject({ summary: true, failed: 1 });
			// No source was asked for its link (nor read, nor uploaded anywhere).
			expect((after.signedUrl ?? 0) - (before.signedUrl ?? 0)).toBe(0);
			expect((after.upload ?? 0) - (before.upload ?? 0)).toBe(0);
			for (const name of ['a', 'b', 'c']) expect(await read(`once-${operation}/${name}.txt`)).toBeDefined();
		},
		60_000,
	);

	it.each(['copy', 'move'] as const)(
		'File → %s to a missing destination bucket names Destination Bucket Name and Destination Region',
		async (operation) => {
			const key = `single-${operation}/a.txt`;
			await put(api(), key, 'the source', { visibility: 'private' });
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation,
				fileKey: { __rl: true, mode: 'path', value: key },
				destinationKey: 'archive/a.txt',
				options: { destinationBucket: 'no-such-bucket' },
			});
			expect(result.error?.description).toMatch(/check Destination Bucket Name and Destination Region/);
			expect((await read(key))?.body.toString()).toBe('the source');
		},
		60_000,
	);
});
