import type { INodeParameters } from 'n8n-workflow';

import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const multipart = async (key: string, bytes: Buffer, options: INodeParameters = {}, parameters = {}) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'multipartUpload', key, partSize: 5, parallelUploads: 3, options, ...parameters },
		{ items: [fileItem(bytes)] },
	);

describe('faults during multipart upload', () => {
	let injectedAcrossRuns = 0;

	beforeEach(() => {
		emulator().setFaults([]);
		emulator().resetStats();
	});
	afterAll(() => emulator().setFaults([]));

	// 25 % of part requests fail (20 % with 500/503/429, 5 % with a reset mid-body). With 8
	// retries a part is lost only if 9 attempts in a row fail: about 4 in a million.
	it.each(Array.from({ length: 20 }, (_, run) => run + 1))(
		'run %i with seeded random faults still stores the exact bytes',
		async (seed) => {
			emulator().setFaults([
				{ operation: 'uploadPart', reset: true, probability: 0.05, seed: seed * 7919 },
				{ operation: 'uploadPart', status: ([500, 503, 429] as const)[seed % 3], probability: 0.2 / 0.95, seed },
			]);
			const bytes = randomFile(11 * MIB + seed);
			const result = await multipart(`faults/run-${seed}.bin`, bytes, { maxRetries: 8 });
			expect(result.error).toBeUndefined();
			expect(await emulator().objectSha256('my-bucket', 'us-east-1', `faults/run-${seed}.bin`)).toBe(sha256(bytes));
			expect(emulator().listOpenUploads()).toEqual([]);
			injectedAcrossRuns += emulator().stats().faultsInjected;
		},
	);

	it('the faults really happened across those runs', () => {
		// Guards the test above against passing because no fault was ever injected.
		expect(injectedAcrossRuns).toBeGreaterThan(10);
	});

	it('every part failing: the upload is cancelled and the error names part, status and message', async () => {
		emulator().setFaults([{ operation: 'uploadPart', status: 503 }]);
		const result = await multipart('faults/never.bin', randomFile(11 * MIB), { maxRetries: 1 });
		expect(result.error?.message).toMatch(
			/Upload of part \d of 3 of 'faults\/never\.bin' failed after 2 attempts: .+ \(HTTP 503\)/,
		);
		expect(result.error?.description).toMatch(/cancelled on the service/);
		expect(emulator().stats().requests.cancel).toBe(1);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a server that stops answering ends the run at the Timeout option with a clear error', async () => {
		// Every part hangs, so the test does not depend on which part the machine gets to first.
		emulator().setFaults([{ operation: 'uploadPart', hang: true }]);
		const result = await multipart('faults/hang.bin', randomFile(11 * MIB), { timeout: 3, maxRetries: 0 });
		expect(result.error?.message).toMatch(/part \d of 3 .* failed: no response from the service within the timeout/);
		// The deadline is the Timeout option plus the time to send the part at the slowest accepted rate.
		expect(result.error?.description).toMatch(
			/No answer within \d+ s: the Timeout option \(3 s\) plus \d+ s to send [\d.]+ MiB at 1\.0 MiB\/s or faster/,
		);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('Complete failing once with 500 is retried and the file is stored', async () => {
		emulator().setFaults([{ operation: 'complete', status: 500, nth: [1] }]);
		const bytes = randomFile(6 * MIB);
		const result = await multipart('faults/complete-retry.bin', bytes);
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests.complete).toBe(2);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'faults/complete-retry.bin')).toBe(sha256(bytes));
	});

	it('Complete failing for good is reported, the upload cancelled, and no file appears', async () => {
		emulator().setFaults([{ operation: 'complete', status: 500 }]);
		const result = await multipart('faults/complete-fails.bin', randomFile(6 * MIB), { maxRetries: 2 });
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload of 'faults\/complete-fails\.bin' failed after 3 attempts: Internal server error \(HTTP 500\)/,
		);
		expect(emulator().listOpenUploads()).toEqual([]);
		expect(await emulator().readObject('my-bucket', 'us-east-1', 'faults/complete-fails.bin')).toBeUndefined();
	});

	it('a start refused with 503 is retried; a start failing with 500 is not (it may have created an upload)', async () => {
		emulator().setFaults([{ operation: 'start', status: 503, nth: [1] }]);
		const ok = await multipart('faults/start-503.bin', randomFile(100));
		expect(ok.error).toBeUndefined();
		emulator().setFaults([{ operation: 'start', status: 500, nth: [1] }]);
		emulator().resetStats();
		const failed = await multipart('faults/start-500.bin', randomFile(100));
		expect(failed.error?.message).toMatch(
			/Start of the multipart upload .* failed: Internal server error \(HTTP 500\)/,
		);
		expect(emulator().stats().requests.start).toBe(1);
	});
});

describe('a Complete whose answer is lost', () => {
	it('is retried; when the retry finds the upload gone, the error says the file may already exist', async () => {
		emulator().setFaults([{ operation: 'complete', dropResponse: true, times: 1 }]);
		const bytes = randomFile(6 * MIB);
		const result = await multipart('faults/answer-lost.bin', bytes);
		emulator().setFaults([]);
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload .* failed after 2 attempts: .*\(HTTP 404\)/,
		);
		expect(result.error?.description).toMatch(
			/may have completed the upload .* check whether 'faults\/answer-lost\.bin' exists/,
		);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'faults/answer-lost.bin')).toBe(sha256(bytes));
	});
});
