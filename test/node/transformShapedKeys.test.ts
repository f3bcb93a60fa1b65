/**
 * A key whose first folder has the shape of a CDN transformation (`tr-w_200/cat.jpg`): spec §3.11
 * puts a transformation segment where such a folder sits in the file's link, and the emulator's
 * CDN reads it so (whether the real CDN does is not published). Download must not store another
 * file's bytes as this one: for such keys it checks the answer against the listing's size.
 */
import type { INodeParameters } from 'n8n-workflow';

import { nextSecond } from '../trigger/support';
import { fileItem, randomFile, runFileStorage, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

async function store(files: Array<[string, Buffer]>, visibility = 'public'): Promise<void> {
	for (const [key, bytes] of files) {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key, visibility },
			{ items: [fileItem(bytes)] },
		);
		expect(stored.error).toBeUndefined();
	}
}

const download = async (key: string, options: INodeParameters = {}) =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'download', fileKey: byKey(key), options });
const move = async (key: string, destinationKey: string) =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey });
const stored = async (key: string) => (await emulator().readObject('my-bucket', 'us-east-1', key))?.body;

it('Download of a public tr-… key that the CDN reads as another file fails naming the folder; nothing is stored', async () => {
	// The other file stored second: the CDN's answer is dated this file's second or later, so its size decides.
	await store([
		['tr-w_200/cat.jpg', randomFile(2000)],
		['cat.jpg', randomFile(1000)],
	]);
	const result = await download('tr-w_200/cat.jpg');
	expect(result.items).toEqual([]);
	expect(result.error?.message).toContain("Download of 'tr-w_200/cat.jpg'");
	expect(result.error?.description).toContain('"tr-w_200"');
	expect(result.error?.description).toMatch(/CDN transformation/);
	// The whole of another file, not a cut: and the message is all a trigger's item keeps.
	expect(result.error?.message).not.toMatch(/cut short/);
	expect(result.error?.message).toContain('"tr-w_200"');
	expect(result.error?.message).toMatch(/1000 bytes in full, the listing gives 2000/);
});

it('Download of a key whose tr-… folder is not the first asks no listing beyond what any public key costs', async () => {
	// A public file's download reads its record once (to judge the CDN's answer); a tr-… folder further
	// down adds nothing to that.
	const listsFor = async (key: string) => {
		await uploadWithNode(emulator(), key, 'a dog');
		const before = emulator().stats().requests.list ?? 0;
		const result = await download(key);
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).toString()).toBe('a dog');
		return (emulator().stats().requests.list ?? 0) - before;
	};
	expect(await listsFor('img/tr-w_200/dog.txt')).toBe(await listsFor('img/w_200/dog.txt'));
});

it('Move of a public tr-… key that the CDN reads as another file copies nothing and keeps the source', async () => {
	const own = randomFile(2500);
	await store([
		['dog.jpg', randomFile(1200)],
		['tr-w_300/dog.jpg', own],
	]);
	const result = await move('tr-w_300/dog.jpg', 'moved/dog.jpg');
	expect(result.items).toEqual([]);
	expect(result.error?.message).toMatch(/tr-w_300\/dog\.jpg/);
	expect(result.error?.description).toContain('"tr-w_300" has the shape of a CDN transformation');
	expect(await stored('moved/dog.jpg')).toBeUndefined();
	expect((await stored('tr-w_300/dog.jpg'))?.equals(own)).toBe(true);
});

it('Download of a public thumb-… key that the CDN reads as a thumbnail of another file fails as a tr-… key does', async () => {
	await store([
		['thumb-pg_2/report.pdf', randomFile(2100)],
		['report.pdf', randomFile(1100)],
	]);
	const result = await download('thumb-pg_2/report.pdf');
	expect(result.items).toEqual([]);
	expect(result.error?.message).toMatch(/1100 bytes in full, the listing gives 2100/);
	expect(result.error?.message).toContain('"thumb-pg_2"');
	expect(result.error?.description).toContain('"thumb-pg_2" has the shape of a CDN transformation');
});

it.each([
	['tr-w_100/dog.jpg', 'dog.jpg'],
	['thumb-pg_3/memo.pdf', 'memo.pdf'],
])(
	'Download of a public %s that the CDN reads as another file dated an earlier second is refused by its date, naming the folder',
	async (key, other) => {
		await store([[other, randomFile(1000)]]);
		await nextSecond();
		await store([[key, randomFile(2000)]]);
		const result = await download(key);
		const folder = key.slice(0, key.indexOf('/'));
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/got another version than the service stores/);
		expect(result.error?.message).toContain(`its first folder "${folder}" has the shape of a CDN transformation`);
		expect(result.error?.description).toContain(`"${folder}" has the shape of a CDN transformation`);
	},
);

it.each(['copy', 'move'])(
	'%s of a public thumb-… key that the CDN reads as a thumbnail of another file writes nothing and keeps the source',
	async (operation) => {
		const own = randomFile(2600);
		const key = `thumb-so_5.0/${operation}/clip.mp4`;
		await store([
			[`${operation}/clip.mp4`, randomFile(1300)],
			[key, own],
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation,
			fileKey: byKey(key),
			destinationKey: `${operation}d/clip.mp4`,
		});
		expect(result.items).toEqual([]);
		expect(result.error?.description).toContain('"thumb-so_5.0" has the shape of a CDN transformation');
		expect(await stored(`${operation}d/clip.mp4`)).toBeUndefined();
		expect((await stored(key))?.equals(own)).toBe(true);
	},
);

describe('a tr-… key the review found', () => {
	afterEach(() => emulator().setFaults([]));

	it('whose listing request fails says the listing failed, not that the CDN stated no length', async () => {
		await store([['tr-notes/list.txt', randomFile(300)]]);
		emulator().setFaults([{ operation: 'list', status: 500 }]);
		const result = await download('tr-notes/list.txt', { maxRetries: 0 });
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/List Contents of 'tr-notes\/list\.txt' in 'my-bucket' \(page 1\) failed/);
		expect(result.error?.message).not.toMatch(/stated no length/);
		// Every public file's download reads its record now, so the failure is that read's, for any key.
		expect(result.error?.description).toMatch(/Nothing was stored/);
	});

	it('whose link the CDN reads as a missing file is not said to be missing from the bucket', async () => {
		await store([['tr-w_200/alone.jpg', randomFile(300)]]);
		const result = await download('tr-w_200/alone.jpg');
		expect(result.items).toEqual([]);
		expect(result.error?.message).not.toMatch(/was not found in bucket/);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
	});

	it('private, whose signed link the CDN refuses (403), is not blamed on the credential', async () => {
		await store(
			[
				['hid.jpg', randomFile(50)],
				['tr-w_200/hid.jpg', randomFile(100)],
			],
			'private',
		);
		const result = await download('tr-w_200/hid.jpg');
		expect(result.items).toEqual([]);
		expect(result.error?.description).not.toMatch(/Access Key/);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
	});

	it('whose link the CDN reads as a missing file: Move says why, and keeps the source', async () => {
		const own = randomFile(300);
		await store([['tr-w_200/lone.jpg', own]]);
		const result = await move('tr-w_200/lone.jpg', 'moved/lone.jpg');
		expect(result.items).toEqual([]);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
		expect(result.error?.description).not.toMatch(/Check the URL/);
		expect((await stored('tr-w_200/lone.jpg'))?.equals(own)).toBe(true);
	});
});
