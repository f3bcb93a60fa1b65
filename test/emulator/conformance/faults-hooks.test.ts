/** Fault injection, latency, stats, and the unsigned /_emulator test hooks. */
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';

import { AS_STRING, parseFaultSpec } from '../faults';
import { authHeaders, formBody, rawRequest, type Response } from './client';
import { eventually, putPart, sleep, startEmulator, type Running } from './setup';

let r: Running;
beforeAll(async () => {
	r = await startEmulator({ minPartSize: 1 });
});
afterAll(() => r.emu.stop());
afterEach(() => {
	r.emu.setFaults([]);
	r.emu.setLatency(0);
});

const statuses = async (n: number, call: () => Promise<Response>) => {
	const out: number[] = [];
	for (let i = 0; i < n; i++) out.push((await call()).status);
	return out;
};
/** Resolves with the error code when the request fails at the socket level. */
const socketError = (p: Promise<Response>) =>
	p.then(
		(res) => `status ${res.status}`,
		(err: NodeJS.ErrnoException) => err.code ?? err.message,
	);

describe('status faults', () => {
	test('nth: only the listed requests of that operation fail, with the spec bodies', async () => {
		r.emu.setFaults([{ operation: 'list', status: 503, nth: [2, 4] }]);
		const res: Response[] = [];
		for (let i = 0; i < 5; i++) res.push(await r.api.list());
		expect(res.map((x) => x.status)).toEqual([200, 503, 200, 503, 200]);
		expect(res[1].json).toEqual({ error: 'Service unavailable' });
		// Other operations are untouched.
		expect((await r.api.signedUrl('nothing')).status).toBe(404);
	});

	test('500 and 429 bodies; 429 carries Retry-After: 1', async () => {
		r.emu.setFaults([
			{ operation: 'list', status: 500, times: 1 },
			{ operation: 'list', status: 429, times: 1 },
		]);
		const first = await r.api.list();
		expect(first.status).toBe(500);
		expect(first.json).toEqual({ error: 'Internal server error' });
		const second = await r.api.list();
		expect(second.status).toBe(429);
		expect(second.json).toEqual({ error: 'Too many requests' });
		expect(second.headers['retry-after']).toBe('1');
		expect((await r.api.list()).status).toBe(200);
	});

	test('times: the first N fail, then all succeed', async () => {
		r.emu.setFaults([{ operation: '*', status: 503, times: 2 }]);
		expect(await statuses(4, () => r.api.list())).toEqual([503, 503, 200, 200]);
	});

	test('probability is seeded: same seed, same pattern; a mix of failures and successes', async () => {
		const rule = { operation: 'list' as const, status: 500 as const, probability: 0.5, seed: 42 };
		r.emu.setFaults([rule]);
		const a = await statuses(40, () => r.api.list());
		r.emu.setFaults([rule]);
		const b = await statuses(40, () => r.api.list());
		expect(a).toEqual(b);
		expect(a.filter((s) => s === 500).length).toBeGreaterThan(5);
		expect(a.filter((s) => s === 200).length).toBeGreaterThan(5);
		r.emu.setFaults([{ ...rule, seed: 7 }]);
		expect(await statuses(40, () => r.api.list())).not.toEqual(a);
	});

	test('partNumbers: only those parts fail; faults are counted', async () => {
		const key = 'faulty-parts.bin';
		const uploadId = (await r.api.start(key)).json.data.uploadId;
		r.emu.resetStats();
		r.emu.setFaults([{ operation: 'uploadPart', status: 503, partNumbers: [2], times: 1 }]);
		const parts = [Buffer.from('one '), Buffer.from('two '), Buffer.from('three')];
		const first = await Promise.all(parts.map((d, i) => r.api.uploadPart(uploadId, key, i + 1, d)));
		expect(first.map((x) => x.status)).toEqual([200, 503, 200]);
		const retry = await r.api.uploadPart(uploadId, key, 2, parts[1]);
		expect(retry.status).toBe(200);
		const refs = [first[0], retry, first[2]].map((x) => ({
			PartNumber: x.json.data.partNumber,
			ETag: x.json.data.ETag,
		}));
		expect((await r.api.complete(uploadId, key, refs)).status).toBe(200);
		const stats = r.emu.stats();
		expect(stats.faultsInjected).toBe(1);
		expect(stats.requests.uploadPart).toBe(4);
		expect(stats.responses['503']).toBe(1);
	});

	test('invalid rules are refused', () => {
		expect(() => r.emu.setFaults([{ operation: 'list' }])).toThrow(/exactly one/);
		expect(() => r.emu.setFaults([{ operation: 'bogus' as 'list', status: 500 }])).toThrow(/operation/);
		expect(() => r.emu.setFaults([{ operation: 'list', status: 404 as 500 }])).toThrow(/500, 503 or 429/);
		expect(() => r.emu.setFaults([{ operation: 'list', status: 500, probability: 2 }])).toThrow(/probability/);
	});
});

