/**
 * Node version 3 holds a request slot until the answer's body is done with. Every path that
 * leaves a body unread must give the slot back, or a run over more such items than Parallel
 * Requests waits forever: each test runs many items at Parallel Requests 1 and must finish.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { binaryStoragePath } from '../harness/env';
import { apiFor, put } from '../trigger/support';
import { BUCKET, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const ITEMS = 5;
const keys = Array.from({ length: ITEMS }, (_, i) => `slots/file-${i}.txt`);
const STORE_REFUSED = "Nothing was stored. The file arrived, but n8n's binary data store did not take it.";
const V3_ONE_SLOT = { typeVersion: 3, timeoutMs: 20_000, items: keys.map((key) => ({ json: { key } })) };

beforeAll(async () => {
	for (const key of keys) await put(apiFor(emulator()), key, `bytes of ${key}`);
});

describe('version 3 at Parallel Requests 1: a body left unread gives its slot back', () => {
	it('File → Get Info (a HEAD whose body is destroyed unread) over more items than slots finishes', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'getInfo', fileKey: '={{ $json.key }}', options: { parallelRequests: 1 } },
			V3_ONE_SLOT,
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toEqual(keys);
		expect(result.items.every((item) => item.json.exists === true)).toBe(true);
	});

	/** Download of every item at Parallel Requests 1, with Continue On Fail. */
	const downloadEach = async () =>
		await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'download', fileKey: '={{ $json.key }}', options: { parallelRequests: 1 } },
			{ ...V3_ONE_SLOT, continueOnFail: true },
		);

	it('File → Copy (its check is a HEAD of the copy, its body destroyed unread) over more items than slots finishes', async () => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'copy',
				fileKey: '={{ $json.key }}',
				destinationKey: '={{ $json.key.replace("slots/", "slots-copied/") }}',
				options: { parallelRequests: 1 },
			},
			V3_ONE_SLOT,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(ITEMS);
		for (const key of keys) {
			const copy = await emulator().readObject(
				BUCKET.bucketName,
				BUCKET.region,
				key.replace('slots/', 'slots-copied/'),
			);
			expect(copy?.body.toString()).toBe(`bytes of ${key}`);
		}
	});

	it('File → Download whose CDN answers an error (its body read for the message, then destroyed) over more items than slots finishes', async () => {
		emulator().setFaults([{ operation: 'cdn', echoUrl: true }]);
		try {
			const result = await downloadEach();
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => String(item.json.error))).toEqual(
				keys.map((key) => expect.stringMatching(new RegExp(`^Download of '${key}' failed: Access denied`))),
			);
		} finally {
			emulator().setFaults([]);
		}
	});

	it("File → Download refused by n8n's binary store (Continue On Fail) over more items than slots finishes", async () => {
		// n8n's store creates the execution's folder first: a file where that folder goes makes it
		// refuse every download before reading a byte of the body.
		const workflows = join(binaryStoragePath, 'workflows', 'harness-workflow');
		mkdirSync(workflows, { recursive: true });
		rmSync(join(workflows, 'executions'), { recursive: true, force: true });
		writeFileSync(join(workflows, 'executions'), 'not a folder');
		try {
			const result = await downloadEach();
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(ITEMS);
			for (const [i, item] of result.items.entries()) {
				// n8n words the file-system error itself (ENOTDIR); the description says what happened.
				expect(item.json).toMatchObject({ error: expect.any(String), description: STORE_REFUSED });
				expect(item.pairedItem).toEqual({ item: i });
			}
		} finally {
			rmSync(join(workflows, 'executions'), { force: true });
		}
	});
});
