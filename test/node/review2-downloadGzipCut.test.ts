/**
 * Review: a CDN that compresses although asked not to, and whose packed body ends early inside a
 * complete chunked answer. README (Download): "A download cut short is an error, never a
 * truncated file … A CDN answer … that n8n unpacked (a CDN that compresses although the node
 * asked it not to) cannot be checked: the output then says `sizeConfirmed: false`."
 * n8n's HTTP client (axios, finishFlush Z_SYNC_FLUSH) accepts a gzip stream that stops midway,
 * and drops Content-Encoding from the headers, so judgeLength sees "chunked" and confirms it.
 */
import { createServer as createRawServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import { fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const KEY = 'review2/gzip-cut.bin';

describe('Download: a gzip body that ends early', () => {
	let cdn: ReturnType<typeof createRawServer>;
	const sockets = new Set<Socket>();
	const file = randomFile(300_000);
	const packed = gzipSync(file);
	const half = packed.subarray(0, Math.floor(packed.length / 2));
	const head = (fields: Record<string, string | number>) =>
		`HTTP/1.1 200 OK\r\n${Object.entries(fields)
			.map(([name, value]) => `${name}: ${value}\r\n`)
			.join('')}Connection: close\r\n\r\n`;
	const answers: Record<string, Buffer> = {
		// Chunked framing complete (last chunk sent), the gzip stream inside it cut in half.
		'/gzip-chunked-cut': Buffer.concat([
			Buffer.from(head({ 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' })),
			Buffer.from(`${half.length.toString(16)}\r\n`),
			half,
			Buffer.from('\r\n0\r\n\r\n'),
		]),
	};

	beforeAll(async () => {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: KEY },
			{ items: [fileItem(file)] },
		);
		expect(stored.error).toBeUndefined();
		cdn = createRawServer((socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => undefined);
			let request = '';
			socket.on('data', (data) => {
				request += data.toString('latin1');
				if (!request.includes('\r\n\r\n')) return;
				const path = request.split(' ')[1] ?? '';
				socket.end(answers[path] ?? Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
			});
		});
		await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		emulator().setFaults([]);
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => cdn.close(resolve));
	});

	it.each(['/gzip-chunked-cut'])(
		'%s: a gzip body cut in half inside a complete chunked answer is not kept as size-confirmed',
		async (path) => {
			const { port } = cdn.address() as AddressInfo;
			emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `http://127.0.0.1:${port}${path}` } }]);
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation: 'download',
				fileKey: { __rl: true, mode: 'key', value: KEY },
				options: { maxRetries: 0 },
			});
			// Either an error, or the output says the size could not be confirmed.
			const flagged = result.error !== undefined || result.items[0]?.json.sizeConfirmed === false;
			const kept = result.items[0] ? await result.binarySha256(result.items[0]) : undefined;
			expect({ flagged, keptWholeFile: kept === sha256(file) }).toEqual({ flagged: true, keptWholeFile: false });
		},
	);
});
