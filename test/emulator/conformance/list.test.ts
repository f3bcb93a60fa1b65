/** Spec §3.1: one-level listing, folders, sorting, pagination math, errors. */
import { show } from './client';
import { startEmulator, type Running } from './setup';

let r: Running;
beforeAll(async () => {
	r = await startEmulator();
});
afterAll(() => r.emu.stop());

async function put(key: string, data = 'x', contentType = 'text/plain', visibility?: string) {
	const res = await r.api.upload(key, Buffer.from(data), { contentType, visibility });
	if (res.status !== 200) throw new Error(`upload ${key}: ${show(res)}`);
}

async function listAll(prefix: string, limit: number) {
	const names: string[] = [];
	let page = 1;
	for (;;) {
		const res = await r.api.list({ prefix, page, limit });
		expect(res.status).toBe(200);
		const { children } = res.json.data.contents;
		if (children.length === 0) return { names, last: res.json.data.pagination, pages: page - 1 };
		expect(children.length).toBeLessThanOrEqual(limit);
		names.push(...children.map((c: { path: string }) => c.path));
		page++;
	}
}

describe('pagination of 250 entries', () => {
	const prefix = 'paged/';
	const expected: string[] = [];
	beforeAll(async () => {
		// 10 folders and 240 files directly under the prefix: 250 children.
		const keys: string[] = [];
		for (let i = 0; i < 10; i++) keys.push(`${prefix}dir${String(i).padStart(2, '0')}/inner.txt`);
		for (let i = 0; i < 240; i++) keys.push(`${prefix}file${String(i).padStart(3, '0')}.txt`);
		for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((k) => put(k)));
		for (let i = 0; i < 10; i++) expected.push(`${prefix}dir${String(i).padStart(2, '0')}/`);
		for (let i = 0; i < 240; i++) expected.push(`${prefix}file${String(i).padStart(3, '0')}.txt`);
	});

	test.each([
		[1, 250],
		[20, 13],
		[1000, 1],
	])('limit %i → %i pages, every child exactly once, folders first', async (limit, pages) => {
		const res = await r.api.list({ prefix, page: 1, limit });
		expect(res.json.data.pagination).toEqual({
			current_page: 1,
			total_pages: pages,
			total_items: 250,
			items_per_page: limit,
		});
		const all = await listAll(prefix, limit);
		expect(all.pages).toBe(pages);
		expect(all.names).toEqual(expected);
		// The page past the end: no children, same totals.
		expect(all.last).toEqual({ current_page: pages + 1, total_pages: pages, total_items: 250, items_per_page: limit });
	});

	test('last page of limit 20 holds the remaining 10', async () => {
		const res = await r.api.list({ prefix, page: 13, limit: 20 });
		expect(res.json.data.contents.children).toHaveLength(10);
	});

	test('defaults: page 1, limit 20', async () => {
		const res = await r.api.list({ prefix });
		expect(res.json.data.pagination).toEqual({
			current_page: 1,
			total_pages: 13,
			total_items: 250,
			items_per_page: 20,
		});
		expect(res.json.data.contents.children).toHaveLength(20);
	});
});

