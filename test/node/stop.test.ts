import { MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';
import { eventually } from './proxy';

const emulator = useEmulator();

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
});
