import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** Errors a handler throws to answer with a given status and body. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		readonly headers: Record<string, string> = {},
	) {
		super(`HTTP ${status}`);
	}
}

export interface Detail {
	field: string;
	message: string;
}

export function validationFailed(details: Detail[]): HttpError {
	return new HttpError(400, { error: 'Validation failed', details });
}

export function notFound(message = 'Bucket or file not found'): HttpError {
	return new HttpError(404, { error: 'Resource not found', message });
}

/**
 * [ours] 413 for a body over the limit. `Connection: close` because the rest of the body is
 * never read: the client's send stalls and the socket closes rather than the disk filling up.
 */
export function payloadTooLarge(limit: number): HttpError {
	return new HttpError(
		413,
		{ error: 'Payload too large', message: `Request body exceeds the limit of ${limit} bytes` },
		{ Connection: 'close' },
	);
}

export function internalError(): HttpError {
	return new HttpError(500, { error: 'Internal server error' });
}

export interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

export function ok(data: unknown): Reply {
	return { status: 200, body: { data } };
}

export async function sendJson(res: ServerResponse, reply: Reply, latencyMs: number): Promise<void> {
	if (latencyMs > 0) await sleep(latencyMs);
	if (res.headersSent || res.destroyed) return;
	const payload = Buffer.from(JSON.stringify(reply.body));
	res.writeHead(reply.status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(payload.length),
		...reply.headers,
	});
	res.end(payload);
}

/** Lets a client that sent `Expect: 100-continue` start its body, once we want it. */
export function continueBody(req: IncomingMessage, res: ServerResponse): void {
	const expect = req.headers.expect;
	const marked = res as ServerResponse & { emulatorContinued?: boolean };
	if (typeof expect === 'string' && expect.toLowerCase() === '100-continue' && !marked.emulatorContinued) {
		marked.emulatorContinued = true;
		res.writeContinue();
	}
}

/** Declared body length; undefined when chunked or absent. */
export function declaredLength(req: IncomingMessage): number | undefined {
	const value = req.headers['content-length'];
	if (value === undefined || !/^\d+$/.test(value)) return undefined;
	return Number(value);
}

export function assertBodyWithinLimit(req: IncomingMessage, limit: number): void {
	const length = declaredLength(req);
	if (length !== undefined && length > limit) throw payloadTooLarge(limit);
}

/** The client went away mid-body: there is nobody left to answer. */
export class ClientAbortError extends Error {}

/**
 * Whether the request's body can no longer be read: its client left before the handler began to
 * read it (a hook that acted first may take that long). Its 'close' is then past, and a reader
 * waiting for 'end' or 'close' would wait for ever (and hold stop() with it).
 */
export function bodyGone(req: IncomingMessage): boolean {
	return req.destroyed && !req.readableEnded;
}

/**
 * Small JSON bodies only (complete's part list, test hooks); over `limit` is a 413. Reads with
 * listeners rather than `for await`, which would destroy the request (and the socket with it)
 * when we stop early, leaving no way to send the 413.
 */
export function readJsonBody(
	req: IncomingMessage,
	res: ServerResponse,
	limit: number,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
	assertBodyWithinLimit(req, limit);
	if (bodyGone(req))
		return Promise.reject(new ClientAbortError('client closed the connection before its body was read'));
	continueBody(req, res);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const cleanup = () => {
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('close', onClose);
			req.off('error', onClose);
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				cleanup();
				req.pause();
				reject(payloadTooLarge(limit));
				return;
			}
			chunks.push(chunk);
		};
		const onEnd = () => {
			cleanup();
			try {
				resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
			} catch {
				resolve({ ok: false, reason: 'Body must be valid JSON' });
			}
		};
		const onClose = () => {
			if (req.complete) return;
			cleanup();
			reject(new ClientAbortError('client closed the connection mid-body'));
		};
		req.on('data', onData);
		req.on('end', onEnd);
		req.on('close', onClose);
		req.on('error', onClose);
	});
}
