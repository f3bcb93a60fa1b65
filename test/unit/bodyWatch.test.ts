import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { watchBody } from '../../nodes/FileStorage/transport/bodyWatch';

/**
 * The watch over a real response body from a local server: n8n's own request timeout hides it
 * in a node test (n8n 2.x also ends a silent body), so it is checked here on its own.
 */
let server: Server;
let stallAfter: Buffer;
let steadyChunks: number;
const sockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
	server = createServer((req, res) => {
		if (req.url === '/stall') {
			// Headers and some bytes, then silence with the connection open.
			res.writeHead(200, { 'Content-Length': String(stallAfter.length * 4) });
			res.write(stallAfter);
			return;
		}
		// A slow but steady body: a chunk every 20 ms, well within the idle time.
		res.writeHead(200, { 'Content-Length': String(steadyChunks * 100) });
		let sent = 0;
		const next = () => {
			if (sent === steadyChunks) return void res.end();
			sent += 1;
			res.write(Buffer.alloc(100, sent));
			setTimeout(next, 20);
		};
		next();
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	stallAfter = Buffer.alloc(10_000, 7);
	steadyChunks = 30;
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => server.close(resolve));
});

const fetchBody = async (path: string) =>
	await new Promise<IncomingMessage>((resolve, reject) => {
		const { port } = server.address() as AddressInfo;
		get({ host: '127.0.0.1', port, path }, resolve).on('error', reject);
	});

/** Reads the body to its end; the error it ended with, if any, and the bytes read. */
async function drain(body: IncomingMessage): Promise<{ error?: Error; read: number }> {
	let read = 0;
	try {
		for await (const chunk of body) read += (chunk as Buffer).length;
		return { read };
	} catch (error) {
		return { error: error as Error, read };
	}
}

describe('watchBody, the idle watchdog of a download body', () => {
	it('ends a body that sends nothing for the idle time with an error, having counted the bytes that came', async () => {
		const body = await fetchBody('/stall');
		const progress = watchBody(body, 300);
		const { error, read } = await drain(body);
		progress.stop();
		expect(error?.message).toBe('no data for 0 s');
		expect(progress.stalled).toBe(true);
		expect(progress.silentForIdleTime).toBe(true);
		expect(read).toBe(stallAfter.length);
		// Bytes the HTTP parser had buffered before the watch began are not in its count.
		expect(progress.received).toBeLessThanOrEqual(stallAfter.length);
	}, 10_000);

	it('leaves a slow body alone while its bytes keep coming, and counts them', async () => {
		const body = await fetchBody('/steady');
		const progress = watchBody(body, 1000);
		const { error, read } = await drain(body);
		progress.stop();
		expect(error).toBeUndefined();
		expect(progress.stalled).toBe(false);
		expect(read).toBe(steadyChunks * 100);
		expect(progress.received).toBeGreaterThan(0);
		expect(progress.received).toBeLessThanOrEqual(steadyChunks * 100);
	});
});