describe('connection faults', () => {
	test('reset mid-body: the client sees a dropped connection, nothing is stored', async () => {
		r.emu.setFaults([{ operation: 'upload', reset: true, times: 1 }]);
		const outcome = await socketError(r.api.upload('reset/victim.bin', Buffer.alloc(512 * 1024, 7)));
		expect(outcome).toMatch(/ECONNRESET|EPIPE|socket hang up/);
		expect(await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, 'reset/victim.bin')).toBeUndefined();
		expect((await r.api.upload('reset/victim.bin', Buffer.from('retry'))).status).toBe(200);
	});

	test('reset on a bodiless request', async () => {
		r.emu.setFaults([{ operation: 'list', reset: true, nth: [1] }]);
		expect(await socketError(r.api.list())).toMatch(/ECONNRESET|socket hang up/);
		expect((await r.api.list()).status).toBe(200);
	});

	test('dropResponse: the request takes effect but its answer never arrives', async () => {
		r.emu.setFaults([{ operation: 'upload', dropResponse: true, times: 1 }]);
		const outcome = await socketError(r.api.upload('drop/kept.bin', Buffer.from('stored anyway')));
		expect(outcome).toMatch(/ECONNRESET|socket hang up/);
		const stored = await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, 'drop/kept.bin');
		expect(stored?.body.toString()).toBe('stored anyway');
	});

	test('hang: no answer; stop() still finishes', async () => {
		const own = await startEmulator({ faults: [{ operation: 'signedUrl', hang: true }] });
		const target = `/api/v1/files/signed-url?bucket_name=my-bucket&region=us-east-1&key=a`;
		const pending = socketError(rawRequest(own.emu.url, { method: 'GET', target, timeoutMs: 300 }));
		expect(await pending).toBe('client timeout');
		const stillPending = socketError(own.api.signedUrl('a'));
		await eventually(() => own.emu.stats().requests.signedUrl === 2, 'the second request to arrive');
		await own.emu.stop();
		expect(await stillPending).toMatch(/ECONNRESET|socket hang up/);
	});
});

