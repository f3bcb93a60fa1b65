/**
 * A web server that plays the source of a URL upload: a file with or without Content-Length,
 * redirects (same origin, to any URL, in a loop), an error status (with Retry-After), a body cut
 * off or stalled midway, a body longer than announced (gzip although asked not to), a file behind
 * an Authorization header, an announced length larger than the node accepts. It records every
 * request: its path, headers, when it arrived and whether the client closed it before its end.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';

export interface SourceRequest {
	path: string;
	headers: IncomingHttpHeaders;
	/** performance.now() when it arrived. */
	at: number;
	/** Set once the client closed the connection before the response was complete. */
	abandoned: Promise<void>;
	wasAbandoned: boolean;
}

export interface SourceServer {
	url: string;
	requests: SourceRequest[];
	stop(): Promise<void>;
}

export const SOURCE_TOKEN = 'Bearer source-token-7f3a';

/** A path of this server that redirects (302) to `target`, any URL. */
export function redirectTo(server: SourceServer, target: string): string {
	return `${server.url}/to/${encodeURIComponent(target)}`;
}

/**
 * Paths: `/<mode>/<name>` with mode `file` (Content-Length), `chunked` (none), `redirect` (302
 * to `/file/<name>`), `to` (302 to the URL `<name>` encodes, see redirectTo), `loop` (302 to
 * itself), `short` (Content-Length, then half the body and the connection reset), `cut` (the
 * same, the connection closed cleanly), `stall` (Content-Length, 64 KiB, then nothing), `gzip`
 * (compressed whatever was asked), `auth` (401 without `Authorization: SOURCE_TOKEN`);
 * `/status/<code>` answers that status; `/busy/<code>/<retry-after>/<name>` answers that status
 * with that Retry-After to the first request of the path, then the file; `/reset/<name>` resets the
 * connection of the first request of the path before answering, then serves the file; `/huge/<bytes>/<name>`
 * announces that Content-Length, sends 64 KiB and waits. `host`: another loopback address (e.g.
 * 127.0.0.2) plays a host n8n's SSRF protection blocks while it allows 127.0.0.1.
 */
export async function startSourceServer(files: Record<string, Buffer>, host = '127.0.0.1'): Promise<SourceServer> {
	const requests: SourceRequest[] = [];
	const sockets = new Set<Socket>();
	const busyAnswered = new Set<string>();
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://source.test');
		let abandon: () => void = () => {};
		const record: SourceRequest = {
			path: url.pathname,
			headers: req.headers,
			at: performance.now(),
			abandoned: new Promise<void>((resolve) => (abandon = resolve)),
			wasAbandoned: false,
		};
		res.on('close', () => {
			if (res.writableFinished) return;
			record.wasAbandoned = true;
			abandon();
		});
		requests.push(record);
		const [, mode, ...rest] = url.pathname.split('/');
		const name = rest[rest.length - 1];
		if (mode === 'status') {
			res.writeHead(Number(name), { 'Content-Type': 'text/plain' }).end(`status ${name}`);
			return;
		}
		if (mode === 'to') {
			res.writeHead(302, { Location: decodeURIComponent(name ?? '') }).end();
			return;
		}
		if (mode === 'loop') {
			res.writeHead(302, { Location: url.pathname }).end();
			return;
		}
		if (mode === 'reset' && !busyAnswered.has(url.pathname)) {
			busyAnswered.add(url.pathname);
			// Reset (RST), not closed: the client sees ECONNRESET before any answer.
			req.socket.resetAndDestroy();
			return;
		}
		if (mode === 'busy' && !busyAnswered.has(url.pathname)) {
			busyAnswered.add(url.pathname);
			res.writeHead(Number(rest[0]), { 'Retry-After': rest[1], 'Content-Type': 'text/plain' }).end('busy');
			return;
		}
		const bytes = files[decodeURIComponent(name ?? '')];
		if (!bytes) {
			res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such file');
			return;
		}
		const type = { 'Content-Type': 'video/mp4' };
		if (mode === 'file' || mode === 'busy' || mode === 'reset') {
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
		} else if (mode === 'short' || mode === 'cut') {
			res.writeHead(200, { ...type, 'Content-Length': bytes.length });
			res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () =>
				mode === 'short' ? req.socket.destroy() : req.socket.end(),
			);
		} else if (mode === 'stall') {
			res.writeHead(200, { ...type, 'Content-Length': bytes.length });
			res.write(bytes.subarray(0, 64 * 1024));
		} else if (mode === 'huge') {
			res.writeHead(200, { ...type, 'Content-Length': rest[0] });
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
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		requests,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/**
 * A server that answers every GET with the first 100 bytes of a 1000-byte file as a 206 Partial
 * Content (a CDN or source that sends a part of the file); gives the base URL of its `/f/emulator/`.
 */
export function usePartialContentServer(): () => string {
	let server: ReturnType<typeof createServer>;
	let base = '';
	beforeAll(async () => {
		const whole = Buffer.alloc(1000, 'x');
		server = createServer((_req, res) => {
			res.writeHead(206, {
				'Content-Type': 'application/octet-stream',
				'Content-Length': '100',
				'Content-Range': `bytes 0-99/${whole.length}`,
			});
			res.end(whole.subarray(0, 100));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	return () => base;
}
