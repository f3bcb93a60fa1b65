/**
 * A web server that plays the source of a URL upload: a file with or without Content-Length,
 * a redirect, an error status, a body cut off or stalled midway, a body longer than announced
 * (gzip although asked not to), a file behind an Authorization header. It records every request.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface SourceRequest {
	path: string;
	headers: IncomingHttpHeaders;
}

export interface SourceServer {
	url: string;
	requests: SourceRequest[];
	stop(): Promise<void>;
}

export const SOURCE_TOKEN = 'Bearer source-token-7f3a';

/**
 * Paths: `/<mode>/<name>` with mode `file` (Content-Length), `chunked` (none), `redirect` (302
 * to `/file/<name>`), `short` (Content-Length, then half the body and the connection closed),
 * `stall` (Content-Length, 64 KiB, then nothing), `gzip` (compressed whatever was asked),
 * `auth` (401 without `Authorization: SOURCE_TOKEN`); `/status/<code>` answers that status.
 */
export async function startSourceServer(files: Record<string, Buffer>): Promise<SourceServer> {
	const requests: SourceRequest[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://source.test');
		requests.push({ path: url.pathname, headers: req.headers });
		const [, mode, name] = url.pathname.split('/');
		if (mode === 'status') {
			res.writeHead(Number(name), { 'Content-Type': 'text/plain' }).end(`status ${name}`);
			return;
		}
		const bytes = files[decodeURIComponent(name ?? '')];
		if (!bytes) {
			res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such file');
			return;
		}
		const type = { 'Content-Type': 'video/mp4' };
		if (mode === 'file') {
			res.writeHead(200, { ...type, 'Content-Length': bytes.length }).end(bytes);
		} else if (mode === 'chunked') {
			res.writeHead(200, type);
			// Several writes, so the body really goes out in chunks of unknown total length.
			for (let offset = 0; offset < bytes.length; offset += 1024 * 1024) {
				res.write(bytes.subarray(offset, Math.min(bytes.length, offset + 1024 * 1024)));
			}
			res.end();
		} else if (mode === 'redirect') {
			res.writeHead(302, { Location: `/file/${name}${url.search}` }).end();
		} else if (mode === 'short') {
			res.writeHead(200, { ...type, 'Content-Length': bytes.length });
			res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => req.socket.destroy());
		} else if (mode === 'stall') {
			res.writeHead(200, { ...type, 'Content-Length': bytes.length });
			res.write(bytes.subarray(0, 64 * 1024));
		} else if (mode === 'gzip') {
			const packed = gzipSync(bytes);
			res.writeHead(200, { ...type, 'Content-Encoding': 'gzip', 'Content-Length': packed.length }).end(packed);
		} else if (mode === 'auth') {
			if (req.headers.authorization !== SOURCE_TOKEN) {
				res.writeHead(401, { 'Content-Type': 'text/plain' }).end('who are you');
				return;
			}
			res.writeHead(200, { ...type, 'Content-Length': bytes.length }).end(bytes);
		} else {
			res.writeHead(404).end();
		}
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
