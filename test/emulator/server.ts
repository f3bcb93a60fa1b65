import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RouteRequest, ServerContext } from './context';
import { answerPreflight, preflightMethod, setCorsHeaders } from './cors';
import { FAULT_BODIES, rewriteData, type FaultAction } from './faults';
import { ClientAbortError, continueBody, HttpError, sendJson, type Reply } from './http';
import { authenticate } from './query-auth';
import { parseTarget, type ParsedTarget } from './query';
import { cdn } from './routes/cdn';
import { isCdnFault, REDIRECT_PREFIX } from './routes/cdn-faults';
import type { HookAnswer, HookCall } from './history';
import { handleHook, isHookPath } from './routes/hooks';
import { list, purge, remove, signedUrlRoute, upload } from './routes/files';
import { cancel, complete, start, uploadPart } from './routes/multipart';
import type { Operation, PathFamilies } from './types';

type ApiHandler = (ctx: ServerContext, r: RouteRequest) => Promise<Reply>;

const API: Record<Exclude<Operation, 'cdn'>, ApiHandler> = {
	list,
	upload,
	start,
	uploadPart,
	complete,
	cancel,
	delete: remove,
	signedUrl: signedUrlRoute,
	purge,
};

const MULTIPART_ROUTE = /^\/api\/v1\/files\/multipart\/([^/]+)\/(upload|complete|cancel)$/;
const MULTIPART_OPS = { upload: 'uploadPart', complete: 'complete', cancel: 'cancel' } as const;
/** The SDK's spelling of part upload (POST) and cancel (DELETE): the upload's own path. */
const SDK_UPLOAD_ROUTE = /^\/api\/v1\/files\/multipart\/([^/]+)$/;

export interface Route {
	op: Operation;
	uploadId?: string;
	redirected?: true;
	/** Set on the endpoints the two path families spell differently. */
	family?: 'reference' | 'sdk';
}

/** [ours] A known path with the wrong method is a 404 like any unknown route. */
export function routeOf(method: string, path: string): Route | undefined {
	if (method === 'GET' && path === '/api/v1/files/list') return { op: 'list', family: 'reference' };
	if (method === 'GET' && path === '/api/v1/files/contents') return { op: 'list', family: 'sdk' };
	if (method === 'PUT' && path === '/api/v1/files/upload') return { op: 'upload' };
	if (method === 'POST' && path === '/api/v1/files/multipart/start') return { op: 'start' };
	if (method === 'DELETE' && path === '/api/v1/files/delete') return { op: 'delete' };
	if (method === 'GET' && path === '/api/v1/files/signed-url') return { op: 'signedUrl' };
	if (method === 'POST' && path === '/api/v1/files/purge') return { op: 'purge' };
	if ((method === 'GET' || method === 'HEAD') && path.startsWith('/f/')) return { op: 'cdn' };
	// Where a `redirect` fault points: the same CDN, exempt from faults so a redirect cannot loop.
	if ((method === 'GET' || method === 'HEAD') && path.startsWith(REDIRECT_PREFIX)) {
		return { op: 'cdn', redirected: true };
	}
	const m = method === 'POST' ? MULTIPART_ROUTE.exec(path) : null;
	if (m) {
		const op = MULTIPART_OPS[m[2] as keyof typeof MULTIPART_OPS];
		return { op, uploadId: m[1], ...(op === 'complete' ? {} : { family: 'reference' as const }) };
	}
	const sdk = method === 'POST' || method === 'DELETE' ? SDK_UPLOAD_ROUTE.exec(path) : null;
	if (sdk) return { op: method === 'POST' ? 'uploadPart' : 'cancel', uploadId: sdk[1], family: 'sdk' };
	return undefined;
}

/** Whether a route of one family is answered by an emulator set to `paths`. */
export function answers(paths: PathFamilies, route: Route): boolean {
	return paths === 'both' || route.family === undefined || route.family === paths;
}

/**
 * [ours] A path of the family the emulator does not answer gets what a web framework sends for a
 * route it does not have (Express's default, as the service's SDK hints at multer): an HTML page,
 * not the API's JSON error. That is what a client can tell apart from the API's own 404.
 */