describe('adversary hooks', () => {
	/** stop(), or the reason it did not finish: a handler left waiting would hang it (and a whole suite) for ever. */
	const stopWithin = async (running: Running, ms: number) => {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('stop() hung'), ms)));
		try {
			return await Promise.race([running.emu.stop().then(() => 'stopped'), late]);
		} finally {
			clearTimeout(timer);
		}
	};

	test('an upload whose client leaves while a before hook still runs ends its handler: stop() still finishes', async () => {
		const own = await startEmulator();
		let hookReached!: () => void;
		const reached = new Promise<void>((resolve) => (hookReached = resolve));
		let letHookGo!: () => void;
		const hookGoes = new Promise<void>((resolve) => (letHookGo = resolve));
		// The hook acts (another writer) and only then lets the request on; by then its client has gone.
		own.emu.adversary.setHooks({
			before: async () => {
				hookReached();
				await hookGoes;
				return undefined;
			},
		});
		const target = `/api/v1/files/upload?bucket_name=my-bucket&region=us-east-1&visibility=public&key=left%2Fa.bin`;
		const form = formBody([{ name: 'file', filename: 'a.bin', data: Buffer.alloc(64 * 1024, 7) }]);
		const { hostname, port } = new URL(own.emu.url);
		const headers = {
			...authHeaders({ accessKey: own.emu.accessKey, secretKey: own.emu.secretKey }, 'PUT', target),
			'Content-Type': form.contentType,
			'Content-Length': String(form.body.length),
		};
		const client = http.request({ host: hostname, port: Number(port), method: 'PUT', path: target, headers });
		const gone = new Promise<void>((resolve) => client.once('close', resolve));
		client.on('error', () => undefined);
		client.write(form.body.subarray(0, 1024));
		await reached;
		client.destroy();
		await gone;
		// The server sees the socket close before the hook lets the request on.
		await sleep(100);
		letHookGo();
		await sleep(100);
		expect(await stopWithin(own, 5000)).toBe('stopped');
		expect(await own.emu.readObject('my-bucket', 'us-east-1', 'left/a.bin')).toBeUndefined();
	});
});

describe('latency', () => {
	test('responses still arrive, complete and correct', async () => {
		r.emu.setLatency(50);
		const res = await r.api.list();
		expect(res.status).toBe(200);
		expect(() => r.emu.setLatency(-1)).toThrow();
	});
});

describe('HTTP test hooks', () => {
	test('GET /_emulator/stats: the stats plus the open uploads', async () => {
		const key = 'hooks/open.bin';
		const uploadId = (await r.api.start(key)).json.data.uploadId;
		await r.api.uploadPart(uploadId, key, 3, Buffer.from('x'));
		const res = await rawRequest(r.emu.url, { method: 'GET', target: '/_emulator/stats' });
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			requests: expect.objectContaining({
				list: expect.any(Number),
				upload: expect.any(Number),
				start: expect.any(Number),
				uploadPart: expect.any(Number),
				complete: expect.any(Number),
				cancel: expect.any(Number),
				delete: expect.any(Number),
				signedUrl: expect.any(Number),
				cdn: expect.any(Number),
			}),
			responses: expect.any(Object),
			faultsInjected: expect.any(Number),
			currentPartUploads: 0,
			maxConcurrentPartUploads: expect.any(Number),
			maxConcurrentCdnRequests: expect.any(Number),
			openMultipartUploads: r.emu.stats().openMultipartUploads,
			authFailures: expect.any(Number),
			lastCdnAcceptEncoding: null,
			connections: {
				opened: expect.any(Number),
				requests: expect.any(Number),
				delayed: 0,
				throttlePauses: 0,
				throttledMs: 0,
			},
			openUploads: expect.arrayContaining([{ uploadId, bucket: 'my-bucket', region: 'us-east-1', key, parts: [3] }]),
		});
		await r.api.cancel(uploadId, key);
	});

	test('POST /_emulator/faults and /_emulator/reset-stats', async () => {
		const set = await rawRequest(r.emu.url, {
			method: 'POST',
			target: '/_emulator/faults',
			headers: { 'Content-Type': 'application/json' },
			body: Buffer.from(JSON.stringify({ faults: [{ operation: 'delete', status: 429, nth: [1] }], latencyMs: 0 })),
		});
		expect(set.status).toBe(200);
		expect((await r.api.delete('whatever')).status).toBe(429);
		expect((await r.api.delete('whatever')).status).toBe(404);

		const bad = await rawRequest(r.emu.url, {
			method: 'POST',
			target: '/_emulator/faults',
			body: Buffer.from('{"faults":[{"operation":"delete"}]}'),
		});
		expect(bad.status).toBe(400);

		expect((await rawRequest(r.emu.url, { method: 'POST', target: '/_emulator/reset-stats' })).status).toBe(200);
		const stats = r.emu.stats();
		expect(stats.requests.delete).toBe(0);
		expect(stats.faultsInjected).toBe(0);
		expect(stats.responses).toEqual({});
	});

	test('hooks are not counted as API traffic', async () => {
		r.emu.resetStats();
		await rawRequest(r.emu.url, { method: 'GET', target: '/_emulator/stats' });
		expect(r.emu.stats().responses).toEqual({});
	});
});

