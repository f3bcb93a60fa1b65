/**
 * Review: a Source URL whose end cannot be told from a cut. README (Reliability): "A file is
 * stored byte-identical or not at all"; Download marks such answers `sizeConfirmed: false`
 * ("A download whose length cannot be confirmed says so"), Upload from a URL says nothing.
 */
import { createServer as createRawServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import { BUCKET, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

describe('Upload from a URL whose answer states no length', () => {
	let source: ReturnType<typeof createRawServer>;
	const sockets = new Set<Socket>();
	const file = randomFile(300_000);
	const packedHalf = gzipSync(file).subarray(0, 150_000);
	const head = (fields: Record<string, string | number>) =>
		`HTTP/1.1 200 OK\r\n${Object.entries(fields)
			.map(([name, value]) => `${name}: ${value}\r\n`)
			.join('')}Connection: close\r\n\r\n`;
	const answers: Record<string, Buffer> = {
		// Neither Content-Length nor chunked, cut after 64 KiB: the connection's end looks like the body's.
		'/close-cut/video.mp4': Buffer.concat([
			Buffer.from(head({ 'Content-Type': 'video/mp4' })),
			file.subarray(0, 65536),
		]),
		// Gzip although identity was asked for, chunked framing complete, the gzip stream cut in half.
		'/gzip-chunked-cut/video.mp4': Buffer.concat([
			Buffer.from(head({ 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' })),
			Buffer.from(`${packedHalf.length.toString(16)}\r\n`),
			packedHalf,
			Buffer.from('\r\n0\r\n\r\n'),
		]),
	};

	beforeAll(async () => {
		source = createRawServer((socket) => {
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
		await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => source.close(resolve));
	});

	it.each(['/close-cut/video.mp4', '/gzip-chunked-cut/video.mp4'])(
		'%s: a cut-off body is not stored as if it were the whole file without a word',
		async (path) => {
			const { port } = source.address() as AddressInfo;
			const key = `review2${path}`;
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: `http://127.0.0.1:${port}${path}`,
				key,
				options: { maxRetries: 0 },
			});
			const stored = await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);
			// Either nothing is stored, or the output says the size could not be confirmed (as Download does).
			const flagged = result.error !== undefined || result.items[0]?.json.sizeConfirmed === false;
			expect({ stored: stored === sha256(file) ? 'whole file' : stored ? 'part of it' : 'nothing', flagged }).toEqual(
				expect.objectContaining({ flagged: true }),
			);
		},
	);
});
