/**
 * A Source URL whose answer states no length: neither Content-Length nor… anything the node can
 * trust. n8n's HTTP client unpacks a body compressed although identity was asked for, accepts a
 * compressed stream that stops midway, and removes Content-Encoding from the headers it hands
 * back: a chunked answer looks the same whether it carried the file or a gzip stream cut in half.
 * A close-delimited answer (no Content-Length, not chunked) ends when the connection does, cut or
 * not. Such a source is refused unless Allow Source Without Content-Length is on; then it is
 * stored and the output says `sizeConfirmed: false`.
 */
import { createServer as createRawServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import { BUCKET, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const file = randomFile(300_000);
const previous = randomFile(1000);
const packedHalf = gzipSync(file).subarray(0, 150_000);
const head = (fields: Record<string, string | number>) =>
	`HTTP/1.1 200 OK\r\n${Object.entries(fields)
		.map(([name, value]) => `${name}: ${value}\r\n`)
		.join('')}Connection: close\r\n\r\n`;
/** One raw answer per path, after which the connection is closed: the framing is exactly what it says. */
const answers: Record<string, Buffer> = {
	// Neither Content-Length nor chunked, cut after 64 KiB: the connection's end looks like the body's.
	'/close-cut/video.mp4': Buffer.concat([Buffer.from(head({ 'Content-Type': 'video/mp4' })), file.subarray(0, 65536)]),
	// Gzip although identity was asked for, the chunked framing complete, the gzip stream cut in half.
	'/gzip-chunked-cut/video.mp4': Buffer.concat([
		Buffer.from(head({ 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' })),
		Buffer.from(`${packedHalf.length.toString(16)}\r\n`),
		packedHalf,
		Buffer.from('\r\n0\r\n\r\n'),
	]),
};
const ENDLESS = '/chunked-endless/video.mp4';
const CASES = Object.keys(answers).flatMap((path) => [
	[path, 'upload'],
	[path, 'multipartUpload'],
]);

let source: ReturnType<typeof createRawServer>;
const sockets = new Set<Socket>();
let served = 0;
/** Resolves when the client closed the connection of the endless answer. */
let endlessClosed: Promise<void> = Promise.resolve();

beforeAll(async () => {
	source = createRawServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		let request = '';
		socket.on('data', (data) => {
			request += data.toString('latin1');
			if (!request.includes('\r\n\r\n')) return;
			served += 1;
			const path = request.split(' ')[1] ?? '';
			if (path === ENDLESS) {
				// Chunked, 64 KiB, then nothing more: only the client can end it.
				endlessClosed = new Promise((resolve) => socket.on('close', () => resolve()));
				socket.write(head({ 'Transfer-Encoding': 'chunked' }));
				socket.write(Buffer.concat([Buffer.from('10000\r\n'), file.subarray(0, 65536), Buffer.from('\r\n')]));
				return;
			}
			socket.end(answers[path] ?? Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
		});
	});
	await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => source.close(resolve));
});
beforeEach(() => {
	emulator().resetStats();
	served = 0;
});

const urlOf = (path: string) => `http://127.0.0.1:${(source.address() as AddressInfo).port}${path}`;
const stored = async (key: string) => await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);
const fromUrl = async (path: string, key: string, operation: string, allow?: boolean) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation,
		source: 'url',
		sourceUrl: urlOf(path),
		key,
		...(allow === undefined ? {} : { allowSourceWithoutLength: allow }),
		options: { maxRetries: 0 },
	});

describe('Upload from a URL whose answer states no length', () => {
	it.each(CASES)(
		'%s, %s: with Allow Source Without Content-Length off, refused before anything is started on the service; the file already under the key is kept',
		async (path, operation) => {
			const key = `no-length/${operation}${path}`;
			const before = await runFileStorage(
				emulator(),
				{ resource: 'file', operation: 'upload', key },
				{ items: [fileItem(previous)] },
			);
			expect(before.error).toBeUndefined();
			emulator().resetStats();

			const result = await fromUrl(path, key, operation, false);
			expect(result.error?.message).toBe(
				`The source URL '${urlOf(path)}' did not state its length (no Content-Length), so a cut-off body could not be told from the whole file`,
			);
			expect(result.error?.description).toMatch(/Nothing was uploaded\./);
			expect(result.error?.description).toMatch(/Allow Source Without Content-Length/);
			expect(served).toBe(1);
			const requests = emulator().stats().requests;
			expect(requests.start + requests.upload + requests.uploadPart).toBe(0);
			expect(emulator().listOpenUploads()).toEqual([]);
			expect(await stored(key)).toBe(sha256(previous));
		},
	);

	it('a refused source has its connection closed, not left open until it ends', async () => {
		const result = await fromUrl(ENDLESS, 'no-length/endless.mp4', 'upload', false);
		expect(result.error?.message).toMatch(/did not state its length \(no Content-Length\)/);
		let timer: NodeJS.Timeout | undefined;
		const closed = await Promise.race([
			endlessClosed.then(() => true),
			new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 5000))),
		]);
		clearTimeout(timer);
		expect(closed).toBe(true);
	});

	it.each([1, 2])(
		'a version %s node that never set the switch uploads such a source as before, and the output says sizeConfirmed: false',
		async (typeVersion) => {
			const key = `no-length-v${typeVersion}/close-cut.mp4`;
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation: 'upload',
					source: 'url',
					sourceUrl: urlOf(CASES[0][0]),
					key,
					options: { maxRetries: 0 },
				},
				{ typeVersion },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ key, source: 'url', sizeConfirmed: false });
			expect(await stored(key)).toBeDefined();
		},
	);

	it('a version 3 node that never set the switch refuses such a source: stored whole or not at all', async () => {
		const key = 'no-length-v3/close-cut.mp4';
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: urlOf(CASES[0][0]),
				key,
				options: { maxRetries: 0 },
			},
			{ typeVersion: 3 },
		);
		expect(result.error?.message).toMatch(/did not state its length \(no Content-Length\)/);
		expect(await stored(key)).toBeUndefined();
	});

	it.each(CASES)(
		'%s, %s: with Allow Source Without Content-Length on, stored and the output says sizeConfirmed: false',
		async (path, operation) => {
			const key = `no-length-allowed/${operation}${path}`;
			const result = await fromUrl(path, key, operation, true);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ key, source: 'url', url: urlOf(path), sizeConfirmed: false });
			// What arrived was stored as it arrived: less than the file, which is what the flag warns of.
			expect(await stored(key)).not.toBe(sha256(file));
			expect(emulator().listOpenUploads()).toEqual([]);
		},
	);
});
