/** Concurrency, dropped connections, body limits, routing: the hardening list. */
import * as http from 'node:http';
import * as net from 'node:net';

import { authHeaders, formBody, randomData, sha256, show } from './client';
import { diskUsage, eventually, sleep, startEmulator, type Running } from './setup';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('concurrency', () => {
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator({ minPartSize: 64 * KiB });
	});
	afterAll(() => r.emu.stop());
	const b = () => r.emu.buckets[0];

	test('20 concurrent uploads, no corruption', async () => {
		const bodies = Array.from({ length: 20 }, (_, i) => randomData(64 * KiB + i * 37 * KiB));
		const results = await Promise.all(bodies.map((data, i) => r.api.upload(`concurrent20/${i}.bin`, data)));
		for (const res of results) expect(res.status).toBe(200);
		for (let i = 0; i < bodies.length; i++) {
			expect(await r.emu.objectSha256(b().name, b().region, `concurrent20/${i}.bin`)).toBe(sha256(bodies[i]));
		}
		const list = await r.api.list({ prefix: 'concurrent20/', limit: 100 });
		expect(list.json.data.pagination.total_items).toBe(20);
	});

	test('50 concurrent clients: distinct keys, one contested key, parts of one upload', async () => {
		const distinct = Array.from({ length: 30 }, () => randomData(100 * KiB));
		const contested = Array.from({ length: 10 }, () => randomData(80 * KiB));
		const parts = Array.from({ length: 10 }, () => randomData(64 * KiB));
		const key = 'concurrent50/assembled.bin';
		const uploadId = (await r.api.start(key)).json.data.uploadId;
		r.emu.resetStats();
		const all = await Promise.all([
			...distinct.map((d, i) => r.api.upload(`concurrent50/d${i}.bin`, d)),
			...contested.map((d) => r.api.upload('concurrent50/contested.bin', d)),
			...parts.map((d, i) => r.api.uploadPart(uploadId, key, i + 1, d)),
		]);
		for (const res of all) expect(res.status).toBe(200);
		for (let i = 0; i < distinct.length; i++) {
			expect(await r.emu.objectSha256(b().name, b().region, `concurrent50/d${i}.bin`)).toBe(sha256(distinct[i]));
		}
		// Last writer wins, but whole: the contested key holds exactly one of the bodies.
		const winner = await r.emu.objectSha256(b().name, b().region, 'concurrent50/contested.bin');
		expect(contested.map(sha256)).toContain(winner);
		const refs = all.slice(40).map((res) => ({ PartNumber: res.json.data.partNumber, ETag: res.json.data.ETag }));
		expect((await r.api.complete(uploadId, key, refs)).status).toBe(200);
		expect(await r.emu.objectSha256(b().name, b().region, key)).toBe(sha256(Buffer.concat(parts)));
		const stats = r.emu.stats();
		expect(stats.requests.upload).toBe(40);
		expect(stats.requests.uploadPart).toBe(10);
		expect(stats.currentPartUploads).toBe(0);
		expect(stats.maxConcurrentPartUploads).toBeGreaterThanOrEqual(1);
		expect(stats.maxConcurrentPartUploads).toBeLessThanOrEqual(10);
		expect((await r.api.list({ prefix: 'concurrent50/', limit: 100 })).json.data.pagination.total_items).toBe(32);
	});

	test('max concurrent part uploads reflects overlap (latency keeps them in flight)', async () => {
		const key = 'overlap.bin';
		const uploadId = (await r.api.start(key)).json.data.uploadId;
		r.emu.resetStats();
		r.emu.setLatency(150);
		try {
			const res = await Promise.all([1, 2, 3, 4].map((n) => r.api.uploadPart(uploadId, key, n, randomData(1000))));
			for (const x of res) expect(x.status).toBe(200);
		} finally {
			r.emu.setLatency(0);
		}
		// All four were sent at once and each answer waits 150 ms: they overlapped.
		expect(r.emu.stats().maxConcurrentPartUploads).toBe(4);
	});
});