async function sendFrameworkNotFound(res: ServerResponse, method: string, path: string, latencyMs: number) {
	if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
	if (res.headersSent || res.destroyed) return;
	const escaped = path.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
	const page = Buffer.from(
		`<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${method} ${escaped}</pre>\n</body>\n</html>\n`,
	);
	res.writeHead(404, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Security-Policy': "default-src 'none'",
		'X-Content-Type-Options': 'nosniff',
		'Content-Length': String(page.length),
	});
	res.end(page);
}

function hasBody(req: IncomingMessage): boolean {
	const length = req.headers['content-length'];
	return length !== undefined ? length !== '0' : req.headers['transfer-encoding'] !== undefined;
}

/** Part number as the fault filter sees it; validation proper happens later. */
function rawPartNumber(target: ParsedTarget): number | undefined {
	const v = target.query.values.get('partNumber');
	return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** The faults that answer instead of the operation: status, hang, reset. */
async function injectFault(
	ctx: ServerContext,
	req: IncomingMessage,
	res: ServerResponse,
	fault: Extract<FaultAction, { kind: 'status' | 'hang' | 'reset' }>,
): Promise<void> {
	if (fault.kind === 'status') {
		const headers: Record<string, string> = fault.status === 429 ? { 'Retry-After': '1' } : {};
		await sendJson(res, { status: fault.status, body: FAULT_BODIES[fault.status], headers }, ctx.latencyMs);
		return;
	}
	if (fault.kind === 'hang') {
		// Take the body so the client sits waiting for an answer that never comes.
		continueBody(req, res);
		req.resume();
		return;
	}
	// reset: let some of the body arrive first, so the client is cut off mid-send.
	const socket = req.socket;
	if (!hasBody(req)) {
		socket.destroy();
		return;
	}
	continueBody(req, res);
	const declared = Number(req.headers['content-length'] ?? NaN);
	const cutAt = Number.isFinite(declared) ? Math.max(1, Math.min(64 * 1024, Math.floor(declared / 2))) : 64 * 1024;
	let received = 0;
	req.on('data', (chunk: Buffer) => {
		received += chunk.length;
		if (received >= cutAt) socket.destroy();
	});
	req.on('end', () => socket.destroy());
}

/** The request is carried out in full; only its answer never arrives (the socket closes instead). */
function dropResponse(res: ServerResponse): void {
	const cut = () => {
		res.socket?.destroy();
		return res;
	};
	res.writeHead = cut as unknown as typeof res.writeHead;
	res.end = cut as unknown as typeof res.end;
}

/** A hook's answer (history.ts), once the request's body, if any, has been taken. */
async function answerInstead(req: IncomingMessage, res: ServerResponse, answer: HookAnswer): Promise<void> {
	continueBody(req, res);
	// A hook may answer late (a held request): by then its client may be gone, and 'close' already past.
	if (!req.destroyed && !req.readableEnded) {
		await new Promise<void>((resolve) => {
			req.once('end', resolve);
			req.once('close', resolve);
			req.resume();
		});
	}
	if (res.headersSent || res.destroyed) return;
	const body = answer.body === undefined ? undefined : Buffer.from(answer.body);
	res.writeHead(answer.status, { ...answer.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) });
	res.end(req.method === 'HEAD' ? undefined : body);
}

export function createRequestHandler(ctx: ServerContext, track: (work: Promise<void>, request: string) => void) {
	return (req: IncomingMessage, res: ServerResponse): void => {
		track(
			handle(ctx, req, res).catch((err) => {
				// Last resort: a bug in a handler must not take the emulator down.
				console.error('[emulator] unexpected error', err);
				if (!res.headersSent && !res.destroyed) res.destroy();
			}),
			`${req.method ?? ''} ${req.url ?? ''}`,
		);
	};
}

