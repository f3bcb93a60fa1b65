import type { IDataObject } from 'n8n-workflow';

import { fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

async function uploadAll(keys: string[]) {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: '={{ $json.name }}' },
		{ items: keys.map((key) => fileItem(Buffer.from(`content of ${key}`), key, 'text/plain')) },
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(keys.length);
}

const list = async (parameters: IDataObject) =>
	await runFileStorage(emulator(), { resource: 'bucket', operation: 'listContents', ...parameters });

describe('Bucket → List Contents', () => {
	const files = Array.from({ length: 45 }, (_, i) => `paged/file-${String(i).padStart(3, '0')}.txt`);

	beforeAll(async () => {
		await uploadAll([
			...files,
			'tree/top.txt',
			'tree/a/one.txt',
			'tree/a/two.txt',
			'tree/a/deep/three.txt',
			'tree/b/four.txt',
		]);
	});

	it('Return All follows the pages for you (45 entries at 20 per page = 3 requests, and the empty page after)', async () => {
		emulator().resetStats();
		const result = await list({ folder: 'paged', returnAll: true, options: { pageSize: 20 } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.path)).toEqual(files);
		expect(emulator().stats().requests.list).toBe(4);
		expect(result.items[0].json).toMatchObject({
			name: 'file-000.txt',
			type: 'file',
			size: 'content of paged/file-000.txt'.length,
			content_type: 'text/plain',
			visibility: 'private',
			bucket: 'my-bucket',
			region: 'us-east-1',
		});
		for (const item of result.items) expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('Limit stops early, across pages when needed', async () => {
		emulator().resetStats();
		const few = await list({ folder: 'paged/', returnAll: false, limit: 7 });
		expect(few.items.map((item) => item.json.path)).toEqual(files.slice(0, 7));
		expect(emulator().stats().requests.list).toBe(1);

		const across = await list({ folder: 'paged/', returnAll: false, limit: 25, options: { pageSize: 10 } });
		expect(across.items.map((item) => item.json.path)).toEqual(files.slice(0, 25));
	});

	it('lists one folder level, folders first, and filters by kind', async () => {
		const all = await list({ folder: 'tree', returnAll: true });
		expect(all.items.map((item) => [item.json.type, item.json.path])).toEqual([
			['folder', 'tree/a/'],
			['folder', 'tree/b/'],
			['file', 'tree/top.txt'],
		]);
		const foldersOnly = await list({ folder: 'tree', returnAll: true, options: { include: 'folders' } });
		expect(foldersOnly.items.map((item) => item.json.path)).toEqual(['tree/a/', 'tree/b/']);
		const filesOnly = await list({ folder: 'tree', returnAll: true, options: { include: 'files' } });
		expect(filesOnly.items.map((item) => item.json.path)).toEqual(['tree/top.txt']);
	});

	it('Include Subfolders walks a 3-level tree, with Return All and with Limit', async () => {
		const all = await list({ folder: 'tree', returnAll: true, options: { recursive: true, include: 'files' } });
		expect(all.items.map((item) => item.json.path).sort()).toEqual(
			['tree/a/deep/three.txt', 'tree/a/one.txt', 'tree/a/two.txt', 'tree/b/four.txt', 'tree/top.txt'].sort(),
		);
		const everything = await list({ folder: 'tree', returnAll: true, options: { recursive: true } });
		expect(everything.items).toHaveLength(8);
		emulator().resetStats();
		const limited = await list({
			folder: 'tree',
			returnAll: false,
			limit: 4,
			options: { recursive: true, include: 'files' },
		});
		expect(limited.items).toHaveLength(4);
		expect(new Set(limited.items.map((item) => item.json.path)).size).toBe(4);
	});

	it('the root of the bucket lists the top folders', async () => {
		const root = await list({ folder: '', returnAll: true, options: { include: 'folders' } });
		expect(root.items.map((item) => item.json.path)).toEqual(expect.arrayContaining(['paged/', 'tree/']));
	});

	it('an empty folder gives no items and no error', async () => {
		const none = await list({ folder: 'nothing-here/', returnAll: true });
		expect(none.error).toBeUndefined();
		expect(none.items).toEqual([]);
	});

	it('refuses a Limit below 1 and an empty bucket name, naming the field', async () => {
		const zero = await list({ returnAll: false, limit: 0 });
		expect(zero.error?.message).toMatch(/Limit must be a whole number of at least 1/);
		const noBucket = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			bucketName: ' ',
		});
		expect(noBucket.error?.message).toMatch(/'Bucket Name' is empty/);
	});

	it('an unknown bucket is a 404 that names bucket and region', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			bucketName: 'nope',
		});
		expect(result.error?.message).toMatch(/List Contents of 'nope'.*HTTP 404/);
		expect(result.error?.description).toMatch(/bucket 'nope' \(region us-east-1\) was not found/);
	});
});
