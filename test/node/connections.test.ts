import { HarnessCredentialsHelper } from '../harness/credentials-helper';

import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const upload = async (bytes: Buffer) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'multipartUpload', key: 'conn/file.bin', partSize: 5, parallelUploads: 2 },
		{ items: [fileItem(bytes, 'file.bin', 'application/octet-stream')] },
	);

describe('Requests of a multipart upload', () => {
	beforeEach(() => emulator().resetStats());
	afterEach(() => jest.restoreAllMocks());

	it('read the credential once per item, not once per request', async () => {
		// In n8n every read of a credential is a database query and a decryption: per part, it
		// was a serial step in front of every request of a large upload.
		const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		const bytes = randomFile(15 * MIB + 7);
		const result = await upload(bytes);
		expect(result.error).toBeUndefined();
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'conn/file.bin')).toBe(sha256(bytes));
		const { requests } = emulator().stats();
		expect(requests.start + requests.uploadPart + requests.complete).toBe(6);
		expect(reads).toHaveBeenCalledTimes(1);
	});

	it("each open a connection of their own: n8n's request helpers make a new agent per request", async () => {
		// What the findings build on (bench/findings.md, "A new connection per request"): no
		// request option lets a node keep a connection. If n8n starts reusing connections this
		// fails, and the connection-cost table and its findings need measuring again.
		const bytes = randomFile(10 * MIB + 3);
		const result = await upload(bytes);
		expect(result.error).toBeUndefined();
		const { connections } = emulator().stats();
		expect(connections.requests).toBe(5);
		expect(connections.opened).toBe(5);
	});
});
