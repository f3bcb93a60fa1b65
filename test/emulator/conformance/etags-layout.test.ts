/** The `etags: 'random'` mode, and multipart objects stored as their part blobs (no copy on complete). */
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { parseArgs } from '../cli';
import { start } from '../index';
import { md5, randomData, sha256, show, type ApiClient, type PartRef } from './client';
import { putPart, sleep, startEmulator, startUpload, type Running } from './setup';

const KiB = 1024;
const MIN = 64 * KiB;

/** Blob files in the data dir's only bucket folder. */
async function blobs(dataDir: string): Promise<string[]> {
	const objects = path.join(dataDir, 'objects');
	const [bucketDir] = await fsp.readdir(objects);
	return (await fsp.readdir(path.join(objects, bucketDir))).filter((n) => n.endsWith('.blob')).sort();
}

async function waitFor(check: () => Promise<boolean>, ms = 2000): Promise<boolean> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		if (await check()) return true;
		await sleep(20);
	}
	return check();
}

describe("etags: 'random'", () => {
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator({ etags: 'random', minPartSize: MIN });
	});
	afterAll(() => r.emu.stop());
	const bucket = () => r.emu.buckets[0].name;
	const region = () => r.emu.buckets[0].region;

	test('ETags are quoted 32-hex strings, not the md5, unique per part upload', async () => {
		const key = 'random/format.bin';
		const uploadId = await startUpload(r.api, key);
		const same = Buffer.alloc(MIN, 7);
		const a = await putPart(r.api, uploadId, key, 1, same);
		const b = await putPart(r.api, uploadId, key, 2, same);
		const c = await putPart(r.api, uploadId, key, 1, same);
		for (const ref of [a, b, c]) {
			expect(ref.ETag).toMatch(/^"[0-9a-f]{32}"$/);
			expect(ref.ETag).not.toBe(`"${md5(same)}"`);
		}
		expect(new Set([a.ETag, b.ETag, c.ETag]).size).toBe(3);
	});

	test('the last upload of a part wins; a stale ETag is refused and the upload stays usable', async () => {
		const key = 'random/stale.bin';
		const uploadId = await startUpload(r.api, key);
		const first = await putPart(r.api, uploadId, key, 1, Buffer.alloc(MIN, 1));
		const second = await putPart(r.api, uploadId, key, 1, Buffer.alloc(MIN, 2));
		const last = await putPart(r.api, uploadId, key, 2, Buffer.from('end'));
		const stale = await r.api.complete(uploadId, key, [first, last]);
		expect(stale.status).toBe(400);
		expect(stale.json.details[0].field).toBe('parts[0].ETag');
		const lowered = await r.api.complete(uploadId, key, [{ ...second, ETag: second.ETag.slice(1, -1) }, last]);
		expect(lowered.status).toBe(400);
		expect((await r.api.complete(uploadId, key, [second, last])).status).toBe(200);
		const stored = await r.emu.readObject(bucket(), region(), key);
		expect(stored?.body.equals(Buffer.concat([Buffer.alloc(MIN, 2), Buffer.from('end')]))).toBe(true);
	});

	test('assembled bytes are identical (readObject, objectSha256, the CDN)', async () => {
		const key = 'random/assembled.bin';
		const uploadId = await startUpload(r.api, key);
		const data = [randomData(MIN), randomData(MIN + 17), randomData(999)];
		const refs = await Promise.all(data.map((d, i) => putPart(r.api, uploadId, key, i + 1, d)));
		const done = await r.api.complete(uploadId, key, refs);
		expect(done.status).toBe(200);
		const whole = Buffer.concat(data);
		expect(done.json.data.size).toBe(whole.length);
		expect((await r.emu.readObject(bucket(), region(), key))?.body.equals(whole)).toBe(true);
		expect(await r.emu.objectSha256(bucket(), region(), key)).toBe(sha256(whole));
		const signed = await r.api.signedUrl(key);
		const cdn = await r.api.fetchUrl(signed.json.data.url);
		expect(cdn.status).toBe(200);
		expect(cdn.headers['content-length']).toBe(String(whole.length));
		expect(cdn.body.equals(whole)).toBe(true);
	});

	test('the CLI flag and the option are validated', async () => {
		expect(parseArgs(['--etags', 'random'])).toEqual({ etags: 'random' });
		expect(parseArgs(['--etags=md5'])).toEqual({ etags: 'md5' });
		expect(() => parseArgs(['--etags', 'sha1'])).toThrow(/--etags/);
		await expect(start({ port: 0, etags: 'sha1' as never })).rejects.toThrow(/etags/);
	});
});