describe('folders', () => {
	beforeAll(async () => {
		await put('tree/readme.md', '# hi', 'text/markdown', 'public');
		await put('tree/docs/a.txt', 'aaa');
		await put('tree/docs/b/c.txt', 'c');
		await put('tree/docs/b/d/e.txt', 'e');
		await put('tree/docs/z.txt', 'zz');
	});

	test('root of the subtree: a folder and a file', async () => {
		const res = await r.api.list({ prefix: 'tree/' });
		expect(res.json.data.contents).toMatchObject({ name: 'tree', type: 'folder', path: 'tree/' });
		const [folder, file] = res.json.data.contents.children;
		expect(folder).toEqual({ name: 'docs', type: 'folder', path: 'tree/docs/', size: null, last_modified: null });
		expect(file).toMatchObject({
			name: 'readme.md',
			type: 'file',
			path: 'tree/readme.md',
			size: 4,
			content_type: 'text/markdown',
			visibility: 'public',
		});
		expect(file.last_modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
		expect(Math.abs(Date.parse(file.last_modified) - Date.now())).toBeLessThan(120_000);
	});

	test('one level deep: immediate sub-folders and files only', async () => {
		const res = await r.api.list({ prefix: 'tree/docs/' });
		expect(res.json.data.contents).toMatchObject({ name: 'docs', path: 'tree/docs/' });
		expect(res.json.data.contents.children.map((c: { type: string; path: string }) => `${c.type}:${c.path}`)).toEqual([
			'folder:tree/docs/b/',
			'file:tree/docs/a.txt',
			'file:tree/docs/z.txt',
		]);
		expect(res.json.data.contents.children[1]).toMatchObject({ size: 3, visibility: 'private' });
		const deeper = await r.api.list({ prefix: 'tree/docs/b/' });
		expect(deeper.json.data.contents.children.map((c: { name: string }) => c.name)).toEqual(['d', 'c.txt']);
	});

	test('the root listing is named "/" with an empty path', async () => {
		const res = await r.api.list();
		expect(res.json.data.contents).toMatchObject({ name: '/', type: 'folder', path: '' });
		expect(res.json.data.contents.children.some((c: { path: string }) => c.path === 'tree/')).toBe(true);
	});

	test('an unknown prefix lists nothing, with total_pages 1', async () => {
		const res = await r.api.list({ prefix: 'nothing/here/' });
		expect(res.status).toBe(200);
		expect(res.json.data.contents.children).toEqual([]);
		expect(res.json.data.pagination).toEqual({ current_page: 1, total_pages: 1, total_items: 0, items_per_page: 20 });
	});

	test('names sort by code point (UTF-8 byte order), folders first', async () => {
		for (const k of ['sort/b', 'sort/B', 'sort/a', 'sort/\uFF21', 'sort/😀', 'sort/é', 'sort/zz/x', 'sort/A/x'])
			await put(k);
		const res = await r.api.list({ prefix: 'sort/' });
		expect(res.json.data.contents.children.map((c: { name: string }) => c.name)).toEqual([
			'A',
			'zz',
			'B',
			'a',
			'b',
			'é',
			'\uFF21',
			'😀',
		]);
	});
});

describe('errors', () => {
	test.each([
		['limit', { limit: 1001 }],
		['limit', { limit: 0 }],
		['limit', { limit: 'ten' }],
		['page', { page: 0 }],
		['page', { page: -1 }],
		['page', { page: '1.5' }],
	])('invalid %s → 400 naming it', async (field, params) => {
		const res = await r.api.list(params as { page?: number; limit?: number });
		expect(res.status).toBe(400);
		expect(res.json.error).toBe('Validation failed');
		expect(res.json.details).toEqual([expect.objectContaining({ field })]);
		expect(typeof res.json.details[0].message).toBe('string');
	});

	test('limit 1000 is allowed', async () => {
		expect((await r.api.list({ limit: 1000 })).status).toBe(200);
	});

	test('missing bucket_name and region → 400 with the spec details', async () => {
		const target = '/api/v1/files/list?prefix=x';
		const res = await r.api.send('GET', target);
		expect(res.status).toBe(400);
		expect(res.json).toEqual({
			error: 'Validation failed',
			details: [
				{ field: 'bucket_name', message: 'Bucket name is required' },
				{ field: 'region', message: expect.any(String) },
			],
		});
	});

	test('unknown bucket, or a known name in another region → 404', async () => {
		for (const target of [
			'/api/v1/files/list?bucket_name=nope&region=us-east-1',
			`/api/v1/files/list?bucket_name=${r.emu.buckets[0].name}&region=eu-west-3`,
		]) {
			const res = await r.api.send('GET', target);
			expect(res.status).toBe(404);
			expect(res.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
		}
	});
});
