/**
 * A key whose first folder has the shape of a CDN transformation (`tr-w_200/cat.jpg`): spec §3.11
 * puts a transformation segment where such a folder sits in the file's link, and the emulator's
 * CDN reads it so (whether the real CDN does is not published). Download must not store another
 * file's bytes as this one: for such keys it checks the answer against the listing's size.
 */
import { fileItem, randomFile, runFileStorage, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

async function store(files: Array<[string, Buffer]>): Promise<void> {
	for (const [key, bytes] of files) {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key, visibility: 'public' },
			{ items: [fileItem(bytes)] },
		);
		expect(stored.error).toBeUndefined();
	}
}

it('Download of a public tr-… key that the CDN reads as another file fails naming the folder; nothing is stored', async () => {
	await store([
		['cat.jpg', randomFile(1000)],
		['tr-w_200/cat.jpg', randomFile(2000)],
	]);
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: byKey('tr-w_200/cat.jpg'),
	});
	expect(result.items).toEqual([]);
	expect(result.error?.message).toContain("Download of 'tr-w_200/cat.jpg'");
	expect(result.error?.description).toContain('"tr-w_200"');
	expect(result.error?.description).toMatch(/CDN transformation/);
});

it('Download of a key whose tr-… folder is not the first asks no listing', async () => {
	await uploadWithNode(emulator(), 'img/tr-w_200/dog.txt', 'a dog');
	const lists = emulator().stats().requests.list;
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: byKey('img/tr-w_200/dog.txt'),
	});
	expect(result.error).toBeUndefined();
	expect((await result.readBinary(result.items[0])).toString()).toBe('a dog');
	expect(emulator().stats().requests.list).toBe(lists);
});

it('Move of a public tr-… key that the CDN reads as another file copies nothing and keeps the source', async () => {
	const own = randomFile(2500);
	await store([
		['dog.jpg', randomFile(1200)],
		['tr-w_300/dog.jpg', own],
	]);
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey('tr-w_300/dog.jpg'),
		destinationKey: 'moved/dog.jpg',
	});
	expect(result.items).toEqual([]);
	expect(result.error?.message).toMatch(/tr-w_300\/dog\.jpg/);
	expect(result.error?.description).toContain('"tr-w_300" has the shape of a CDN transformation');
	expect(await emulator().readObject('my-bucket', 'us-east-1', 'moved/dog.jpg')).toBeUndefined();
	expect((await emulator().readObject('my-bucket', 'us-east-1', 'tr-w_300/dog.jpg'))?.body.equals(own)).toBe(true);
});

describe('a tr-… key the review found', () => {
	afterEach(() => emulator().setFaults([]));

	it('whose listing request fails says the listing failed, not that the CDN stated no length', async () => {
		await store([['tr-notes/list.txt', randomFile(300)]]);
		emulator().setFaults([{ operation: 'list', status: 500 }]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('tr-notes/list.txt'),
			options: { maxRetries: 0 },
		});
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/listing/);
		expect(result.error?.message).not.toMatch(/stated no length/);
		expect(result.error?.description).toContain('"tr-notes"');
	});

	it('whose link the CDN reads as a missing file is not said to be missing from the bucket', async () => {
		await store([['tr-w_200/alone.jpg', randomFile(300)]]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('tr-w_200/alone.jpg'),
		});
		expect(result.items).toEqual([]);
		expect(result.error?.message).not.toMatch(/was not found in bucket/);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
	});

	it('private, whose signed link the CDN refuses (403), is not blamed on the credential', async () => {
		const put = async (key: string, bytes: Buffer) =>
			expect(
				(
					await runFileStorage(
						emulator(),
						{ resource: 'file', operation: 'upload', key, visibility: 'private' },
						{ items: [fileItem(bytes)] },
					)
				).error,
			).toBeUndefined();
		await put('hid.jpg', randomFile(50));
		await put('tr-w_200/hid.jpg', randomFile(100));
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('tr-w_200/hid.jpg'),
		});
		expect(result.items).toEqual([]);
		expect(result.error?.description).not.toMatch(/Access Key/);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
	});

	it('whose link the CDN reads as a missing file: Move says why, and keeps the source', async () => {
		const own = randomFile(300);
		await store([['tr-w_200/lone.jpg', own]]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'move',
			fileKey: byKey('tr-w_200/lone.jpg'),
			destinationKey: 'moved/lone.jpg',
		});
		expect(result.items).toEqual([]);
		expect(result.error?.description).toContain('"tr-w_200" has the shape of a CDN transformation');
		expect(result.error?.description).not.toMatch(/Check the URL/);
		expect((await emulator().readObject('my-bucket', 'us-east-1', 'tr-w_200/lone.jpg'))?.body.equals(own)).toBe(true);
	});
});

it('Download of a tr-… key that the CDN answers in full with another file does not call it cut short (the trigger keeps only the message)', async () => {
	await store([
		['owl.jpg', randomFile(700)],
		['tr-w_200/owl.jpg', randomFile(1400)],
	]);
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: byKey('tr-w_200/owl.jpg'),
	});
	expect(result.items).toEqual([]);
	expect(result.error?.message).not.toMatch(/cut short/);
	expect(result.error?.message).toContain('"tr-w_200"');
	expect(result.error?.message).toMatch(/700/);
	expect(result.error?.message).toMatch(/1400/);
});
