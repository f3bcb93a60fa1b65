import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';
import { useProxy, viaProxy } from './proxy';

const emulator = useEmulator();
const proxy = useProxy(emulator);

/** The node talks to the emulator through the proxy. */
async function multipartThroughProxy(key: string, bytes: Buffer, partSize: number, timeout: number) {
	return await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation: 'multipartUpload',
			key,
			partSize,
			parallelUploads: 1,
			options: { timeout, maxRetries: 0 },
		},
		{ credentials: viaProxy(emulator(), proxy()), items: [fileItem(bytes)] },
	);
}

describe('Timeout is the wait for the service, not the time to send a body', () => {
	it('a part that takes longer to send than Timeout, on a slow link, still goes through', async () => {
		proxy().setRules({ uploadBytesPerSecond: 2 * MIB });
		const bytes = randomFile(6 * MIB);
		// 6 MiB at 2 MiB/s is about 3 s of sending, against a Timeout of 2 s.
		const result = await multipartThroughProxy('slow/part.bin', bytes, 6, 2);
		expect(result.error).toBeUndefined();
		const part = proxy().exchanges.find((exchange) => exchange.operation === 'uploadPart');
		expect(part!.answeredAt! - part!.startedAt).toBeGreaterThan(2000);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'slow/part.bin')).toBe(sha256(bytes));
	});

	it('a Complete the service carried out but answered late is reported as probably done, not as parts left behind', async () => {
		proxy().setRules({ holdAnswer: { complete: 4000 } });
		const bytes = randomFile(6 * MIB);
		const result = await multipartThroughProxy('slow/late-complete.bin', bytes, 5, 2);
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload of 'slow\/late-complete\.bin' failed: no response from the service within the timeout/,
		);
		expect(result.error?.description).toMatch(
			/the completion most likely went through before its answer came\. Check whether 'slow\/late-complete\.bin' exists/,
		);
		expect(result.error?.description).not.toMatch(/may remain/);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'slow/late-complete.bin')).toBe(sha256(bytes));
	});

	it('a Complete answered late whose clean-up Cancel is answered late too says the file may exist', async () => {
		proxy().setRules({ holdAnswer: { complete: 4000, cancel: 4000 } });
		const bytes = randomFile(6 * MIB);
		const result = await multipartThroughProxy('slow/late-both.bin', bytes, 5, 2);
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload of 'slow\/late-both\.bin' failed: no response from the service within the timeout/,
		);
		expect(proxy().exchanges.filter((exchange) => exchange.operation === 'cancel')).toHaveLength(1);
		expect(result.error?.description).toMatch(
			/the completion may have gone through before its answer came\. Check whether 'slow\/late-both\.bin' exists/,
		);
		expect(result.error?.description).toMatch(/Cancelling the multipart upload \S+ failed as well \(.*no response/);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'slow/late-both.bin')).toBe(sha256(bytes));
	});
});