/** What a download client sees: status, headers, the bytes that came, and how it ended. */
interface Download {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	ended: 'complete' | 'cut';
}

/** GET an absolute URL over a fresh connection, following nothing and decoding nothing. */
function download(url: string, headers: Record<string, string> = {}): Promise<Download> {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { headers, agent: false }, (res) => {
			const chunks: Buffer[] = [];
			const done = (ended: Download['ended']) =>
				resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ended });
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => done('complete'));
			// A body cut before its Content-Length is an 'aborted' error on the response.
			res.on('error', () => done('cut'));
		});
		req.on('error', reject);
	});
}

const bucket = () => r.emu.buckets[0];
/** Stores a file through the API and returns the URL the CDN serves it at (signed when private). */
async function stored(key: string, data: Buffer, visibility = 'public'): Promise<string> {
	const up = await r.api.upload(key, data, { visibility, contentType: 'text/plain' });
	if (up.status !== 200) throw new Error(`upload: ${up.status}`);
	const res = await r.api.signedUrl(key);
	return res.json.data.url;
}

describe('CDN faults', () => {
	const data = Buffer.from('0123456789abcdef'.repeat(64 * 1024)); // 1 MiB, compressible

	test('truncate: full Content-Length, only the first N bytes, then the connection is cut', async () => {
		const url = await stored('cdn/truncated.txt', data);
		r.emu.setFaults([{ operation: 'cdn', truncate: 1000, times: 1 }]);
		const cut = await download(url);
		expect(cut.status).toBe(200);
		expect(cut.headers['content-length']).toBe(String(data.length));
		expect(cut.ended).toBe('cut');
		expect(cut.body.equals(data.subarray(0, 1000))).toBe(true);
		const whole = await download(url);
		expect(whole.ended).toBe('complete');
		expect(whole.body.equals(data)).toBe(true);
	});

	test('truncate: 0 sends the headers alone', async () => {
		const url = await stored('cdn/truncated-0.txt', data);
		r.emu.setFaults([{ operation: 'cdn', truncate: 0 }]);
		const cut = await download(url);
		expect([cut.status, cut.headers['content-length'], cut.ended, cut.body.length]).toEqual([
			200,
			String(data.length),
			'cut',
			0,
		]);
	});

	test('closeDelimited: no Content-Length, no chunked framing, N bytes, then a clean close', async () => {
		const url = await stored('cdn/close-delimited.txt', data);
		r.emu.setFaults([{ operation: 'cdn', closeDelimited: 1000, times: 1 }]);
		const cut = await download(url);
		expect(cut.status).toBe(200);
		expect(cut.headers['content-length']).toBeUndefined();
		expect(cut.headers['transfer-encoding']).toBeUndefined();
		// The end of the connection is the end of the body: to the client it ended normally.
		expect(cut.ended).toBe('complete');
		expect(cut.body.equals(data.subarray(0, 1000))).toBe(true);
		r.emu.setFaults([{ operation: 'cdn', closeDelimited: data.length, times: 1 }]);
		const whole = await download(url);
		expect([whole.ended, whole.headers['content-length'], whole.body.equals(data)]).toEqual([
			'complete',
			undefined,
			true,
		]);
	});

	test('echoUrl: 403 whose body repeats the request URL, query and all', async () => {
		const url = await stored('cdn/echo.txt', data, 'private');
		r.emu.setFaults([{ operation: 'cdn', echoUrl: true }]);
		const echoed = await download(url);
		expect(echoed.status).toBe(403);
		expect(echoed.body.toString()).toBe(`Access denied for ${url}\n`);
		expect(url).toMatch(/signature=[0-9a-f]{64}/);
	});

	test('stall: full Content-Length and N bytes, then silence on an open socket until stop()', async () => {
		const own = await startEmulator();
		// A failed expectation must not leave the server (and jest) running.
		try {
			await stallThenStop(own);
		} finally {
			await own.emu.stop();
		}
	});

	async function stallThenStop(own: Running): Promise<void> {
		const up = await own.api.upload('stall.txt', data, { visibility: 'public' });
		expect(up.status).toBe(200);
		own.emu.setFaults([{ operation: 'cdn', stall: 4096 }]);
		let received = 0;
		let settled: string | undefined;
		const got = new Promise<http.IncomingMessage>((resolve, reject) => {
			const req = http.get(up.json.data.location, { agent: false }, (res) => {
				res.on('data', (c: Buffer) => (received += c.length));
				res.on('end', () => (settled = 'end'));
				res.on('error', () => (settled = 'cut'));
				resolve(res);
			});
			req.on('error', reject);
		});
		const res = await got;
		expect(res.headers['content-length']).toBe(String(data.length));
		await eventually(() => received === 4096, 'the first 4096 bytes');
		await sleep(300);
		// Nothing more came, and the connection is still open.
		expect(received).toBe(4096);
		expect(settled).toBeUndefined();
		expect(res.socket?.destroyed).toBe(false);
		await own.emu.stop();
		await eventually(() => settled !== undefined, 'the stalled download to end');
		expect(settled).toBe('cut');
		expect(received).toBe(4096);
	}

	test('gzip: compressed only when Accept-Encoding allows it; the header is recorded', async () => {
		const url = await stored('cdn/zipped.txt', data);
		r.emu.setFaults([{ operation: 'cdn', gzip: true }]);
		const zipped = await download(url, { 'Accept-Encoding': 'gzip, deflate, br' });
		expect(r.emu.stats().lastCdnAcceptEncoding).toBe('gzip, deflate, br');
		expect(zipped.headers['content-encoding']).toBe('gzip');
		expect(zipped.headers.vary).toBe('Accept-Encoding');
		expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
		expect(zipped.body.length).toBeLessThan(data.length / 10);
		expect(gunzipSync(zipped.body).equals(data)).toBe(true);

		for (const accept of ['identity', 'gzip;q=0, *', 'br', undefined]) {
			const plain = await download(url, accept === undefined ? {} : { 'Accept-Encoding': accept });
			expect(r.emu.stats().lastCdnAcceptEncoding).toBe(accept ?? null);
			expect(plain.headers['content-encoding']).toBeUndefined();
			expect(plain.headers['content-length']).toBe(String(data.length));
			expect(plain.body.equals(data)).toBe(true);
		}
		expect((await download(url, { 'Accept-Encoding': '*' })).headers['content-encoding']).toBe('gzip');
		expect(r.emu.stats().faultsInjected).toBeGreaterThanOrEqual(6);
	});

	test('redirect: a 302 to /r/… that serves the same bytes, signed query kept byte for byte', async () => {
		const key = 'cdn/moved here/r\u00e9sum\u00e9+1.txt';
		const url = await stored(key, data, 'private');
		expect(url).toContain('?expires=');
		r.emu.setFaults([{ operation: 'cdn', redirect: true }]);
		r.emu.resetStats();
		const refused = await download(url);
		expect(refused.status).toBe(302);
		const location = String(refused.headers.location);
		const { origin, pathname, search } = new URL(url);
		expect(location).toBe(`${origin}/r/${pathname.slice('/f/'.length)}${search}`);
		const followed = await download(location);
		expect(followed.status).toBe(200);
		expect(followed.body.equals(data)).toBe(true);
		// fetch follows redirects by default, and refuses them on request.
		const fetched = await fetch(url);
		expect(fetched.redirected).toBe(true);
		expect(Buffer.from(await fetched.arrayBuffer()).equals(data)).toBe(true);
		expect((await fetch(url, { redirect: 'manual' })).status).toBe(302);
		// Only the /f/ requests were faulted: the /r/ ones are exempt, so a redirect cannot loop.
		expect(r.emu.stats().faultsInjected).toBe(3);
		expect(r.emu.stats().requests.cdn).toBe(5);
		// The redirect target still checks the signature.
		expect((await download(location.replace(/signature=[0-9a-f]/, 'signature=x'))).status).toBe(403);
	});

	test('nth and times select which downloads are faulted', async () => {
		const url = await stored('cdn/nth.txt', data);
		r.emu.setFaults([{ operation: 'cdn', truncate: 10, nth: [2, 3], times: 1 }]);
		const outcomes = [];
		for (let i = 0; i < 4; i++) outcomes.push((await download(url)).ended);
		expect(outcomes).toEqual(['complete', 'cut', 'complete', 'complete']);
	});

	test('HEAD is answered normally; a missing file is still a 404', async () => {
		const url = await stored('cdn/head.txt', data);
		r.emu.setFaults([{ operation: 'cdn', truncate: 10 }]);
		const head = await rawRequest(url, { method: 'HEAD', target: new URL(url).pathname });
		expect([head.status, head.headers['content-length']]).toEqual([200, String(data.length)]);
		expect((await download(url.replace('head.txt', 'absent.txt'))).status).toBe(404);
	});
});

