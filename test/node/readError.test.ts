import { appendFileSync, truncateSync } from 'node:fs';

import { getBinaryDataService, storeBinary } from '../harness';
import { MIB, randomFile, runFileStorage, useEmulator } from './support';
import { useProxy, viaProxy } from './proxy';

const emulator = useEmulator();
const proxy = useProxy(emulator);

afterAll(() => emulator().setLatency(0));

describe('reading the input binary fails while parts are on their way', () => {
	it('cancels only after every part in flight has been answered', async () => {
		// The stored file grows after n8n recorded its size: reading fails past 11 MiB, while
		// parts 1 and 2 are still waiting for their answers.
		const stored = await storeBinary(randomFile(11 * MIB), { fileName: 'grows.bin' });
		appendFileSync((await getBinaryDataService()).getPath(stored.id!), Buffer.from('one byte too many'));
		emulator().setLatency(800);
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'read-error/grows.bin', partSize: 5, parallelUploads: 3 },
			{ credentials: viaProxy(emulator(), proxy()), items: [{ json: {}, binary: { data: { stored } } }] },
		);
		emulator().setLatency(0);
		expect(result.error?.message).toMatch(/The file in binary field 'data' is longer than its recorded 11534336 bytes/);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		const parts = proxy().exchanges.filter((exchange) => exchange.operation === 'uploadPart');
		const cancel = proxy().exchanges.find((exchange) => exchange.operation === 'cancel');
		expect(parts.length).toBeGreaterThanOrEqual(1);
		expect(cancel).toBeDefined();
		for (const part of parts) expect(part.answeredAt).toBeLessThanOrEqual(cancel!.startedAt);
		expect(emulator().listOpenUploads()).toEqual([]);
	});
});

describe('a stored binary shorter than its recorded size', () => {
	it('fails naming the field and the bytes, cancels the upload and stores nothing', async () => {
		// n8n recorded 11 MiB; the file now ends after 7 MiB (damaged or changed under it).
		const stored = await storeBinary(randomFile(11 * MIB), { fileName: 'shrinks.bin' });
		truncateSync((await getBinaryDataService()).getPath(stored.id!), 7 * MIB);
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'read-error/shrinks.bin', partSize: 5 },
			{ credentials: viaProxy(emulator(), proxy()), items: [{ json: {}, binary: { data: { stored } } }] },
		);
		expect(result.error?.message).toMatch(
			/The file in binary field 'data' is shorter than its recorded 11534336 bytes: it ended after 7340032 bytes/,
		);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		expect(proxy().exchanges.some((exchange) => exchange.operation === 'cancel')).toBe(true);
		expect(proxy().exchanges.some((exchange) => exchange.operation === 'complete')).toBe(false);
		expect(emulator().listOpenUploads()).toEqual([]);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'read-error/shrinks.bin')).toBeUndefined();
	});
});
