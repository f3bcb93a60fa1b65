import { eventually, useProxy, viaProxy } from './proxy';
import { BUCKET, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';
import { runNode } from '../harness';

const emulator = useEmulator();
const proxy = useProxy(emulator);

describe('stopping the execution during a multipart upload', () => {
	afterEach(() => emulator().setFaults([]));

	it('still sends the clean-up Cancel, so no upload stays open on the service', async () => {
		// Parts never get an answer, so the run is stopped with parts in flight.
		emulator().setFaults([{ operation: 'uploadPart', hang: true }]);
		emulator().resetStats();
		const run = runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'stop/stopped.bin', partSize: 5, parallelUploads: 2 },
			{ items: [fileItem(randomFile(11 * MIB))], timeoutMs: 1500 },
		);
		// The harness stops the execution at timeoutMs, as the editor's Stop button does.
		await expect(run).rejects.toThrow(/did not finish within 1500 ms/);
		expect(emulator().stats().requests.start).toBe(1);
		expect(await eventually(() => emulator().stats().requests.cancel === 1, 10_000)).toBe(true);
		expect(await eventually(() => emulator().listOpenUploads().length === 0, 5_000)).toBe(true);
	});

	it('version 3: a stop while the request pool waits out a Retry-After cuts the pause short; the Cancel goes out at once', async () => {
		// The first part gets a 429 asking for 30 s: the whole pool pauses, the part's retry waits in it.
		proxy().setRules({ answerInstead: { uploadPart: [{ status: 429, headers: { 'Retry-After': '30' } }] } });
		const run = runNode({
			credentials: viaProxy(emulator(), proxy()),
			typeVersion: 3,
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'multipartUpload',
				key: 'stop/paused.bin',
				options: { partSize: 5, parallelUploads: 1, parallelRequests: 1 },
			},
			items: [fileItem(randomFile(11 * MIB), 'paused.bin')],
			timeoutMs: 1500,
		});
		await expect(run).rejects.toThrow(/did not finish within 1500 ms/);
		const cancelled = () => proxy().exchanges.some((e) => e.operation === 'cancel' && e.status === 200);
		// Well before the 30 s the service asked for: the stop ends the wait.
		expect(await eventually(cancelled, 5_000)).toBe(true);
		expect(emulator().listOpenUploads()).toHaveLength(0);
	});
});