describe('multipart objects are stored as their parts', () => {
	let r: Running;
	let dataDir: string;
	beforeAll(async () => {
		dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'emu-layout-'));
		r = await startEmulator({ minPartSize: MIN, dataDir });
	});
	afterAll(async () => {
		await r.emu.stop();
		await fsp.rm(dataDir, { recursive: true, force: true });
	});
	const bucket = () => r.emu.buckets[0].name;
	const region = () => r.emu.buckets[0].region;

	async function multipart(key: string, data: Buffer[]): Promise<void> {
		const uploadId = await startUpload(r.api, key);
		const refs = await Promise.all(data.map((d, i) => putPart(r.api, uploadId, key, i + 1, d)));
		const done = await r.api.complete(uploadId, key, refs);
		if (done.status !== 200) throw new Error(show(done));
	}

	test('one blob per part; overwrite and delete remove every blob', async () => {
		const key = 'layout/obj.bin';
		expect(await blobs(dataDir)).toEqual([]);
		await multipart(key, [randomData(MIN), randomData(MIN), randomData(10)]);
		expect(await blobs(dataDir)).toHaveLength(3);
		const list = await r.api.list({ prefix: 'layout/' });
		expect(list.json.data.contents.children[0].size).toBe(2 * MIN + 10);

		const single = randomData(100);
		expect((await r.api.upload(key, single)).status).toBe(200);
		expect(await waitFor(async () => (await blobs(dataDir)).length === 1)).toBe(true);
		expect((await r.emu.readObject(bucket(), region(), key))?.body.equals(single)).toBe(true);

		await multipart(key, [randomData(MIN), randomData(5)]);
		expect(await waitFor(async () => (await blobs(dataDir)).length === 2)).toBe(true);

		expect((await r.api.delete(key)).status).toBe(200);
		expect(await waitFor(async () => (await blobs(dataDir)).length === 0)).toBe(true);
	});

	test('a download in progress keeps every part readable through a delete', async () => {
		const key = 'layout/pinned.bin';
		const data = [randomData(4 * 1024 * KiB), randomData(4 * 1024 * KiB), randomData(4 * 1024 * KiB)];
		await multipart(key, data);
		const url = (await r.api.signedUrl(key)).json.data.url as string;
		const chunks: Buffer[] = [];
		const body = new Promise<Buffer>((resolve, reject) => {
			http
				.get(url, (res) => {
					res.once('data', (chunk: Buffer) => {
						chunks.push(chunk);
						res.pause();
						void r.api.delete(key).then(async (del) => {
							expect(del.status).toBe(200);
							res.on('data', (c: Buffer) => chunks.push(c));
							res.resume();
						}, reject);
					});
					res.once('end', () => resolve(Buffer.concat(chunks)));
					res.once('error', reject);
				})
				.once('error', reject);
		});
		expect(sha256(await body)).toBe(sha256(Buffer.concat(data)));
		expect(await r.emu.readObject(bucket(), region(), key)).toBeUndefined();
		// Released by the finished download, the blobs go.
		expect(await waitFor(async () => (await blobs(dataDir)).length === 0)).toBe(true);
	});
});

test('startup sweeps part blobs of an object that was never committed; old formats are refused', async () => {
	const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'emu-sweep-'));
	try {
		const first = await start({ port: 0, dataDir });
		await first.stop();
		const objects = path.join(dataDir, 'objects');
		const [bucketDir] = await fsp.readdir(objects);
		const stray = ['0'.repeat(64) + '.x1-0.blob', '0'.repeat(64) + '.x1-1.blob'];
		for (const n of stray) await fsp.writeFile(path.join(objects, bucketDir, n), 'debris');
		const second = await start({ port: 0, dataDir });
		await second.stop();
		expect(await blobs(dataDir)).toEqual([]);

		const old = await fsp.mkdtemp(path.join(os.tmpdir(), 'emu-old-'));
		await fsp.writeFile(path.join(old, '.file-storage-emulator.json'), JSON.stringify({ format: 1 }));
		await expect(start({ port: 0, dataDir: old })).rejects.toThrow(/unknown format/);
		await fsp.rm(old, { recursive: true, force: true });
	} finally {
		await fsp.rm(dataDir, { recursive: true, force: true });
	}
});
