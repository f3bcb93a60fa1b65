/**
 * The trigger's Download File checks the size the listing gave: a CDN answer that states no
 * length (neither Content-Length nor chunked) cannot tell a cut-off body from a whole one.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { storedHttpDate } from '../node/support';
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const file = randomBytes(1024 * 1024);
const sockets = new Set<Socket>();
let cdn: ReturnType<typeof createServer>;
let sendBytes = 0;
/** The file's Last-Modified, passed on as a CDN does (an undated answer is never attached). */
let lastModified = '';

beforeAll(async () => {
	// Close-delimited: the end of the connection is the end of the body.
	cdn = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		socket.once('data', () => {
			socket.end(
				Buffer.concat([
					Buffer.from(
						`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nLast-Modified: ${lastModified}\r\nConnection: close\r\n\r\n`,
					),
					file.subarray(0, sendBytes),
				]),
			);
		});
	});
	await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => cdn.close(resolve));
});
afterEach(() => emulator().setFaults([]));

async function pollWithCdnSending(folder: string, bytes: number) {
	const trigger = new Poller(emulator, { folder, options: { downloadFile: true } } as never);
	await trigger.poll();
	await put(apiFor(emulator()), `${folder}/big.bin`, file, { contentType: 'application/octet-stream' });
	lastModified = await storedHttpDate(emulator(), `${folder}/big.bin`);
	sendBytes = bytes;
	const { port } = cdn.address() as AddressInfo;
	emulator().setFaults([
		{ operation: 'signedUrl', rewrite: { url: `http://127.0.0.1:${port}/f/x/${folder}/big.bin` } },
	]);
	return await trigger.poll();
}

describe('Download File checks the size the listing gave', () => {
	it('a close-delimited answer cut after 64 KiB of a 1 MiB file is not emitted; the poll logs it as cut short', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const result = await pollWithCdnSending('cut', 64 * 1024);
			expect(result.error).toBeUndefined();
			expect(result.returnedNull).toBe(true);
			expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
				expect.stringContaining(
					`Download of 'cut/big.bin' was cut short: received ${64 * 1024} of ${file.length} bytes (the size the listing gave)`,
				),
			]);
		} finally {
			warn.mockRestore();
		}
	});

	it('a close-delimited answer with every byte the listing announced is a complete file', async () => {
		const result = await pollWithCdnSending('whole', file.length);
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).equals(file)).toBe(true);
	});
});
