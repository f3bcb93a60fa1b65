/**
 * File and Folder → Copy and Move of a source whose first folder has the shape of a CDN transformation
 * (`tr-w_300/dog.bin`, spec §3.11): the CDN reads its link as "`dog.bin`, 300 pixels wide" (the emulator
 * serves `dog.bin`). When `dog.bin` has the source's size and second, nothing the CDN sends tells the two
 * apart, so no read of that link ties a copy to the source. Such a source is refused before any request:
 * nothing is written, nothing deleted, and the error names the parameter that named it.
 */
import type { INodeParameters } from 'n8n-workflow';

import { HERE, byKey, randomFile, sha256, useEmulator } from './support';
import { runCounted as runCountedIn, storeInOneSecond as storeFilesInOneSecond } from './transformShaped';

const OTHER = { name: 'other-bucket', region: 'eu-west-1' };
const emulator = useEmulator({ buckets: [HERE, OTHER] });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const hash = async (key: string, bucket = HERE) => {
	const stored = await emulator().readObject(bucket.name, bucket.region, key);
	return stored && sha256(stored.body);
};

/** Stores the files in one second of the storage's clock, then lets it pass. */
async function storeInOneSecond(files: Array<[string, Buffer]>): Promise<void> {
	await storeFilesInOneSecond(emulator(), files);
	// Past the listed second and the clocks' margin: a read is then taken at once.
	await new Promise((resolve) => setTimeout(resolve, 5500));
}

const runCounted = async (parameters: INodeParameters) => await runCountedIn(emulator(), parameters);

it('File → Copy of a tr-… source that another file of its size and second answers is refused before any request, naming File', async () => {
	const own = randomFile(1500);
	const other = randomFile(1500);
	await storeInOneSecond([
		['cat.bin', other],
		['tr-w_300/cat.bin', own],
	]);
	const { result, calls } = await runCounted({
		resource: 'file',
		operation: 'copy',
		fileKey: byKey('tr-w_300/cat.bin'),
		destinationKey: 'copies/cat.bin',
	});
	expect(calls).toEqual([]);
	expect(result.items).toHaveLength(1);
	const error = String(result.items[0].json.error);
	expect(error).toContain("Copy: the source 'tr-w_300/cat.bin' (parameter 'File') starts with the folder \"tr-w_300\"");
	expect(String(result.items[0].json.description)).toMatch(/could be another file's/);
	expect(await hash('copies/cat.bin')).toBeUndefined();
	expect(await hash('tr-w_300/cat.bin')).toBe(sha256(own));
}, 60_000);

it('Folder → Move of a tr-…/ source folder is refused before the listing, naming Folder; its files stay', async () => {
	const own = randomFile(1600);
	await storeInOneSecond([
		['pet.bin', randomFile(1600)],
		['tr-w_350/pet.bin', own],
	]);
	const { result, calls } = await runCounted({
		resource: 'folder',
		operation: 'move',
		folder: path('tr-w_350/'),
		destinationFolder: path('moved/'),
	});
	expect(calls).toEqual([]);
	expect(result.items).toHaveLength(1);
	expect(String(result.items[0].json.error)).toContain(
		"Move: the source folder 'tr-w_350/' (parameter 'Folder') starts with the folder \"tr-w_350\"",
	);
	expect(await hash('moved/pet.bin')).toBeUndefined();
	expect(await hash('tr-w_350/pet.bin')).toBe(sha256(own));
}, 60_000);

describe('Folder → Copy and Move of a tr-…/ folder into the top of the bucket, a same-size file already there', () => {
	it.each(['copy', 'move'] as const)(
		"%s: the comparison would read that file twice (its own link and the source's); refused, both files stay",
		async (operation) => {
			const own = randomFile(1700);
			const there = randomFile(1700);
			const folder = operation === 'copy' ? 'tr-w_401' : 'tr-w_402';
			await storeInOneSecond([
				[`fish-${operation}.bin`, there],
				[`${folder}/fish-${operation}.bin`, own],
			]);
			const { result, calls } = await runCounted({
				resource: 'folder',
				operation,
				folder: path(`${folder}/`),
				destinationFolder: path('/'),
			});
			expect(calls).toEqual([]);
			expect(result.items.map((item) => item.json.status)).not.toContain(operation === 'copy' ? 'skipped' : 'moved');
			expect(String(result.items[0].json.error)).toContain(`(parameter 'Folder') starts with the folder "${folder}"`);
			expect(await hash(`${folder}/fish-${operation}.bin`)).toBe(sha256(own));
			expect(await hash(`fish-${operation}.bin`)).toBe(sha256(there));
		},
		60_000,
	);
});

it('Folder → Copy of a whole bucket to another: a file under a tr-… first folder is refused alone naming its source, the others go', async () => {
	const own = randomFile(1800);
	await storeInOneSecond([
		['whole/bird.bin', randomFile(1800)],
		['tr-w_500/whole/bird.bin', own],
		['whole/plain.txt', Buffer.from('plain')],
	]);
	const { result } = await runCounted({
		resource: 'folder',
		operation: 'copy',
		folder: path('/'),
		destinationFolder: path('/'),
		options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
	});
	const bySource = new Map(result.items.map((item) => [(item.json.source as { key?: string })?.key, item.json]));
	const refused = bySource.get('tr-w_500/whole/bird.bin');
	expect(refused?.status).toBe('refused');
	expect(String(refused?.reason)).toContain(
		"Copy: the source 'tr-w_500/whole/bird.bin' (a file of the folder in parameter 'Folder') starts with the folder \"tr-w_500\"",
	);
	expect(await hash('tr-w_500/whole/bird.bin', OTHER)).toBeUndefined();
	expect(await hash('tr-w_500/whole/bird.bin')).toBe(sha256(own));
	expect(bySource.get('whole/plain.txt')?.status).toBe('copied');
	expect(await hash('whole/plain.txt', OTHER)).toBe(sha256(Buffer.from('plain')));
}, 60_000);