async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const method = req.method ?? '';
	const target = parseTarget(req.url ?? '');
	if (isHookPath(target.path)) return handleHook(ctx, req, res, target.path);
	// The far-service profile: a new connection's handshake, then its rate cap on the body.
	if (!(await ctx.network.admit(req))) return;

	// The emulator's clock (skewable for tests) is the one its answers carry, as a real server's would.
	res.setHeader('Date', new Date(ctx.config.now()).toUTCString());
	res.on('finish', () => ctx.stats.response(res.statusCode));
	setCorsHeaders(res);
	const preflight = preflightMethod(req);
	if (preflight !== undefined) {
		// [ours] Preflights are answered for routes that exist (in the family answered), before faults.
		const wanted = routeOf(preflight, target.path);
		if (wanted && answers(ctx.config.paths, wanted)) return answerPreflight(res, ctx.latencyMs);
	}
	const route = routeOf(method, target.path);
	if (route && !answers(ctx.config.paths, route)) {
		// Its body may still be on the way: take all of it first, so the client reads the answer, not a reset.
		continueBody(req, res);
		await new Promise<void>((resolve) => {
			req.once('end', resolve);
			req.once('close', resolve);
			req.resume();
		});
		await sendFrameworkNotFound(res, method, target.path, ctx.latencyMs);
		return;
	}
	if (!route) {
		await sendJson(
			res,
			{ status: 404, body: { error: 'Resource not found', message: `No route for ${method} ${target.path}` } },
			ctx.latencyMs,
		);
		return;
	}

	ctx.stats.request(route.op);
	if (route.op === 'uploadPart') res.once('close', ctx.stats.partUploadStarted());
	if (route.op === 'cdn') {
		ctx.stats.cdnRequest(req.headers['accept-encoding']);
		res.once('close', ctx.stats.cdnRequestStarted());
	}

	const call: HookCall | undefined = ctx.hooks
		? {
				seq: ctx.objects.history.tick(),
				op: route.op,
				method,
				path: target.path,
				query: target.query.values,
				headers: req.headers,
			}
		: undefined;
	const instead = call && (await ctx.hooks?.before?.(call));
	if (instead) return answerInstead(req, res, instead);

	const fault = route.redirected
		? undefined
		: ctx.faults.pick(route.op, route.op === 'uploadPart' ? rawPartNumber(target) : undefined);
	if (fault) ctx.stats.fault();
	if (fault?.kind === 'dropResponse') dropResponse(res);
	else if (fault?.kind === 'status' || fault?.kind === 'hang' || fault?.kind === 'reset') {
		return injectFault(ctx, req, res, fault);
	}

	const r: RouteRequest = { req, res, target, uploadId: route.uploadId };
	try {
		// Validation lets only cdn rules carry the CDN kinds, and only API rules carry rewrite.
		if (route.op === 'cdn') return await cdn(ctx, r, isCdnFault(fault) ? fault : undefined);
		const auth = authenticate(req, {
			accessKey: ctx.config.accessKey,
			secretKey: ctx.config.secretKey,
			clockToleranceSeconds: ctx.config.clockToleranceSeconds,
			now: ctx.config.now,
		});
		if (!auth.ok) {
			ctx.stats.authFailure();
			// The body stays the spec's; the reason is an emulator-only aid for debugging clients.
			const headers: Record<string, string> = { 'X-Emulator-Auth-Reason': auth.reason };
			if (auth.stringToSign !== undefined) headers['X-Emulator-String-To-Sign'] = auth.stringToSign;
			throw new HttpError(401, { error: 'Invalid authentication credentials' }, headers);
		}
		const reply = await API[route.op](ctx, r);
		if (call) await ctx.hooks?.after?.(call, reply);
		// rewrite: the operation took effect; only what the client is told differs.
		if (fault?.kind === 'rewrite') reply.body = rewriteData(reply.body, fault.fields);
		await sendJson(res, reply, ctx.latencyMs);
	} catch (err) {
		if (err instanceof ClientAbortError) return;
		if (err instanceof HttpError) {
			const reply = { status: err.status, body: err.body, headers: err.headers };
			if (call && route.op !== 'cdn') await ctx.hooks?.after?.(call, reply);
			await sendJson(res, reply, ctx.latencyMs);
			return;
		}
		console.error(`[emulator] ${method} ${target.path} failed:`, err);
		await sendJson(res, { status: 500, body: { error: 'Internal server error' } }, ctx.latencyMs);
	}
}
