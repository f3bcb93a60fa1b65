/**
 * A forwarding proxy between the node and the emulator, for what the emulator cannot do on its
 * own: a slow link for request bodies, answers held back after the emulator has carried a
 * request out, and a timeline of every exchange. It forwards the request target and headers
 * unchanged, so signatures stay valid.
 */
import { request, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Emulator } from '../emulator';
import { credentialsFor } from './support';

export interface Exchange {
	operation: string;
	method: string;
	target: string;
	startedAt: number;
	/** When the emulator's answer reached the proxy (before any hold-back). */
	answeredAt?: number;
	status?: number;
}

export interface ProxyRules {
	/** Request bodies reach the emulator at this many bytes per second at most. */
	uploadBytesPerSecond?: number;
	/** Milliseconds to hold back the answer to requests of this operation. */
	holdAnswer?: Partial<Record<string, number>>;
	/**
	 * Answers the proxy gives itself, instead of forwarding, to the next requests of an
	 * operation, one per request in order (with the spec's error body for the status).
	 */
	answerInstead?: Partial<Record<string, CannedAnswer[]>>;
}

export interface CannedAnswer {
	status: number;
	headers?: Record<string, string>;
	/** Instead of the spec's error body for the status: this text as an HTML page (a web server's answer). */
	html?: string;
}

const ERROR_BODIES: Record<number, object> = {
	404: { error: 'Resource not found', message: 'Bucket or file not found' },
	429: { error: 'Too many requests' },
	500: { error: 'Internal server error' },
	503: { error: 'Service unavailable' },
};

export interface TestProxy {
	url: string;
	exchanges: Exchange[];
	/** The most requests the proxy had under way at once since the last reset (a count, not a time). */
	maxInFlight(): number;
	resetInFlight(): void;
	setRules(rules: ProxyRules): void;
	stop(): Promise<void>;
}

/** The emulator's operation names, from the request path. */
export function operationOf(method: string, target: string): string {
	const path = target.split('?')[0];
	const step = /^\/api\/v1\/files\/multipart\/[^/]+\/(upload|complete|cancel)$/.exec(path)?.[1];
	if (step) return step === 'upload' ? 'uploadPart' : step;
	const named: Record<string, string> = {
		'/api/v1/files/list': 'list',
		'/api/v1/files/upload': 'upload',
		'/api/v1/files/multipart/start': 'start',
		'/api/v1/files/delete': 'delete',
		'/api/v1/files/signed-url': 'signedUrl',
	};
	return named[path] ?? (path.startsWith('/f/') ? 'cdn' : `${method} ${path}`);
}

async function forwardBody(from: IncomingMessage, to: ReturnType<typeof request>, bytesPerSecond?: number) {
	const started = Date.now();
	let sent = 0;
	for await (const chunk of from as AsyncIterable<Buffer>) {
		// Small slices, so a slow link trickles instead of sending a burst then pausing.
		const slice = bytesPerSecond ? Math.max(1024, Math.floor(bytesPerSecond / 20)) : chunk.length;
		for (let offset = 0; offset < chunk.length; offset += slice) {
			const piece = chunk.subarray(offset, offset + slice);
			if (!to.write(piece)) await new Promise((resolve) => to.once('drain', resolve));
			sent += piece.length;
			if (bytesPerSecond) {
				const due = started + (sent / bytesPerSecond) * 1000;
				if (due > Date.now()) await sleep(due - Date.now());
			}
		}
	}
	to.end();
}

export async function startProxy(targetUrl: string): Promise<TestProxy> {
	const target = new URL(targetUrl);
	let rules: ProxyRules = {};
	const exchanges: Exchange[] = [];
	const sockets = new Set<Socket>();
	let inFlight = 0;
	let maxInFlight = 0;

	const handle = (req: IncomingMessage, res: ServerResponse) => {
		inFlight += 1;
		maxInFlight = Math.max(maxInFlight, inFlight);
		res.once('close', () => (inFlight -= 1));
		const exchange: Exchange = {
			operation: operationOf(req.method ?? 'GET', req.url ?? '/'),
			method: req.method ?? 'GET',
			target: req.url ?? '/',
			startedAt: Date.now(),
		};
		exchanges.push(exchange);
		const canned = rules.answerInstead?.[exchange.operation]?.shift();
		if (canned) {
			exchange.answeredAt = Date.now();
			exchange.status = canned.status;
			const body = canned.html ?? JSON.stringify(ERROR_BODIES[canned.status] ?? { error: `HTTP ${canned.status}` });
			const type = canned.html === undefined ? 'application/json' : 'text/html';
			req.resume();
			req.on('end', () => res.writeHead(canned.status, { 'Content-Type': type, ...canned.headers }).end(body));
			return;
		}
		const upstream = request(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				exchange.answeredAt = Date.now();
				exchange.status = answer.statusCode;
				const hold = rules.holdAnswer?.[exchange.operation] ?? 0;
				void sleep(hold).then(() => {
					if (res.destroyed) return answer.resume();
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				});
			},
		);
		upstream.on('error', () => res.destroy());
		// The node gave up (a timeout, a stopped run): the emulator sees the connection go too.
		res.on('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		forwardBody(req, upstream, rules.uploadBytesPerSecond).catch(() => upstream.destroy());
	};

	const server: Server = createServer(handle);
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		exchanges,
		maxInFlight: () => maxInFlight,
		resetInFlight: () => {
			maxInFlight = inFlight;
		},
		setRules(next) {
			rules = next;
		},
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** Polls until `check` holds or `withinMs` passes; returns whether it held. */
export async function eventually(check: () => boolean, withinMs: number): Promise<boolean> {
	const deadline = Date.now() + withinMs;
	while (!check()) {
		if (Date.now() > deadline) return false;
		await sleep(50);
	}
	return true;
}

/** A proxy in front of the test file's emulator, with no rules and an empty timeline for each test. */
export function useProxy(emulator: () => Emulator): () => TestProxy {
	let proxy: TestProxy | undefined;
	beforeAll(async () => {
		proxy = await startProxy(emulator().url);
	});
	afterAll(async () => await proxy?.stop());
	beforeEach(() => {
		proxy?.setRules({});
		proxy?.exchanges.splice(0);
		proxy?.resetInFlight();
	});
	return () => {
		if (!proxy) throw new Error('proxy not started');
		return proxy;
	};
}

/** Credentials that send the node to the emulator through the proxy. */
export function viaProxy(emulator: Emulator, proxy: TestProxy) {
	return credentialsFor(emulator, { baseUrl: proxy.url });
}
