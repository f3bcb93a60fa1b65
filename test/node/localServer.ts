import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Starts an HTTP server on a free loopback port before the test file's tests (a gateway or a CDN a
 * test puts in front of the emulator) and stops it after, closing the connections still open so
 * the file ends at once. Returns its URL, known once the tests run.
 */
export function useLocalHttpServer(handle: RequestListener): () => string {
	let server: Server | undefined;
	const sockets = new Set<Socket>();
	let url = '';
	beforeAll(async () => {
		server = createServer(handle);
		server.on('connection', (socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		});
		await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server?.close(() => resolve()));
	});
	return () => url;
}
