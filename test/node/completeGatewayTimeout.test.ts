/**
 * A Complete that the service carried out but whose answer a gateway replaced with a 504 (its
 * upstream timeout is shorter than the time the service took to assemble the file). With Max
 * Retries 0 it is not sent again; the clean-up Cancel then finds no open upload (the API's own
 * 404): the upload is gone because it was completed. The error must not tell the user that
 * nothing was stored while the key holds the file ("The clean-up Cancel says 'cancelled' only when
 * the service confirms it", docs/reliability.md). Through n8n-core's engine over real HTTP to the
 * emulator, whose hook plays the gateway.
 */
import type { HookCall } from '../emulator/history';
import { MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Multipart Upload whose Complete was carried out but answered 504 by a gateway', () => {
	it('the error does not say nothing was stored when the file is stored', async () => {
		const key = 'complete-504/report.bin';
		const bytes = randomFile(6 * MIB);
		let completed = false;
		emulator().adversary.setHooks({
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				if (call.op !== 'complete' || reply.status !== 200) return;
				completed = true;
				reply.status = 504;
				reply.body = { error: 'Gateway Timeout', message: 'The upstream server did not answer in time' };
				return await Promise.resolve();
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key, partSize: 5, options: { maxRetries: 0 } },
			{ typeVersion: 3, continueOnFail: true, items: [fileItem(bytes, 'report.bin')] },
		);
		emulator().adversary.setHooks(undefined);
		expect(completed).toBe(true);
		const stored = await emulator().readObject('my-bucket', 'us-east-1', key);
		expect(stored?.body.length).toBe(bytes.length);
		const words = `${String(result.items[0]?.json.error)} ${JSON.stringify(result.items[0]?.json)}`;
		expect(words).not.toMatch(/nothing was stored/i);
	}, 60_000);
});
