/**
 * File → Download when the CDN states no length (a close-delimited answer: no Content-Length, no
 * chunked framing) and when the CDN's error body repeats the signed link. The service knows the
 * file's size (its listing): a body short of it is an error, never a stored file.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { RunNodeResult } from '../harness';
import { apiFor, put } from '../trigger/support';
import { MIB, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const KEY = 'unstated/file.bin';
const bytes = randomFile(1 * MIB);
const CUT = 64 * 1024;

const download = async (typeVersion: number, parameters: INodeParameters = {}) =>
	await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'key', value: KEY },
			options: { maxRetries: 0 },
			...parameters,
		},
		{ typeVersion },
	);

beforeAll(async () => {
	await put(apiFor(emulator()), KEY, bytes, { contentType: 'application/octet-stream', visibility: 'private' });
});
afterEach(() => emulator().setFaults([]));

describe('a download whose answer states no length', () => {
	it('cut after 64 KiB of 1 MiB fails as cut short against the listed size, in every version: nothing is stored', async () => {
		for (const typeVersion of [1, 2, 3]) {
			emulator().setFaults([{ operation: 'cdn', closeDelimited: CUT }]);
			const result = await download(typeVersion);
			expect(result.error?.message).toBe(
				`Download of '${KEY}' was cut short: received ${CUT} of ${bytes.length} bytes (the size the listing gave)`,
			);
			expect(result.error?.description).toMatch(/^Nothing was stored\./);
			expect(result.items).toEqual([]);
		}
	});

	it('whole, is size-confirmed by the one listing request that reads the record after every download', async () => {
		emulator().setFaults([{ operation: 'cdn', closeDelimited: bytes.length }]);
		emulator().resetStats();
		const v1 = await download(1);
		expect(v1.error).toBeUndefined();
		expect(v1.items[0].json).toMatchObject({ size: bytes.length, sizeConfirmed: true });
		expect(await v1.binarySha256(v1.items[0])).toBe(sha256(bytes));
		expect(emulator().stats().requests.list).toBe(1);
		// Version 2 adds the flag only when the size is unconfirmed.
		const v2 = await download(2);
		expect(v2.items[0].json).toEqual({});
		emulator().setFaults([]);
		emulator().resetStats();
		expect((await download(1)).items[0].json).toMatchObject({ sizeConfirmed: true });
		// An answer stating its length asks no more: the record read after the read (its tie to the file) is the one.
		expect(emulator().stats().requests.list).toBe(1);
	});
});

/** Everything of a failed run a user or a log could see. */
function visibleText(result: RunNodeResult): string {
	const { error } = result;
	return JSON.stringify({
		items: result.items,
		runData: result.runData,
		error: error && { ...error, message: error.message, description: error.description, stack: error.stack },
	});
}

describe('a CDN error body that repeats the signed link', () => {
	it("is shown without the link's signature, in every version", async () => {
		for (const run of [() => download(3), () => download(2), () => download(1)]) {
			emulator().setFaults([{ operation: 'cdn', echoUrl: true }]);
			const result = await run();
			// The CDN's words stay, with the link's location; its query (expiry, signature) does not.
			expect(result.error?.message).toMatch(
				new RegExp(`^Download of '${KEY}' failed: Access denied for ${emulator().url}/f/[^/]+/unstated/file\\.bin`),
			);
			const text = visibleText(result);
			expect(text).not.toMatch(/[0-9a-f]{64}/);
			expect(text).not.toMatch(/signature=(?!\[)/);
		}
	});
});
