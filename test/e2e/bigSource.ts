/**
 * A web server that serves files of any size without holding or storing them: the bytes are
 * AES-128-CTR keystream (a fast, deterministic pseudo-random stream), made as they are sent,
 * their SHA-256 computed on the way. `GET /<name>?size=<bytes>` (the name is free; the query
 * stands in for a signed link's) answers with Content-Length, `&chunked=1` without it.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BigSource {
	url: string;
	/** SHA-256 of every body sent in full, by path. */
	sent: Map<string, string>;
	stop(): Promise<void>;
}

const CHUNK = 1024 * 1024;

export async function startBigSource(host = '127.0.0.1'): Promise<BigSource> {
	const sent = new Map<string, string>();
	const sockets = new Set<Socket>();
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://source.test');
		const size = Number(url.searchParams.get('size'));
		if (!Number.isSafeInteger(size) || size < 0) {
			res.writeHead(400).end('size?');
			return;
		}
		res.writeHead(200, {
			'Content-Type': 'application/octet-stream',
			...(url.searchParams.get('chunked') ? {} : { 'Content-Length': size }),
		});
		const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), Buffer.alloc(16, 0));
		const hash = createHash('sha256');
		const zeros = Buffer.alloc(CHUNK);
		let left = size;
		const pump = () => {
			while (left > 0) {
				const bytes = cipher.update(left >= CHUNK ? zeros : zeros.subarray(0, left));
				left -= bytes.length;
				hash.update(bytes);
				if (!res.write(bytes)) {
					res.once('drain', pump);
					return;
				}
			}
			sent.set(url.pathname, hash.digest('hex'));
			res.end();
		};
		pump();
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		sent,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
