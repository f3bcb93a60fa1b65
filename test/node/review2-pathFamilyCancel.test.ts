/**
 * Review: the clean-up Cancel of a failed multipart upload when the cancel path does not exist in
 * the family the node may use. README: Multipart Upload "cancels the upload on the service if
 * anything fails (the error then says so)".
 */
import { start, type Emulator } from '../emulator';
import { BUCKET, credentialsFor, fileItem, MIB, randomFile } from './support';
import { runNode } from '../harness';

describe('the clean-up Cancel when its path is missing', () => {
	let emulator: Emulator;
	beforeAll(async () => {
		emulator = await start({ port: 0, paths: 'sdk' });
	});
	afterAll(() => emulator.stop());

	it('API Paths fixed to Reference against an SDK-only service: the error does not claim the upload was cancelled while it is still open', async () => {
		const result = await runNode({
			credentials: credentialsFor(emulator, { apiPaths: 'reference' }),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'multipartUpload',
				key: 'fam/left-open.bin',
				partSize: 5,
				parallelUploads: 1,
			},
			items: [fileItem(randomFile(6 * MIB))],
		});
		expect(result.error?.message).toMatch(/HTTP 404/);
		const open = emulator.listOpenUploads();
		// The part path does not exist, nor does the Cancel path: the upload stays open …
		expect(open).toHaveLength(1);
		// … so the error must not say it was cancelled and nothing was stored.
		expect(result.error?.description).not.toMatch(/was cancelled on the service/);
	});
});