describe('rewrite', () => {
	// These answers are wrong on purpose: the contract check is off (contract.test.ts proves it catches them).
	test('uploadPart: the part is stored, the answer says what the rule says', async () => {
		const key = 'rewrite/parts.bin';
		const uploadId = (await r.api.unchecked().start(key)).json.data.uploadId;
		r.emu.setFaults([
			{ operation: 'uploadPart', rewrite: { partNumber: 0, ETag: 'string' }, partNumbers: [1] },
			{ operation: 'uploadPart', rewrite: { partNumber: AS_STRING }, partNumbers: [2] },
		]);
		const one = await r.api.unchecked().uploadPart(uploadId, key, 1, Buffer.from('one'));
		expect(one.json).toEqual({ data: { partNumber: 0, ETag: 'string' } });
		const two = await r.api.unchecked().uploadPart(uploadId, key, 2, Buffer.from('two'));
		expect(two.json.data.partNumber).toBe('2');
		expect(two.json.data.ETag).toMatch(/^"[0-9a-f]{32}"$/);
		const three = await r.api.unchecked().uploadPart(uploadId, key, 3, Buffer.from('three'));
		expect(three.json.data.partNumber).toBe(3);
		expect(r.emu.listOpenUploads().find((u) => u.uploadId === uploadId)?.parts).toEqual([1, 2, 3]);
		await r.api.unchecked().cancel(uploadId, key);
	});

	test('start, complete, signedUrl, list: fields replaced, null deletes, the rest kept', async () => {
		r.emu.setFaults([{ operation: 'start', rewrite: { uploadId: '', fileId: null }, times: 1 }]);
		const started = await r.api.unchecked().start('rewrite/a.bin');
		expect(started.json.data).toEqual({ uploadId: '', key: 'rewrite/a.bin', bucket: 'my-bucket' });
		const real = r.emu.listOpenUploads().find((u) => u.key === 'rewrite/a.bin');
		expect(real?.uploadId).toMatch(/^[0-9a-f]{32}$/);

		const ref = await putPart(r.api.unchecked(), real!.uploadId, 'rewrite/a.bin', 1, Buffer.from('bytes'));
		r.emu.setFaults([{ operation: 'complete', rewrite: { key: 'other.bin' } }]);
		const completed = await r.api.unchecked().complete(real!.uploadId, 'rewrite/a.bin', [ref]);
		expect(completed.json.data).toMatchObject({ key: 'other.bin', size: 5, bucket: 'my-bucket' });
		expect((await r.emu.readObject(bucket().name, bucket().region, 'rewrite/a.bin'))?.body.toString()).toBe('bytes');
		expect(await r.emu.readObject(bucket().name, bucket().region, 'other.bin')).toBeUndefined();

		r.emu.setFaults([{ operation: 'signedUrl', rewrite: { url: 'ftp://x' } }]);
		expect((await r.api.unchecked().signedUrl('rewrite/a.bin')).json.data).toMatchObject({
			url: 'ftp://x',
			is_public: false,
		});

		const pagination = { current_page: 1, total_pages: 99, total_items: 5, items_per_page: 1000 };
		r.emu.setFaults([{ operation: 'list', rewrite: { pagination } }]);
		const listed = await r.api.unchecked().list({ prefix: 'rewrite/' });
		expect(listed.json.data.pagination).toEqual(pagination);
		expect(listed.json.data.contents.children.map((c: { name: string }) => c.name)).toEqual(['a.bin']);
	});

	test('an error answer passes unchanged', async () => {
		r.emu.setFaults([{ operation: 'delete', rewrite: { message: 'gone' } }]);
		const res = await r.api.unchecked().delete('rewrite/never-there.bin');
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
	});
});

