/** Fault injection, latency, stats, and the unsigned /_emulator test hooks. */
import { rawRequest, type Response } from './client';
import { eventually, startEmulator, type Running } from './setup';

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
			openMultipartUploads: r.emu.stats().openMultipartUploads,
			authFailures: expect.any(Number),
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
