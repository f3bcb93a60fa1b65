import { readFileSync, writeFileSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';

import { getBinaryDataService, storeBinary } from '../harness';
import { MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';
import { useProxy, viaProxy } from './proxy';

const emulator = useEmulator();
const proxy = useProxy(emulator);

beforeEach(() => emulator().resetStats());

const count = (operation: string) => proxy().exchanges.filter((exchange) => exchange.operation === operation).length;

describe('retry edges', () => {
	it('a Retry-After longer than the node waits fails at once, saying how long the service asked for', async () => {
		proxy().setRules({ answerInstead: { list: [{ status: 429, headers: { 'Retry-After': '120' } }] } });
		const result = await runFileStorage(
			emulator(),
			{ resource: 'bucket', operation: 'listContents' },
			{ credentials: viaProxy(emulator(), proxy()) },
		);
		expect(result.error?.message).toMatch(
			/List Contents of 'my-bucket' \(page 1\) failed: Too many requests \(HTTP 429\)/,
		);
		expect(result.error?.description).toMatch(/asked to wait 120 s before trying again, longer than the 60 s/);
		expect(count('list')).toBe(1);
	});

	it('a part whose retry finds the upload gone (404) is not mistaken for a lost Complete: the upload is cancelled', async () => {
		proxy().setRules({ answerInstead: { uploadPart: [{ status: 500 }, { status: 404 }] } });
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'multipartUpload',
				key: 'retry/part-404.bin',
				partSize: 5,
				parallelUploads: 1,
				options: { maxRetries: 1 },
			},
			// Version 2: Parallel Uploads 1 keeps part 2 behind part 1 (version 3 sends both at once).
			{ credentials: viaProxy(emulator(), proxy()), items: [fileItem(randomFile(6 * MIB))], typeVersion: 2 },
		);
		expect(result.error?.message).toMatch(/Upload of part 1 of 2 .* failed after 2 attempts: .*\(HTTP 404\)/);
		expect(result.error?.description).not.toMatch(/may have completed/);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		expect(count('cancel')).toBe(1);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a Complete first answered 503 (not processed) whose retry gets 404 is not called possibly completed: the upload is cancelled', async () => {
		proxy().setRules({ answerInstead: { complete: [{ status: 503 }, { status: 404 }] } });
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'multipartUpload',
				key: 'retry/complete-503-404.bin',
				partSize: 5,
				parallelUploads: 1,
				options: { maxRetries: 1 },
			},
			{ credentials: viaProxy(emulator(), proxy()), items: [fileItem(randomFile(6 * MIB))] },
		);
		expect(result.error?.message).toMatch(
			/Completion of the multipart upload .* failed after 2 attempts: .*\(HTTP 404\)/,
		);
		expect(result.error?.description).not.toMatch(/may have completed/);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		expect(count('cancel')).toBe(1);
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('a Part Size this Node.js cannot hold in one buffer fails before Start, naming the limit', async () => {
		// Jest runs on Node.js 20 (n8n 1.x's runtime), whose buffers end at 4 GiB.
		expect(bufferConstants.MAX_LENGTH).toBeLessThan(4096 * MIB + 1024);
		// A 5 GiB file as n8n records it, without writing 5 GiB: its metadata says so.
		const stored = await storeBinary(randomFile(1024), { fileName: 'big.bin' });
		const metadataFile = `${(await getBinaryDataService()).getPath(stored.id!)}.metadata`;
		const metadata = JSON.parse(readFileSync(metadataFile, 'utf8')) as { fileSize: number };
		writeFileSync(metadataFile, JSON.stringify({ ...metadata, fileSize: 5 * 1024 * MIB }));
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'retry/huge-parts.bin', partSize: 4096 },
			{ items: [{ json: {}, binary: { data: { stored } } }] },
		);
		expect(result.error?.message).toMatch(
			/Part Size 4096 MiB is larger than one buffer of the Node\.js running n8n can hold/,
		);
		expect(result.error?.description).toMatch(/at most 4095 MiB/);
		expect(emulator().stats().requests.start).toBe(0);
	});
});
