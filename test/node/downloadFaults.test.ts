import type { INodeParameters } from 'n8n-workflow';
import { createServer, type Server } from 'node:http';
import { createServer as createRawServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import type { FaultRule } from '../emulator/types';
import { MIB, fileItem, randomFile, runFileStorage, sha256, storedHttpDate, useEmulator } from './support';
import { usePartialContentServer } from './sourceServer';

const emulator = useEmulator();
const KEY = 'downloads/file.bin';
const bytes = randomFile(3 * MIB + 17);

const download = async (options: INodeParameters = {}, key = KEY) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: { __rl: true, mode: 'key', value: key },
		options,
	});

/** Stores `data` under `key`: a download the tests serve from a CDN of their own is checked against its listed size. */
async function storeAs(key: string, data: Buffer): Promise<void> {
	const stored = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key },
		{ items: [fileItem(data)] },
	);
	expect(stored.error).toBeUndefined();
}

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
	let lastModified = '';
	const text = Buffer.from('compressible '.repeat(10_000));

	beforeAll(async () => {
		// Ignores Accept-Encoding, as some CDNs do: the body is gzip whatever the client asked.
		cdn = createServer((_req, res) => {
			const packed = gzipSync(text);
			// Dated as the CDN passes on the file's Last-Modified: an undated answer is never given (docs/api-choices.md).
			const dated = lastModified ? { 'Last-Modified': lastModified } : {};
			res.writeHead(200, {
				'Content-Type': 'text/plain',
				'Content-Encoding': 'gzip',
				'Content-Length': packed.length,
				...dated,
			});
			res.end(packed);
		});
		await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => cdn.close(resolve)));

	it('is not reported as cut short: the unpacked file is kept', async () => {
		await storeAs('downloads/text.txt', text);
		lastModified = await storedHttpDate(emulator(), 'downloads/text.txt');
		const { port } = cdn.address() as AddressInfo;
		emulator().setFaults([
			{ operation: 'signedUrl', rewrite: { url: `http://127.0.0.1:${port}/f/emulator/downloads/text.txt` } },
		]);
		const result = await download({}, 'downloads/text.txt');
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).equals(text)).toBe(true);
	});
});

/**
 * A CDN written by hand on a plain socket, so the answer's framing is exactly what a test says:
 * each path is one raw answer (headers and body bytes), after which the connection is closed.
 */
