import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

// Latency keeps parts in flight long enough for the emulator to see them overlap.
const emulator = useEmulator({ latencyMs: 40 });

const multipart = async (parameters: Record<string, unknown>, bytes: Buffer, extra = {}) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'multipartUpload', partSize: 5, parallelUploads: 3, ...parameters },
		{ items: [fileItem(bytes, 'video.mp4', 'video/mp4')], ...extra },
	);

describe('File → Multipart Upload', () => {
	beforeEach(() => {
		emulator().setFaults([]);
		emulator().resetStats();
	});

	it('uploads 3 full parts and a short tail in parallel, byte-identical', async () => {
		const bytes = randomFile(15 * MIB + 12345);
		// Version 2: Parallel Uploads bounds the parts in flight (version 3: Upload Memory, manyItems.test.ts).
		const result = await multipart({ key: 'big/video.mp4' }, bytes, { typeVersion: 2 });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			key: 'big/video.mp4',
			size: bytes.length,
			content_type: 'video/mp4',
			visibility: 'private',
			partCount: 4,
			partSize: 5 * MIB,
			message: 'Multipart upload completed successfully',
		});
		expect(result.items[0].json.uploadId).toEqual(expect.any(String));
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'big/video.mp4')).toBe(sha256(bytes));
		const stats = emulator().stats();
		expect(stats.requests.uploadPart).toBe(4);
		expect(stats.maxConcurrentPartUploads).toBeGreaterThan(1);
		expect(stats.maxConcurrentPartUploads).toBeLessThanOrEqual(3);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a file smaller than one part is a single-part upload', async () => {
		const bytes = randomFile(1234);
		const result = await multipart({ key: 'small.bin' }, bytes);
		expect(result.items[0].json.partCount).toBe(1);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'small.bin')).toBe(sha256(bytes));
	});

	it('retries transient part failures (500, 503, 429, dropped connection) and still stores the exact bytes', async () => {
		emulator().setFaults([
			{ operation: 'uploadPart', status: 503, partNumbers: [1], times: 1 },
			{ operation: 'uploadPart', status: 500, partNumbers: [2], times: 1 },
			{ operation: 'uploadPart', status: 429, partNumbers: [3], times: 1 },
			{ operation: 'uploadPart', reset: true, partNumbers: [4], times: 1 },
		]);
		const bytes = randomFile(15 * MIB + 1);
		const result = await multipart({ key: 'flaky.bin' }, bytes);
		expect(result.error).toBeUndefined();
		expect(emulator().stats().faultsInjected).toBe(4);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'flaky.bin')).toBe(sha256(bytes));
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a part that keeps failing ends with an error naming the part, and the upload is cancelled', async () => {
		emulator().setFaults([{ operation: 'uploadPart', status: 500, partNumbers: [2] }]);
		const result = await multipart({ key: 'doomed.bin', options: { maxRetries: 2 } }, randomFile(15 * MIB));
		expect(result.error?.message).toMatch(
			/part 2 of 3 of 'doomed\.bin' failed after 3 attempts: Internal server error \(HTTP 500\)/,
		);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expect(emulator().stats().requests.cancel).toBe(1);
		expect(emulator().listOpenUploads()).toEqual([]);
		expect(await emulator().readObject('my-bucket', 'us-east-1', 'doomed.bin')).toBeUndefined();
	});

	it('refuses a part size below 5 MiB or above 5 GiB, and bad parallelism, before any request', async () => {
		// Parallel Uploads is a setting of versions 1 and 2 (version 3 has Parallel Requests for the run).
		for (const [parameters, message, typeVersion] of [
			[{ partSize: 4 }, /Part Size must be between 5 and 5120 MiB \(got 4\)/, 3],
			[{ partSize: 6000 }, /Part Size must be between 5 and 5120 MiB \(got 6000\)/, 3],
			[{ parallelUploads: 0 }, /Parallel Uploads must be a whole number from 1 to 16/, 2],
		] as const) {
			const result = await multipart({ key: 'never.bin', ...parameters }, randomFile(100), { typeVersion });
			expect(result.error?.message).toMatch(message);
		}
		expect(emulator().stats().requests.start).toBe(0);
	});

	it('a wrong secret gives the service 401 message and says what to check', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'x.bin' },
			{
				items: [fileItem(randomFile(10))],
				credentials: {
					fileStorageApi: { accessKey: emulator().accessKey, secretKey: 'not-the-secret', baseUrl: emulator().url },
				},
			},
		);
		expect(result.error?.message).toMatch(/Invalid authentication credentials \(HTTP 401\)/);
		expect(result.error?.description).toMatch(/Access Key and Secret Key/);
		expect(result.error?.description).toMatch(/clock/);
		expect(JSON.stringify(result.error)).not.toContain('not-the-secret');
		expect(JSON.stringify(result.error)).not.toContain(emulator().secretKey);
	});
});
