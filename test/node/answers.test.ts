import type { INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../emulator';
import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const multipart = async (key: string, bytes: Buffer) =>
	await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation: 'multipartUpload',
			key,
			partSize: 5,
			parallelUploads: 2,
			options: { maxRetries: 0 },
		},
		{ items: [fileItem(bytes)] },
	);

function answersWith(...rules: FaultRule[]) {
	emulator().setFaults(rules);
	emulator().resetStats();
}

afterEach(() => emulator().setFaults([]));

describe('answers the node relies on are checked, never trusted', () => {
	it('part answers numbered 0 with a placeholder ETag: an error and a cancelled upload, never a stored file', async () => {
		answersWith({ operation: 'uploadPart', rewrite: { partNumber: 0, ETag: 'string' } });
		const result = await multipart('answers/zero.bin', randomFile(11 * MIB));
		expect(result.error?.message).toMatch(
			/Unexpected answer from the service to Upload of part \d of 3 of 'answers\/zero\.bin': "partNumber" is 0, but part \d was sent/,
		);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		expect(emulator().stats().requests.complete).toBe(0);
		expect(emulator().listOpenUploads()).toEqual([]);
		expect(await emulator().readObject('my-bucket', 'us-east-1', 'answers/zero.bin')).toBeUndefined();
	});

	it("a part answer with another part's number is refused the same way", async () => {
		answersWith({ operation: 'uploadPart', partNumbers: [2], rewrite: { partNumber: 1 } });
		const result = await multipart('answers/other.bin', randomFile(11 * MIB));
		expect(result.error?.message).toMatch(/"partNumber" is 1, but part 2 was sent/);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a part number echoed as a string, or not echoed at all, is fine: the node completes with the numbers it sent', async () => {
		for (const rewrite of [{ partNumber: { $asString: true } }, { partNumber: null }]) {
			answersWith({ operation: 'uploadPart', rewrite });
			const bytes = randomFile(11 * MIB);
			const result = await multipart('answers/echo.bin', bytes);
			expect(result.error).toBeUndefined();
			expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'answers/echo.bin')).toBe(sha256(bytes));
		}
	});

	it('an empty ETag is refused', async () => {
		answersWith({ operation: 'uploadPart', rewrite: { ETag: '' } });
		const result = await multipart('answers/etag.bin', randomFile(6 * MIB));
		expect(result.error?.message).toMatch(/"ETag" is "", not a non-empty string/);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a Start without an upload ID is refused before any part is sent', async () => {
		answersWith({ operation: 'start', rewrite: { uploadId: '' } });
		const result = await multipart('answers/no-id.bin', randomFile(6 * MIB));
		expect(result.error?.message).toMatch(
			/Unexpected answer from the service to Start of the multipart upload of 'answers\/no-id\.bin': "uploadId" is ""/,
		);
		expect(emulator().stats().requests.uploadPart).toBe(0);
	});

	it('a Complete that reports another key is an error, not a success', async () => {
		answersWith({ operation: 'complete', rewrite: { key: 'somewhere/else.bin' } });
		const result = await multipart('answers/key.bin', randomFile(6 * MIB));
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload of 'answers\/key\.bin': the stored file's key is "somewhere\/else\.bin", but "answers\/key\.bin" was sent/,
		);
	});

	it('a single Upload that reports another key is an error', async () => {
		answersWith({ operation: 'upload', rewrite: { key: 'other.bin' } });
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'answers/single.bin' },
			{ items: [fileItem(randomFile(100))] },
		);
		expect(result.error?.message).toMatch(/Upload of 'answers\/single\.bin': the stored file's key is "other\.bin"/);
	});

	it('a signed URL that is not http(s) is refused by Get Signed URL and Download', async () => {
		await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'answers/link.bin' },
			{ items: [fileItem(randomFile(100))] },
		);
		answersWith({ operation: 'signedUrl', rewrite: { url: 'ftp://files.example/answers/link.bin' } });
		const fileKey = { __rl: true, mode: 'key', value: 'answers/link.bin' };
		for (const parameters of [
			{ operation: 'getSignedUrl', fileKey },
			{ operation: 'download', fileKey },
		] as INodeParameters[]) {
			const result = await runFileStorage(emulator(), { resource: 'file', ...parameters });
			expect(result.error?.message).toMatch(
				/Signed URL of 'answers\/link\.bin': "url" is "ftp:\/\/files\.example\/answers\/link\.bin", not an http\(s\) URL/,
			);
		}
		expect(emulator().stats().requests.cdn).toBe(0);
	});

	it('a listing whose pagination runs past its own total ends with an error instead of looping', async () => {
		answersWith({
			operation: 'list',
			rewrite: { pagination: { current_page: 1, total_pages: 99, total_items: 5, items_per_page: 1000 } },
		});
		const result = await runFileStorage(emulator(), { resource: 'bucket', operation: 'listContents', returnAll: true });
		expect(result.error?.message).toMatch(/"pagination\.current_page" is 1, but page 2 was asked for/);
		expect(emulator().stats().requests.list).toBe(2);
	});

	it('step-by-step Upload Part outputs the part number it sent, not the echo', async () => {
		const started = await runFileStorage(emulator(), {
			resource: 'multipartUpload',
			operation: 'start',
			key: 'answers/steps.bin',
			totalParts: 3,
		});
		const uploadId = started.items[0].json.uploadId as string;
		answersWith({ operation: 'uploadPart', rewrite: { partNumber: null } });
		const part = await runFileStorage(
			emulator(),
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key: 'answers/steps.bin',
				partNumber: 3,
				totalParts: 3,
			},
			{ items: [fileItem(randomFile(100))] },
		);
		expect(part.error).toBeUndefined();
		expect(part.items[0].json.partNumber).toBe(3);
	});
});