/** Sends the head of a request and part of its body, then drops the connection. */
async function dropMidBody(
	url: string,
	method: string,
	target: string,
	headers: Record<string, string>,
	body: Buffer,
	sendBytes: number,
	r: Running,
	op: 'upload' | 'uploadPart',
) {
	const { hostname, port } = new URL(url);
	const before = r.emu.stats().requests[op];
	const socket = net.connect(Number(port), hostname);
	await new Promise((resolve) => socket.once('connect', resolve));
	const head = [
		`${method} ${target} HTTP/1.1`,
		`Host: ${hostname}:${port}`,
		`Content-Length: ${body.length}`,
		...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
		'',
		'',
	].join('\r\n');
	socket.write(head);
	socket.write(body.subarray(0, sendBytes));
	await eventually(() => r.emu.stats().requests[op] > before, 'the server to route the request');
	await sleep(50);
	socket.destroy();
}

describe('a connection dropped mid-upload leaves no object', () => {
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator({ minPartSize: 64 * KiB });
	});
	afterAll(() => r.emu.stop());
	const b = () => r.emu.buckets[0];

	test('single upload: no new object, an old one untouched', async () => {
		const old = Buffer.from('the old, complete content');
		expect((await r.api.upload('dropped/existing.bin', old)).status).toBe(200);
		for (const key of ['dropped/new.bin', 'dropped/existing.bin']) {
			const target = r.api.uploadTarget(key);
			const form = formBody([
				{ name: 'file', filename: key, contentType: 'application/octet-stream', data: randomData(4 * MiB) },
			]);
			const headers = { ...authHeaders(r.api.o.credentials, 'PUT', target), 'Content-Type': form.contentType };
			await dropMidBody(r.emu.url, 'PUT', target, headers, form.body, 2 * MiB, r, 'upload');
		}
		// The partial bodies (2 MiB each) are cleaned up, not just hidden.
		await eventually(async () => (await diskUsage(r.emu.dataDir)) < 64 * KiB, 'partial bodies to be removed');
		expect(await r.emu.readObject(b().name, b().region, 'dropped/new.bin')).toBeUndefined();
		expect((await r.emu.readObject(b().name, b().region, 'dropped/existing.bin'))?.body.equals(old)).toBe(true);
		const list = await r.api.list({ prefix: 'dropped/' });
		expect(list.json.data.contents.children.map((c: { path: string }) => c.path)).toEqual(['dropped/existing.bin']);
		expect((await r.api.upload('dropped/new.bin', Buffer.from('retry works'))).status).toBe(200);
	});

	test('part upload: the part is not registered; a retry is', async () => {
		const key = 'dropped/multi.bin';
		const uploadId = (await r.api.start(key)).json.data.uploadId;
		const target = r.api.partTarget(uploadId, key, 1);
		const data = randomData(3 * MiB);
		const form = formBody([{ name: 'file', filename: key, data }]);
		const headers = { ...authHeaders(r.api.o.credentials, 'POST', target), 'Content-Type': form.contentType };
		await dropMidBody(r.emu.url, 'POST', target, headers, form.body, 1 * MiB, r, 'uploadPart');
		await eventually(() => r.emu.stats().currentPartUploads === 0, 'the dropped part upload to end');
		expect(r.emu.listOpenUploads().find((u) => u.uploadId === uploadId)?.parts).toEqual([]);
		const retry = await r.api.uploadPart(uploadId, key, 1, data);
		expect(retry.status).toBe(200);
		expect((await r.api.complete(uploadId, key, [{ PartNumber: 1, ETag: retry.json.data.ETag }])).status).toBe(200);
		expect(await r.emu.objectSha256(b().name, b().region, key)).toBe(sha256(data));
	});
});

