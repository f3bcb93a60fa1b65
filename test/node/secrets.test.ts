import type { RunNodeResult } from '../harness';
import { credentialsFor, fileItem, randomFile, runFileStorage, useEmulator, MIB } from './support';

const SECRET = 'canary-secret-5b1f0e7d9a';
const WRONG_SECRET = 'canary-wrong-secret-c44e21';

const emulator = useEmulator({ secretKey: SECRET });

/** Everything a run leaves behind that a user or a log could see. */
function visibleText(result: RunNodeResult, printed: string[]): string {
	const { error } = result;
	return JSON.stringify({
		items: result.items,
		runData: result.runData,
		error: error && { ...error, message: error.message, description: error.description, stack: error.stack },
		printed,
	});
}

async function capturePrinted<T>(run: () => Promise<T>): Promise<{ value: T; printed: string[] }> {
	const printed: string[] = [];
	const spies = [
		jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
			printed.push(String(chunk));
			return true;
		}),
		jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			printed.push(String(chunk));
			return true;
		}),
		...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
			jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
				printed.push(args.map(String).join(' '));
			}),
		),
	];
	try {
		return { value: await run(), printed };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}

describe('the secret key never shows', () => {
	afterEach(() => emulator().setFaults([]));

	const cases: Array<[string, () => Promise<RunNodeResult>]> = [
		[
			'a successful upload',
			async () =>
				await runFileStorage(
					emulator(),
					{ resource: 'file', operation: 'upload', key: 'ok.bin' },
					{ items: [fileItem(randomFile(100))] },
				),
		],
		[
			'a successful listing',
			async () => await runFileStorage(emulator(), { resource: 'bucket', operation: 'listContents', returnAll: true }),
		],
		[
			'a wrong secret (401)',
			async () =>
				await runFileStorage(
					emulator(),
					{ resource: 'bucket', operation: 'listContents', returnAll: true },
					{ credentials: credentialsFor(emulator(), { secretKey: WRONG_SECRET }) },
				),
		],
		[
			'server errors on every part (500) with continueOnFail',
			async () => {
				emulator().setFaults([{ operation: 'uploadPart', status: 500 }]);
				return await runFileStorage(
					emulator(),
					{ resource: 'file', operation: 'multipartUpload', key: 'fails.bin', partSize: 5, options: { maxRetries: 1 } },
					{ items: [fileItem(randomFile(6 * MIB))], continueOnFail: true },
				);
			},
		],
		[
			'a timeout',
			async () => {
				emulator().setFaults([{ operation: 'list', hang: true }]);
				return await runFileStorage(emulator(), {
					resource: 'bucket',
					operation: 'listContents',
					options: { timeout: 1 },
				});
			},
		],
	];

	it.each(cases)('the secret shows nowhere after %s', async (name, run) => {
		const { value: result, printed } = await capturePrinted(run);
		// Each case must really take its path: a run that fails where it should succeed (a
		// broken signature, say) would leave the secret out for the wrong reason.
		const failed = result.error !== undefined || result.items.some((item) => item.json.error !== undefined);
		expect(failed).toBe(!name.startsWith('a successful'));
		const text = visibleText(result, printed);
		expect(text.length).toBeGreaterThan(50);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(WRONG_SECRET);
	});
});