describe('what the CDN says about the length', () => {
	let cdn: ReturnType<typeof createRawServer>;
	const sockets = new Set<Socket>();
	const random = randomFile(300_000);
	const packedRandom = gzipSync(random);
	const text = Buffer.from('compressible '.repeat(10_000));
	const packedText = gzipSync(text);
	const whole = randomFile(1 * MIB);
	const packedHalf = gzipSync(random).subarray(0, Math.floor(packedRandom.length / 2));
	const head = (fields: Record<string, string | number>) =>
		`HTTP/1.1 200 OK\r\n${Object.entries(fields)
			.map(([name, value]) => `${name}: ${value}\r\n`)
			.join('')}Connection: close\r\n\r\n`;
	const answers: Record<string, Buffer> = {
		// gzip although identity was asked for: the packed body is longer than the file.
		'/gzip-random': Buffer.concat([
			Buffer.from(head({ 'Content-Encoding': 'gzip', 'Content-Length': packedRandom.length })),
			packedRandom,
		]),
		'/gzip-text': Buffer.concat([
			Buffer.from(
				head({ 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip', 'Content-Length': packedText.length }),
			),
			packedText,
		]),
		// Content-Length of the whole file, 64 KiB of it, then the connection ends cleanly.
		'/short-plain': Buffer.concat([
			Buffer.from(head({ 'Content-Length': whole.length })),
			whole.subarray(0, 64 * 1024),
		]),
		// Neither Content-Length nor chunked: the end of the connection is the end of the body.
		'/close-delimited-cut': Buffer.concat([Buffer.from(head({})), whole.subarray(0, 64 * 1024)]),
		'/plain': Buffer.concat([Buffer.from(head({ 'Content-Length': whole.length })), whole]),
		// Gzip although identity was asked for, the chunked framing complete, the gzip stream inside cut in half.
		'/gzip-chunked-cut': Buffer.concat([
			Buffer.from(head({ 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' })),
			Buffer.from(`${packedHalf.length.toString(16)}\r\n`),
			packedHalf,
			Buffer.from('\r\n0\r\n\r\n'),
		]),
		// Chunked: the last (empty) chunk marks the end.
		'/chunked': Buffer.concat([
			Buffer.from(head({ 'Transfer-Encoding': 'chunked' })),
			...[whole.subarray(0, 300_000), whole.subarray(300_000)].map((chunk) =>
				Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
			),
			Buffer.from('0\r\n\r\n'),
		]),
	};

	beforeAll(async () => {
		cdn = createRawServer((socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => undefined);
			let request = '';
			socket.on('data', (data) => {
				request += data.toString('latin1');
				if (!request.includes('\r\n\r\n')) return;
				const path = request.split(' ')[1] ?? '';
				const answer = answers[path];
				if (!answer) return socket.end(Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
				// Dated as a CDN passes on the served file's Last-Modified (an undated answer is never given).
				const status = answer.indexOf('\r\n') + 2;
				const dated = Buffer.from(`Last-Modified: ${dates[servedKey()] ?? ''}\r\n`);
				socket.end(Buffer.concat([answer.subarray(0, status), dated, answer.subarray(status)]));
			});
		});
		await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => cdn.close(resolve));
	});

	// Each answer serves (part of) one of these files; the download names it, so the listing gives its size.
	const keyOf: Record<string, string> = {
		'/gzip-random': 'length/random.bin',
		'/gzip-chunked-cut': 'length/random.bin',
		'/gzip-text': 'length/text.txt',
	};
	let served = '';
	const dates: Record<string, string> = {};
	const servedKey = () => keyOf[served] ?? 'length/whole.bin';
	beforeAll(async () => {
		await storeAs('length/random.bin', random);
		await storeAs('length/text.txt', text);
		await storeAs('length/whole.bin', whole);
		for (const key of ['length/random.bin', 'length/text.txt', 'length/whole.bin'])
			dates[key] = await storedHttpDate(emulator(), key);
	});
	const servedFrom = (path: string, more: FaultRule[] = []) => {
		served = path;
		const { port } = cdn.address() as AddressInfo;
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `http://127.0.0.1:${port}${path}` } }, ...more]);
	};
	const download = async (options: INodeParameters = {}) =>
		await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'key', value: servedKey() },
			options,
		});
	const asVersion1 = async (options: INodeParameters = {}) =>
		await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'download', fileKey: { __rl: true, mode: 'key', value: servedKey() }, options },
			{ typeVersion: 1 },
		);
	it('an incompressible file gzipped by the CDN (packed longer than the file) is complete, and confirmed by its listed size: binary field', async () => {
		servedFrom('/gzip-random');
		const result = await download();
		expect(result.error).toBeUndefined();
		expect(await result.binarySha256(result.items[0])).toBe(sha256(random));
		// The CDN's length was that of the packed body; the listing gave the file's own size.
		expect(result.items[0].json).toEqual({});
	});

	it('a compressible file gzipped by the CDN (unpacked longer than announced) is stored byte-identical in the binary field', async () => {
		servedFrom('/gzip-text');
		const result = await asVersion1();
		expect(result.error).toBeUndefined();
		expect(await result.binarySha256(result.items[0])).toBe(sha256(text));
		expect(result.items[0].json).toMatchObject({ size: text.length, sizeConfirmed: true });
	});

	it('a plain answer that ends short of its Content-Length fails as cut short: binary field, nothing stored', async () => {
		servedFrom('/short-plain');
		const result = await download({ maxRetries: 0 });
		expect(result.error?.message).toMatch(
			new RegExp(
				`^Download of 'length/whole\\.bin' was cut short (after \\d+|: received \\d+) of ${whole.length} bytes`,
			),
		);
		expect(result.error?.description).toMatch(/^Nothing was stored\./);
		expect(result.items).toEqual([]);
	});

	it('a plain answer with its Content-Length is marked size-confirmed', async () => {
		servedFrom('/plain');
		const binary = await asVersion1();
		expect(binary.error).toBeUndefined();
		expect(binary.items[0].json).toMatchObject({ size: whole.length, sizeConfirmed: true });
		expect(await binary.binarySha256(binary.items[0])).toBe(sha256(whole));
	});

	it('a chunked answer is kept whole, confirmed by its listed size (n8n shows it exactly as a gzip stream it unpacked)', async () => {
		servedFrom('/chunked');
		emulator().resetStats();
		const result = await asVersion1();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ size: whole.length, sizeConfirmed: true });
		expect(await result.binarySha256(result.items[0])).toBe(sha256(whole));
		expect(emulator().stats().requests.list).toBe(1);
	});

	it('a chunked answer for a file the listing does not show is not given: without its record it cannot be tied to the file', async () => {
		servedFrom('/chunked', [
			{ operation: 'list', rewrite: { contents: { name: 'whole.bin', type: 'folder', path: '', children: [] } } },
		]);
		const result = await asVersion1();
		expect(result.error?.message).toMatch(
			/^Download of 'length\/whole\.bin' could not be checked against the service's record of the file, read after the download: .*does not show 'length\/whole\.bin'/,
		);
		expect(result.error?.description).toMatch(/^Nothing was stored\./);
		expect(result.items).toEqual([]);
	});

	it('a gzip body cut in half inside a complete chunked answer fails as cut short against the listed size', async () => {
		servedFrom('/gzip-chunked-cut');
		const cut = new RegExp(
			`^Download of 'length/random\\.bin' was cut short: received \\d+ of ${random.length} bytes \\(the size the listing gave\\)$`,
		);
		const binary = await asVersion1();
		expect(binary.error?.message).toMatch(cut);
		expect(binary.error?.description).toMatch(/^Nothing was stored\./);
		expect(binary.items).toEqual([]);
	});

	it('an answer with no stated length (close-delimited) cut after 64 KiB fails as cut short against the listed size, nothing stored', async () => {
		servedFrom('/close-delimited-cut');
		const cut = `Download of 'length/whole.bin' was cut short: received ${64 * 1024} of ${whole.length} bytes (the size the listing gave)`;
		const binary = await asVersion1();
		expect(binary.error?.message).toBe(cut);
		expect(binary.items).toEqual([]);
		const latest = await download();
		expect(latest.error?.message).toBe(cut);
		expect(latest.items).toEqual([]);
	});
});

describe('File → Download from a CDN whose answer is not the whole file', () => {
	// Answers every GET with the first 100 bytes of a 1000-byte file as a 206 Partial Content.
	const partial = usePartialContentServer();

	it('a download is never a part of the file: a 206 answer of 100 of 1000 bytes fails and stores nothing', async () => {
		await storeAs('partial/file.bin', Buffer.alloc(1000, 'x'));
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${partial()}partial/file.bin` } }]);
		const result = await download({}, 'partial/file.bin');
		expect(result.error?.message).toMatch(/Download of 'partial\/file\.bin'/);
		expect(result.items).toHaveLength(0);
	});
});