describe('request bodies over the limit → 413 without filling the disk', () => {
	const LIMIT = 1 * MiB;
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator({ maxBodyBytes: LIMIT });
	});
	afterAll(() => r.emu.stop());
	const b = () => r.emu.buckets[0];

	/** Sends only the request head (declaring a big body) and reads the answer. */
	function headOnly(
		target: string,
		headers: Record<string, string>,
	): Promise<{ status: number; body: string; continued: boolean }> {
		const { hostname, port } = new URL(r.emu.url);
		return new Promise((resolve, reject) => {
			let continued = false;
			const req = http.request({ host: hostname, port, method: 'PUT', path: target, headers, agent: false });
			req.on('continue', () => (continued = true));
			req.on('response', (res) => {
				let body = '';
				res.on('data', (c) => (body += c));
				res.on('end', () => {
					resolve({ status: res.statusCode ?? 0, body, continued });
					req.destroy();
				});
			});
			req.on('error', reject);
			req.flushHeaders();
		});
	}

	test('declared Content-Length over the limit: answered before the body is sent', async () => {
		const target = r.api.uploadTarget('too-big.bin');
		const base = {
			...authHeaders(r.api.o.credentials, 'PUT', target),
			'Content-Type': 'multipart/form-data; boundary=x',
			'Content-Length': String(LIMIT + 1),
		};
		const plain = await headOnly(target, base);
		expect(plain.status).toBe(413);
		expect(JSON.parse(plain.body)).toEqual({
			error: 'Payload too large',
			message: expect.stringContaining(String(LIMIT)),
		});
		const expecting = await headOnly(target, { ...base, Expect: '100-continue' });
		expect(expecting.status).toBe(413);
		expect(expecting.continued).toBe(false);
	});

	test('a chunked body that grows past the limit is cut off; nothing is stored', async () => {
		const key = 'too-big-chunked.bin';
		const target = r.api.uploadTarget(key);
		const boundary = 'chunkedboundary';
		const { hostname, port } = new URL(r.emu.url);
		r.emu.resetStats();
		const outcome = await new Promise<string>((resolve) => {
			const req = http.request({
				host: hostname,
				port,
				method: 'PUT',
				path: target,
				agent: false,
				headers: {
					...authHeaders(r.api.o.credentials, 'PUT', target),
					'Content-Type': `multipart/form-data; boundary=${boundary}`,
					'Transfer-Encoding': 'chunked',
				},
			});
			req.on('response', (res) => resolve(`status ${res.statusCode}`));
			req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
			req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${key}"\r\n\r\n`);
			let sent = 0;
			const pump = () => {
				// Up to 8 MiB: far over the limit; stops as soon as the server answers or hangs up.
				while (sent < 8 * MiB && !req.destroyed) {
					sent += 64 * KiB;
					if (!req.write(randomData(64 * KiB))) return void req.once('drain', pump);
				}
				if (!req.destroyed) req.end(`\r\n--${boundary}--\r\n`);
			};
			pump();
		});
		expect(outcome === 'status 413' || /^error (ECONNRESET|EPIPE)$/.test(outcome)).toBe(true);
		await eventually(() => r.emu.stats().responses['413'] === 1, 'the 413');
		expect(await r.emu.readObject(b().name, b().region, key)).toBeUndefined();
		await eventually(async () => (await diskUsage(r.emu.dataDir)) < 64 * KiB, 'the refused body to be removed');
		expect((await r.api.upload('small.txt', Buffer.from('still fine'))).status).toBe(200);
	});

	test('a body just under the limit is accepted', async () => {
		const data = randomData(LIMIT - 1024);
		const res = await r.api.upload('fits.bin', data);
		expect(res.status).toBe(200);
		expect(await r.emu.objectSha256(b().name, b().region, 'fits.bin')).toBe(sha256(data));
	});
});

describe('routing', () => {
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator();
	});
	afterAll(() => r.emu.stop());

	test.each([
		['GET', '/'],
		['GET', '/api/v1/files'],
		['GET', '/api/v1/files/list/'],
		['POST', '/api/v1/files/list'],
		['GET', '/api/v1/files/upload'],
		['PUT', '/api/v1/files/multipart/start'],
		['GET', '/api/v2/files/list'],
		['POST', '/api/v1/files/multipart/abc/unknown'],
	])('%s %s → 404', async (method, path) => {
		const res = await r.api.send(method, path);
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ error: 'Resource not found', message: expect.any(String) });
	});

	test('errors never leak a stack or a file path', async () => {
		const res = await r.api.send(
			'POST',
			'/api/v1/files/multipart/start?bucket_name=my-bucket&region=us-east-1&key=a%00b',
		);
		expect(res.status).toBe(400);
		expect(show(res)).not.toMatch(/\/tmp\/|at \w+ \(/);
	});
});
