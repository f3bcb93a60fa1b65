/**
 * The clean-up Cancel after a failed multipart upload is sent outside the run's pool (detached):
 * it takes no slot, so it cannot rely on the pool's pause and waits for a Retry-After itself.
 */
import { useProxy, viaProxy } from './proxy';
import { BUCKET, MIB, fileItem, randomFile, useEmulator } from './support';
import { runNode } from '../harness';

const emulator = useEmulator();
const proxy = useProxy(emulator);

describe.each([2, 3])('node version %i: the clean-up Cancel after a failed part', (typeVersion) => {
	it('waits for the Retry-After of a 429 before it asks again', async () => {
		// The first part fails for good (no retries); the Cancel that cleans up gets two 429s first.
		proxy().setRules({
			answerInstead: {
				uploadPart: [{ status: 500 }],
				cancel: [
					{ status: 429, headers: { 'Retry-After': '1' } },
					{ status: 429, headers: { 'Retry-After': '1' } },
				],
			},
		});
		const result = await runNode({
			credentials: viaProxy(emulator(), proxy()),
			typeVersion,
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'multipartUpload',
				key: `cleanup-${typeVersion}/big.bin`,
				options: { partSize: 5, parallelUploads: 1, parallelRequests: 1, maxRetries: 0 },
			},
			items: [fileItem(randomFile(11 * MIB), 'big.bin')],
		});
		expect(result.error?.message).toMatch(/500/);
		const cancels = proxy().exchanges.filter((e) => e.operation === 'cancel');
		expect(cancels.map((e) => e.status)).toEqual([429, 429, 200]);
		// Each attempt after a 429 starts no earlier than its Retry-After (1 s) allows.
		expect(cancels[1].startedAt - cancels[0].answeredAt!).toBeGreaterThanOrEqual(950);
		expect(cancels[2].startedAt - cancels[1].answeredAt!).toBeGreaterThanOrEqual(950);
		expect(emulator().listOpenUploads()).toHaveLength(0);
	});
});
