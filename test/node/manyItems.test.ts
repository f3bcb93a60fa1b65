/**
 * Node version 3: the items of a run go in parallel over one request pool (Parallel Requests)
 * and one memory budget (Upload Memory). Order, pairing, Continue On Fail, a stopped run, the
 * pool-wide pause on 429, and that a big file next to many small ones still gets through.
 */
import { eventually, useProxy, viaProxy } from './proxy';
import { BUCKET, MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';
import { runNode } from '../harness';

const emulator = useEmulator({ minPartSize: 1024 });
const proxy = useProxy(emulator);

const V3 = { typeVersion: 3 };
const files = (n: number, prefix: string) =>
	Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}.bin`, bytes: randomFile(2000 + ((i * 7919) % 5000)) }));

async function run(parameters: Record<string, unknown>, extra: Parameters<typeof runFileStorage>[2] = {}) {
	return await runNode({
		credentials: viaProxy(emulator(), proxy()),
		...V3,
		...extra,
		parameters: { ...BUCKET, ...parameters },
	});
}

describe('node version 3: many items at once', () => {
	afterEach(() => emulator().setFaults([]));

	it('uploads items several at once, never more than Parallel Requests, and outputs them in input order with pairedItem', async () => {
		const input = files(24, 'order');
		const result = await run(
			{ resource: 'file', operation: 'upload', key: '', folder: 'order', options: { parallelRequests: 4 } },
			{ items: input.map((f) => fileItem(f.bytes, f.name)) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toEqual(input.map((f) => `order/${f.name}`));
		expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		for (const f of input) {
			expect((await emulator().readObject('my-bucket', 'us-east-1', `order/${f.name}`))?.body.equals(f.bytes)).toBe(
				true,
			);
		}
		expect(proxy().maxInFlight()).toBeGreaterThan(1);
		expect(proxy().maxInFlight()).toBeLessThanOrEqual(4);
	});

	it('downloads items in parallel into their own items, in input order', async () => {
		const input = files(12, 'down');
		await run(
			{ resource: 'file', operation: 'upload', key: '', folder: 'down' },
			{ items: input.map((f) => fileItem(f.bytes, f.name)) },
		);
		const result = await run(
			{ resource: 'file', operation: 'download', fileKey: '={{ $json.key }}', options: { parallelRequests: 6 } },
			{ items: input.map((f) => ({ json: { key: `down/${f.name}` } })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(input.length);
		for (const [i, item] of result.items.entries()) {
			expect(item.json.key).toBe(`down/${input[i].name}`);
			expect(item.pairedItem).toEqual({ item: i });
			expect(await result.binarySha256(item)).toBe(sha256(input[i].bytes));
		}
	});

	it('with Continue On Fail, a failed item gets its own error item while the items in flight around it succeed', async () => {
		const input = files(12, 'cof');
		// Uploads 3 and 8 (in the order they reach the service) fail, with no retry.
		emulator().setFaults([{ operation: 'upload', status: 500, nth: [3, 8] }]);
		const result = await run(
			{
				resource: 'file',
				operation: 'upload',
				key: '',
				folder: 'cof',
				options: { parallelRequests: 4, maxRetries: 0 },
			},
			{ items: input.map((f) => fileItem(f.bytes, f.name)), continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(12);
		expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		const failed = result.items.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(2);
		for (const [i, item] of result.items.entries()) {
			const stored = await emulator().readObject('my-bucket', 'us-east-1', `cof/${input[i].name}`);
			if (item.json.error === undefined) {
				expect(item.json.key).toBe(`cof/${input[i].name}`);
				expect(stored?.body.equals(input[i].bytes)).toBe(true);
			} else {
				expect(String(item.json.error)).toMatch(/500/);
				expect(stored).toBeUndefined();
			}
		}
	});

	it('without Continue On Fail, fails with the first failed item and starts no further item; uploads under way finish or cancel', async () => {
		const input = files(40, 'fail');
		emulator().setFaults([{ operation: 'upload', status: 500, nth: [2] }]);
		emulator().resetStats();
		const result = await run(
			{
				resource: 'file',
				operation: 'upload',
				key: '',
				folder: 'fail',
				options: { parallelRequests: 2, maxRetries: 0 },
			},
			{ items: input.map((f) => fileItem(f.bytes, f.name)) },
		);
		expect(result.error?.message).toMatch(/500/);
		expect(emulator().stats().requests.upload).toBeLessThan(input.length);
		expect(emulator().listOpenUploads()).toHaveLength(0);
	});

	it('a 429 pauses every request of the run for its Retry-After, not only the one that got it', async () => {
		const input = files(12, 'pause');
		proxy().setRules({ answerInstead: { upload: [{ status: 429, headers: { 'Retry-After': '1' } }] } });
		const result = await run(
			{ resource: 'file', operation: 'upload', key: '', folder: 'pause', options: { parallelRequests: 3 } },
			{ items: input.map((f) => fileItem(f.bytes, f.name)) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toEqual(input.map((f) => `pause/${f.name}`));
		const exchanges = proxy().exchanges.filter((e) => e.operation === 'upload');
		const refused = exchanges.find((e) => e.status === 429)!;
		// Only requests the node had sent before the 429 reached it (at most Parallel Requests − 1)
		// start within its Retry-After; the rest wait for it to run out.
		const at = refused.answeredAt!;
		const during = exchanges.filter((e) => e.startedAt > at && e.startedAt < at + 950);
		const afterwards = exchanges.filter((e) => e.startedAt >= at + 950);
		expect(during.length).toBeLessThanOrEqual(2);
		expect(afterwards.length).toBeGreaterThanOrEqual(input.length - 3);
		expect(exchanges).toHaveLength(input.length + 1);
	});

	it('a large file next to many small ones gets through within a small Upload Memory, parts bounded by it', async () => {
		const small = files(30, 'mixed');
		const big = randomFile(23 * MIB + 11);
		emulator().resetStats();
		const items = [
			...small.slice(0, 10).map((f) => fileItem(f.bytes, f.name)),
			fileItem(big, 'mixed-big.bin'),
			...small.slice(10).map((f) => fileItem(f.bytes, f.name)),
		];
		const result = await run(
			{
				resource: 'file',
				operation: 'upload',
				key: '',
				folder: 'mixed',
				// Parts of 5 MiB, at most two of them in 12 MiB: the small files share what is left.
				options: { parallelRequests: 8, uploadMemory: 12, multipartThreshold: 5, partSize: 5 },
			},
			{ items },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(31);
		expect(result.items[10].json).toMatchObject({ key: 'mixed/mixed-big.bin', partCount: 5 });
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'mixed/mixed-big.bin')).toBe(sha256(big));
		expect(emulator().stats().maxConcurrentPartUploads).toBeLessThanOrEqual(2);
		expect(proxy().maxInFlight()).toBeLessThanOrEqual(8);
	});

	it('sends the parts of a step-by-step upload given as items in parallel, and completes with them', async () => {
		const bytes = randomFile(3 * 6000 + 123);
		const started = await run({
			resource: 'multipartUpload',
			operation: 'start',
			key: 'steps/file.bin',
			totalParts: 4,
		});
		expect(started.error).toBeUndefined();
		const uploadId = String(started.items[0].json.uploadId);
		const parts = [0, 1, 2, 3].map((i) => bytes.subarray(i * 6000, Math.min((i + 1) * 6000, bytes.length)));
		emulator().resetStats();
		const sent = await run(
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key: 'steps/file.bin',
				partNumber: '={{ $json.partNumber }}',
				totalParts: 4,
			},
			{ items: parts.map((part, i) => ({ ...fileItem(part, `p${i}`), json: { partNumber: i + 1 } })) },
		);
		expect(sent.error).toBeUndefined();
		expect(sent.items.map((item) => item.json.partNumber)).toEqual([1, 2, 3, 4]);
		expect(emulator().stats().requests.uploadPart).toBe(4);
		const done = await run(
			{ resource: 'multipartUpload', operation: 'complete', uploadId, key: 'steps/file.bin' },
			{ items: sent.items.map((item) => ({ json: item.json })) },
		);
		expect(done.error).toBeUndefined();
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'steps/file.bin')).toBe(sha256(bytes));
	});

	it('stopping a mixed run stops every item and cancels every multipart upload it started', async () => {
		// Parts never get an answer: the run is stopped with every upload in flight.
		emulator().setFaults([{ operation: 'uploadPart', hang: true }]);
		emulator().resetStats();
		const items = [
			fileItem(randomFile(12 * MIB), 'stop-a.bin'),
			...files(20, 'stop').map((f) => fileItem(f.bytes, f.name)),
			fileItem(randomFile(11 * MIB), 'stop-b.bin'),
			fileItem(randomFile(11 * MIB), 'stop-c.bin'),
		];
		const running = runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				key: '',
				folder: 'stop',
				options: { parallelRequests: 6, multipartThreshold: 5, partSize: 5, uploadMemory: 64 },
			},
			{ ...V3, items, timeoutMs: 3000 },
		);
		await expect(running).rejects.toThrow(/did not finish within 3000 ms/);
		const starts = emulator().stats().requests.start;
		expect(starts).toBe(3);
		expect(await eventually(() => emulator().stats().requests.cancel === starts, 15_000)).toBe(true);
		expect(await eventually(() => emulator().listOpenUploads().length === 0, 5_000)).toBe(true);
	});
});
