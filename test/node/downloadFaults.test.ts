import type { INodeParameters } from 'n8n-workflow';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const KEY = 'downloads/file.bin';
const bytes = randomFile(3 * MIB + 17);

const download = async (options: INodeParameters = {}) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: { __rl: true, mode: 'key', value: KEY },
		options,
	});

beforeAll(async () => {
	const stored = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: KEY },
		{ items: [fileItem(bytes)] },
	);
	expect(stored.error).toBeUndefined();
});
afterEach(() => emulator().setFaults([]));

describe('Download when the CDN misbehaves', () => {
	it('a body cut off mid-way fails naming the key, the bytes received and expected, and that nothing was stored', async () => {
		emulator().setFaults([{ operation: 'cdn', truncate: 64 * 1024 }]);
		const result = await download({ maxRetries: 0 });
		// The count is what reached n8n's binary store before the connection ended: at most the 64 KiB sent.
		const cut = new RegExp(`Download of 'downloads/file\\.bin' was cut short after (\\d+) of ${bytes.length} bytes`);
		expect(result.error?.message).toMatch(cut);
		expect(Number(cut.exec(result.error!.message)![1])).toBeLessThanOrEqual(64 * 1024);
		expect(result.error?.description).toMatch(/^Nothing was stored\./);
		expect(result.items).toEqual([]);
	});

	it('a body that stalls after 64 KiB ends at the Timeout option instead of hanging', async () => {
		emulator().setFaults([{ operation: 'cdn', stall: 64 * 1024 }]);
		const started = Date.now();
		const result = await download({ timeout: 2, maxRetries: 0 });
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(result.error?.message).toMatch(
			new RegExp(`Download of 'downloads/file\\.bin' stalled: no data for 2 s after 65536 of ${bytes.length} bytes`),
		);
		expect(result.error?.description).toMatch(/Nothing was stored\. .*raise the Timeout option/);
	});

	it('asks for the file uncompressed, so a gzip-capable CDN sends it as is and the length check holds', async () => {
		emulator().setFaults([{ operation: 'cdn', gzip: true }]);
		const result = await download();
		expect(result.error).toBeUndefined();
		expect(emulator().stats().lastCdnAcceptEncoding).toBe('identity');
		expect(await result.binarySha256(result.items[0])).toBe(sha256(bytes));
		expect((await result.readBinary(result.items[0])).length).toBe(bytes.length);
	});

	it('follows a redirect of the CDN to where the file is', async () => {
		emulator().setFaults([{ operation: 'cdn', redirect: true }]);
		const result = await download();
		expect(result.error).toBeUndefined();
		expect(await result.binarySha256(result.items[0])).toBe(sha256(bytes));
	});
});

describe('a CDN that compresses although asked not to', () => {
	let cdn: Server;
	const text = Buffer.from('compressible '.repeat(10_000));

	beforeAll(async () => {
		// Ignores Accept-Encoding, as some CDNs do: the body is gzip whatever the client asked.
		cdn = createServer((_req, res) => {
			const packed = gzipSync(text);
			res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip', 'Content-Length': packed.length });
			res.end(packed);
		});
		await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => cdn.close(resolve)));

	it('is not reported as cut short: the unpacked file is kept', async () => {
		const { port } = cdn.address() as AddressInfo;
		emulator().setFaults([
			{ operation: 'signedUrl', rewrite: { url: `http://127.0.0.1:${port}/f/emulator/downloads/file.bin` } },
		]);
		const result = await download();
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).equals(text)).toBe(true);
	});
});