describe('new fault kinds: validation and CLI syntax', () => {
	test('each kind is checked and bound to the operations it can apply to', () => {
		expect(() => r.emu.setFaults([{ operation: 'list', truncate: 10 }])).toThrow(/cdn only/);
		expect(() => r.emu.setFaults([{ operation: '*', gzip: true }])).toThrow(/cdn only/);
		expect(() => r.emu.setFaults([{ operation: 'cdn', stall: -1 }])).toThrow(/byte count/);
		expect(() => r.emu.setFaults([{ operation: 'cdn', truncate: 10, redirect: true }])).toThrow(/exactly one/);
		expect(() => r.emu.setFaults([{ operation: 'cdn', rewrite: { a: 1 } }])).toThrow(/rewrite/);
		expect(() => r.emu.setFaults([{ operation: '*', rewrite: { a: 1 } }])).toThrow(/rewrite/);
		expect(() => r.emu.setFaults([{ operation: 'list', rewrite: {} }])).toThrow(/non-empty object/);
		expect(() => r.emu.setFaults([{ operation: 'list', rewrite: [1] as unknown as Record<string, unknown> }])).toThrow(
			/object/,
		);
	});

	test('--fault specs', () => {
		expect(parseFaultSpec('cdn:truncate=1000:times=1')).toEqual({ operation: 'cdn', truncate: 1000, times: 1 });
		expect(parseFaultSpec('cdn:stall=0')).toEqual({ operation: 'cdn', stall: 0 });
		expect(parseFaultSpec('cdn:gzip:nth=2')).toEqual({ operation: 'cdn', gzip: true, nth: [2] });
		expect(parseFaultSpec('cdn:redirect')).toEqual({ operation: 'cdn', redirect: true });
		expect(parseFaultSpec('cdn:close-delimited=65536')).toEqual({ operation: 'cdn', closeDelimited: 65536 });
		expect(parseFaultSpec('cdn:echo-url')).toEqual({ operation: 'cdn', echoUrl: true });
		expect(parseFaultSpec('signedUrl:rewrite={"url":"ftp://x","is_public":null}:nth=1,3')).toEqual({
			operation: 'signedUrl',
			rewrite: { url: 'ftp://x', is_public: null },
			nth: [1, 3],
		});
		expect(parseFaultSpec('uploadPart:rewrite={"partNumber":{"$asString":true}}:parts=2')).toEqual({
			operation: 'uploadPart',
			rewrite: { partNumber: AS_STRING },
			partNumbers: [2],
		});
		expect(() => parseFaultSpec('cdn:truncate')).toThrow(/truncate needs/);
		expect(() => parseFaultSpec('cdn:gzip=1')).toThrow(/takes no value/);
		expect(() => parseFaultSpec('list:rewrite={oops}')).toThrow(/JSON object/);
		expect(() => parseFaultSpec('list:truncate=5')).toThrow(/cdn only/);
	});
});
