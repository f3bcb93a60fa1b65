/**
 * An Upload whose answer says the service stored fewer bytes than were sent is no success: the
 * file at the key is not the input. Copy already treats such an answer as a faulty copy
 * (api-choices.md "A short copy the service reports"); Upload and Multipart Upload must not report
 * it stored. Through n8n-core's engine over real HTTP to the emulator; the faulty storage acts from
 * its hooks (it keeps the upload three bytes short and its answer says so).
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

/** How the faulty answer spells the size it stored: as a number, or as a string of digits (some gateways do). */
type Spelling = 'number' | 'string';

function keepShort(key: string, op: 'upload' | 'complete', spelling: Spelling = 'number'): { struck: boolean } {
	const state = { struck: false };
	emulator().adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (state.struck || call.op !== op || call.query.get('key') !== key || reply.status !== 200) return;
			state.struck = true;
			const current = await emulator().adversary.current(key);
			if (!current) return;
			const body = current.body.subarray(0, current.size - 3);
			await emulator().adversary.put(HERE, key, body, {
				visibility: current.visibility as 'private',
				contentType: current.contentType,
				writer: 'client-short',
			});
			const data = (reply.body as { data?: { size?: number | string } }).data;
			if (data) data.size = spelling === 'string' ? String(body.length) : body.length;
		},
	});
	return state;
}

/** The answer names no size at all: the file is stored whole, only the answer is silent about it. */
function answerWithoutSize(key: string, op: 'upload' | 'complete'): { struck: boolean } {
	const state = { struck: false };
	emulator().adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (state.struck || call.op !== op || call.query.get('key') !== key || reply.status !== 200) return;
			const data = (reply.body as { data?: { size?: number } }).data;
			if (!data || !('size' in data)) return;
			state.struck = true;
			delete data.size;
		},
	});
	return state;
}

describe.each([
	['Upload in one request', 'upload', 1000, 'upload'],
	['Upload in parts', 'upload', 11 * MIB, 'complete'],
	['Multipart Upload', 'multipartUpload', 11 * MIB, 'complete'],
] as const)('%s whose answer says fewer bytes were stored than sent', (_name, operation, size, op) => {
	it.each([2, 3])(
		'is not reported stored (node version %i)',
		async (typeVersion) => {
			const key = `short-${operation}-${op}-v${typeVersion}/report.bin`;
			const state = keepShort(key, op);
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation, key, partSize: 5, options: { multipartThreshold: 5, partSize: 5 } },
				{
					items: [fileItem(randomFile(size), 'report.bin', 'application/octet-stream')],
					typeVersion,
					continueOnFail: true,
				},
			);
			emulator().adversary.setHooks(undefined);
			expect(state.struck).toBe(true);
			const stored = await emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
			expect(stored?.body.length).toBe(size - 3);
			const json = result.items[0]?.json ?? {};
			// The answer itself said size - 3: an item without an error reports a file that is not the input.
			expect({ error: json.error !== undefined, size: json.size }).toEqual({ error: true, size: undefined });
		},
		60_000,
	);
});

describe.each([
	['Upload in one request', 'upload', 1000, 'upload'],
	['Upload in parts', 'upload', 11 * MIB, 'complete'],
] as const)('%s', (_name, operation, size, op) => {
	const parameters = (key: string) => ({
		resource: 'file',
		operation,
		key,
		options: { multipartThreshold: 5, partSize: 5 },
	});

	it('whose answer says, as a string of digits, that fewer bytes were stored fails naming both sizes', async () => {
		const key = `short-string-${op}/report.bin`;
		const state = keepShort(key, op, 'string');
		const result = await runFileStorage(emulator(), parameters(key), {
			items: [fileItem(randomFile(size), 'report.bin', 'application/octet-stream')],
			typeVersion: 3,
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		expect(state.struck).toBe(true);
		expect((await emulator().readObject(BUCKET.bucketName, BUCKET.region, key))?.body.length).toBe(size - 3);
		const json = result.items[0]?.json ?? {};
		expect({ error: json.error !== undefined, size: json.size }).toEqual({ error: true, size: undefined });
		expect(String(json.error)).toContain(`the service says it stored ${size - 3} bytes, but ${size} were sent`);
	}, 60_000);

	it('whose answer names no size is taken as before: reported stored', async () => {
		const key = `no-size-${op}/report.bin`;
		const state = answerWithoutSize(key, op);
		const input = randomFile(size);
		const result = await runFileStorage(emulator(), parameters(key), {
			items: [fileItem(input, 'report.bin', 'application/octet-stream')],
			typeVersion: 3,
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		expect(state.struck).toBe(true);
		expect((await emulator().readObject(BUCKET.bucketName, BUCKET.region, key))?.body.equals(input)).toBe(true);
		expect(result.items[0]?.json.error).toBeUndefined();
	}, 60_000);
});
