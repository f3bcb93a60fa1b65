/**
 * Review 29, a hostile reading of Copy/Move, Folder → Delete and Download: each test names the
 * promise it holds the node to, against the emulator (or a raw hostile server) through n8n's engine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { eventually, useProxy, viaProxy } from './proxy';
import { BUCKET, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });

const byKey = (value: string) => ({ __rl: true, mode: 'key', value });

async function store(key: string, bytes: Buffer | string, visibility = 'public') {
	await uploadWithNode(emulator(), key, bytes, { visibility });
}

const read = async (key: string) => await storedText(emulator(), key);

async function run(operation: string, key: string, parameters: INodeParameters = {}) {
	return await runFileStorage(emulator(), { resource: 'file', operation, fileKey: byKey(key), ...parameters });
}

beforeEach(() => emulator().setFaults([]));

describe('review 29: Folder → Delete with Include Subfolders off', () => {
	it('a listing that names a file deeper than the folder: nothing below a sub-folder is deleted', async () => {
		await store('shallow/top.txt', 'top');
		await store('shallow/sub/deep.txt', 'keep me');
		// A service answering the one-level listing of 'shallow/' with a file of its sub-folder.
		emulator().setFaults([
			{
				operation: 'list',
				rewrite: {
					contents: {
						name: 'shallow',
						type: 'folder',
						path: 'shallow/',
						children: [
							{ name: 'top.txt', type: 'file', path: 'shallow/top.txt', size: 3, last_modified: null },
							{ name: 'deep.txt', type: 'file', path: 'shallow/sub/deep.txt', size: 7, last_modified: null },
						],
					},
				},
				nth: [1],
			},
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: 'shallow/' },
			includeSubfolders: false,
		});
		expect(await read('shallow/sub/deep.txt')).toBe('keep me');
		expect(result.items.map((item) => item.json.key)).not.toContain('shallow/sub/deep.txt');
	});
});

describe('review 29: a CDN that ignores the purge and dates nothing', () => {
	// Serves `body` at any path, dated or not: a CDN whose cache ignores the purge (it says so
	// with Age, as every HTTP cache does for what it kept), or, with `age` undefined, an origin.
	let body = '';
	let lastModified: string | undefined;
	let age: string | undefined = '30';
	let server: Server;
	let cdn = '';
	beforeAll(async () => {
		server = createServer((req, res) => {
			const dated: Record<string, string> = lastModified ? { 'Last-Modified': lastModified } : {};
			const kept: Record<string, string> = age ? { Age: age } : {};
			res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(body.length), ...dated, ...kept });
			res.end(req.method === 'HEAD' ? undefined : body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('Move never deletes a stored version it did not copy: an undated answer of the same size from a CDN that kept the old version', async () => {
		body = 'version-1';
		lastModified = undefined;
		await store('undated/b.txt', 'version-2');
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/b.txt` }, nth: [1] }]);
		const result = await run('move', 'undated/b.txt', {
			destinationKey: 'undated/b.moved',
			options: { replace: true },
		});
		// Either the Move refuses, or what it moved is the stored version: 'version-2' is never lost.
		const kept = [await read('undated/b.txt'), await read('undated/b.moved')];
		expect(kept).toContain('version-2');
		if (result.error === undefined) expect(await read('undated/b.moved')).toBe('version-2');
	});

	it('Move takes an undated answer read after the purge that no cache says it kept, and moves the stored version', async () => {
		body = 'version-2';
		lastModified = undefined;
		age = undefined;
		try {
			await store('undated/fresh.txt', 'version-2');
			emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/fresh.txt` }, nth: [1] }]);
			const result = await run('move', 'undated/fresh.txt', { destinationKey: 'undated/fresh.moved' });
			expect(result.error).toBeUndefined();
			expect(await read('undated/fresh.moved')).toBe('version-2');
			expect(await read('undated/fresh.txt')).toBeUndefined();
		} finally {
			age = '30';
		}
	});

	it('Move refuses an undated answer a cache says it kept (Age), though the purge was asked: nothing copied or deleted', async () => {
		body = 'version-1';
		lastModified = undefined;
		await store('undated/kept.txt', 'version-2');
		// Every read of the source's link meets the kept answer (a Move re-reads a file just written).
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/kept.txt` } }]);
		const result = await run('move', 'undated/kept.txt', {
			destinationKey: 'undated/kept.moved',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/a cache says it kept the CDN's answer \(Age: 30\)/);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
		expect(await read('undated/kept.txt')).toBe('version-2');
		expect(await read('undated/kept.moved')).toBeUndefined();
	});

	it("Move never deletes a stored version it did not copy: a same-size CDN answer stamped with the CDN's own (later) time", async () => {
		body = 'version-1';
		lastModified = new Date(Date.now() + 60_000).toUTCString();
		await store('undated/c.txt', 'version-2');
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/c.txt` }, nth: [1] }]);
		const result = await run('move', 'undated/c.txt', {
			destinationKey: 'undated/c.moved',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/cannot be shown to be the version the service stores/);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
		expect(await read('undated/c.txt')).toBe('version-2');
		expect(await read('undated/c.moved')).toBeUndefined();
	});
});

describe('review 29: File → Download from a CDN whose answer is not the whole file', () => {
	// Answers every GET with the first 100 bytes of `whole` as a 206 Partial Content.
	const whole = Buffer.alloc(1000, 'x');
	let server: Server;
	let cdn = '';
	beforeAll(async () => {
		server = createServer((_req, res) => {
			res.writeHead(206, {
				'Content-Type': 'application/octet-stream',
				'Content-Length': '100',
				'Content-Range': `bytes 0-99/${whole.length}`,
			});
			res.end(whole.subarray(0, 100));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('a download is never a part of the file: a 206 answer of 100 of 1000 bytes fails and stores nothing', async () => {
		await store('partial/file.bin', whole, 'private');
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}partial/file.bin` } }]);
		const result = await run('download', 'partial/file.bin');
		expect(result.error?.message).toMatch(/Download of 'partial\/file\.bin'/);
		expect(result.items).toHaveLength(0);
	});

	it('an upload from a Source URL is never a part of the file: a 206 answer fails and stores nothing', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'upload',
			source: 'url',
			sourceUrl: `${cdn}partial/part.bin`,
			key: 'partial/uploaded.bin',
		});
		expect(result.error?.message).toMatch(/answered HTTP 206 \(Partial Content/);
		expect(await read('partial/uploaded.bin')).toBeUndefined();
	});
});

describe('review 29: Folder → Delete and a listing whose pages shift during the walk', () => {
	it('a folder is emptied even when a file removed during the walk pulled another onto a page already read', async () => {
		for (const name of ['a', 'c', 'd']) await store(`shift/${name}.txt`, name);
		const entry = (name: string) => ({
			name: `${name}.txt`,
			type: 'file',
			path: `shift/${name}.txt`,
			size: 1,
			last_modified: null,
		});
		const page = (current: number, children: unknown[], total: number) => ({
			contents: { name: 'shift', type: 'folder', path: 'shift/', children },
			pagination: { current_page: current, total_pages: 2, total_items: total, items_per_page: 2 },
		});
		// Pages of two, as offsets: 'b' was removed between the two requests, so 'c' moved onto page 1.
		emulator().setFaults([
			{ operation: 'list', rewrite: page(1, [entry('a'), entry('b')], 4), nth: [1] },
			// (A rule sees only the requests the rules before it let through: this is the second list request.)
			{ operation: 'list', rewrite: page(2, [entry('d')], 3), nth: [1] },
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: 'shift/' },
		});
		expect(result.error).toBeUndefined();
		expect(await read('shift/c.txt')).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toContain('shift/c.txt');
	});
});

describe('review 29: two items of one version-3 run moving different files onto one destination', () => {
	it('Replace Existing File off never loses a source: at most one Move succeeds, every byte is still somewhere', async () => {
		await store('race/x.txt', 'the x file', 'private');
		await store('race/y.txt', 'the longer y file', 'private');
		await new Promise((resolve) => setTimeout(resolve, 4100));
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: 'race/out.txt',
				options: { parallelRequests: 4 },
			},
			{
				typeVersion: 3,
				continueOnFail: true,
				items: [{ json: { from: 'race/x.txt' } }, { json: { from: 'race/y.txt' } }],
			},
		);
		const all = [await read('race/x.txt'), await read('race/y.txt'), await read('race/out.txt')];
		expect(all).toEqual(expect.arrayContaining(['the x file', 'the longer y file']));
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('review 29: a destination written by someone else while the copy is checked', () => {
	const proxy = useProxy(emulator);
	it("the copy's check never deletes a file another writer stored at the destination", async () => {
		await store('other/source.txt', 'the source bytes', 'private');
		// The copy's upload answer is held back while another workflow stores its own file there.
		proxy().setRules({ holdAnswer: { upload: 800 } });
		const copying = runNode({
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'copy',
				fileKey: { __rl: true, mode: 'key', value: 'other/source.txt' },
				destinationKey: 'other/target.txt',
				options: { replace: true },
			},
		});
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'upload'), 10_000)).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 200));
		await store('other/target.txt', "another workflow's newer, longer file", 'private');
		await copying;
		expect(await read('other/target.txt')).toBe("another workflow's newer, longer file");
	});
});
