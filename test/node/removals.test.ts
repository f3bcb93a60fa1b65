import type { INodeParameters } from 'n8n-workflow';

import { MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const key = { __rl: true, mode: 'key', value: 'removals/lost-answer.txt' };

async function upload(path: string) {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: path },
		{ items: [fileItem(Buffer.from('bytes'))] },
	);
	expect(result.error).toBeUndefined();
}

describe('a Delete or Cancel whose answer is lost is retried, and the retry finding nothing means done', () => {
	beforeEach(() => {
		emulator().setFaults([]);
		emulator().resetStats();
	});

	it('Delete: the file is gone, the run succeeds and says an earlier attempt did it', async () => {
		await upload(key.value);
		emulator().setFaults([{ operation: 'delete', dropResponse: true, times: 1 }]);
		const result = await runFileStorage(emulator(), { resource: 'file', operation: 'delete', fileKey: key });
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests.delete).toBe(2);
		expect(result.items[0].json).toMatchObject({ deleted: true, doneByEarlierAttempt: true });
		expect(result.items[0].json.message).toMatch(/earlier attempt/);
		expect(await emulator().readObject('my-bucket', 'us-east-1', key.value)).toBeUndefined();
	});

	it('Delete of a key that never existed still fails with 404 (no retry happened)', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'key', value: 'removals/never-there.txt' },
		});
		expect(result.error?.message).toMatch(/Delete of 'removals\/never-there\.txt' failed: .*\(HTTP 404\)/);
	});

	it('Delete answered at once reports the service message and no earlier attempt', async () => {
		await upload('removals/plain.txt');
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'key', value: 'removals/plain.txt' },
		});
		expect(result.items[0].json).toMatchObject({ deleted: true, doneByEarlierAttempt: false });
		expect(result.items[0].json.message).toMatch(/deleted successfully/);
	});

	it('step-by-step Cancel: the upload is gone and the run succeeds', async () => {
		const step = (operation: string, parameters: INodeParameters = {}) =>
			runFileStorage(emulator(), { resource: 'multipartUpload', operation, key: 'removals/parts.bin', ...parameters });
		const started = await step('start', { totalParts: 2 });
		const uploadId = started.items[0].json.uploadId as string;
		emulator().setFaults([{ operation: 'cancel', dropResponse: true, times: 1 }]);
		const cancelled = await step('cancel', { uploadId });
		expect(cancelled.error).toBeUndefined();
		expect(cancelled.items[0].json).toMatchObject({ cancelled: true, doneByEarlierAttempt: true, uploadId });
		expect(emulator().stats().requests.cancel).toBe(2);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('the clean-up Cancel after a failed multipart upload, answer lost, reports the upload cancelled', async () => {
		emulator().setFaults([
			{ operation: 'uploadPart', status: 500 },
			{ operation: 'cancel', dropResponse: true, times: 1 },
		]);
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'multipartUpload',
				key: 'removals/failed.bin',
				partSize: 5,
				parallelUploads: 1,
				options: { maxRetries: 0 },
			},
			{ items: [fileItem(randomFile(6 * MIB))] },
		);
		expect(result.error?.message).toMatch(/Upload of part 1 of 2 .* \(HTTP 500\)/);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expect(result.error?.description).not.toMatch(/may remain/);
		expect(emulator().stats().requests.cancel).toBe(2);
		expect(emulator().listOpenUploads()).toEqual([]);
	});
});

describe('a 404 after attempts the service did not carry out is an error, not work done earlier', () => {
	beforeEach(() => emulator().resetStats());
	afterEach(() => emulator().setFaults([]));

	// 429 and 503 say the request was not processed: the retry's 404 is the key's own.
	it.each([503, 429] as const)(
		'Delete of a key that never existed, first answered %s, fails with 404 instead of claiming an earlier attempt deleted it',
		async (status) => {
			emulator().setFaults([{ operation: 'delete', status, times: 1 }]);
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation: 'delete',
				fileKey: { __rl: true, mode: 'key', value: `removals/never-there-${status}.txt` },
			});
			expect(emulator().stats().requests.delete).toBe(2);
			expect(result.items[0]?.json ?? {}).not.toMatchObject({ doneByEarlierAttempt: true });
			expect(result.error?.message).toMatch(/failed after 2 attempts: .*\(HTTP 404\)/);
		},
	);

	it('step-by-step Cancel of an unknown upload, first answered 503, fails with 404', async () => {
		emulator().setFaults([{ operation: 'cancel', status: 503, times: 1 }]);
		const result = await runFileStorage(emulator(), {
			resource: 'multipartUpload',
			operation: 'cancel',
			key: 'removals/never-started.bin',
			uploadId: 'no-such-upload',
		});
		expect(result.items[0]?.json ?? {}).not.toMatchObject({ doneByEarlierAttempt: true });
		expect(result.error?.message).toMatch(/failed after 2 attempts: .*\(HTTP 404\)/);
	});
});
