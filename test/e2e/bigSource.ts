/**
 * A web server that serves files of any size without holding or storing them: the bytes are
 * AES-128-CTR keystream (a fast, deterministic pseudo-random stream), made as they are sent,
 * their SHA-256 computed on the way. `GET /<name>?size=<bytes>` (the name is free; the query
 * stands in for a signed link's) answers with Content-Length, `&chunked=1` without it, `&gzip=1`
 * gzip-compressed without it (as a server that ignores `Accept-Encoding: identity`). With `tls`
 * it is an https server (test/e2e/tls: a throw-away certificate for 127.0.0.1, for tests only).
 */
import { createCipheriv, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { createGzip } from 'node:zlib';

/** The certificate the https source presents: trust it with NODE_EXTRA_CA_CERTS. */
export const SOURCE_CERT_FILE = path.join(__dirname, 'tls', 'source-cert.pem');
const SOURCE_KEY_FILE = path.join(__dirname, 'tls', 'source-key.pem');

export interface BigSource {
	url: string;
	/** SHA-256 of every body sent in full, by path. */
	sent: Map<string, string>;
	stop(): Promise<void>;
}

const CHUNK = 1024 * 1024;

export async function startBigSource(host = '127.0.0.1', options: { tls?: boolean } = {}): Promise<BigSource> {
	const sent = new Map<string, string>();
	const sockets = new Set<Socket>();
	const serve: RequestListener = (req, res) => {
		const url = new URL(req.url ?? '/', 'http://source.test');
		const size = Number(url.searchParams.get('size'));
		if (!Number.isSafeInteger(size) || size < 0) {
			res.writeHead(400).end('size?');
			return;
		}
		const gzip = url.searchParams.get('gzip') !== null;
		res.writeHead(200, {
			'Content-Type': 'application/octet-stream',
			...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
			...(url.searchParams.get('chunked') || gzip ? {} : { 'Content-Length': size }),
		});
		const body = gzip ? createGzip({ level: 1 }) : res;
		if (gzip) body.pipe(res);
		const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), Buffer.alloc(16, 0));
		const hash = createHash('sha256');
		const zeros = Buffer.alloc(CHUNK);
		let left = size;
		const pump = () => {
			while (left > 0) {
				const bytes = cipher.update(left >= CHUNK ? zeros : zeros.subarray(0, left));
				left -= bytes.length;
				hash.update(bytes);
				if (!body.write(bytes)) {
					body.once('drain', pump);
					return;
				}
			}
			sent.set(url.pathname, hash.digest('hex'));
			body.end();
		};
		pump();
	};
	const server = options.tls
		? createTlsServer({ cert: readFileSync(SOURCE_CERT_FILE), key: readFileSync(SOURCE_KEY_FILE) }, serve)
		: createServer(serve);
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
		sent,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
