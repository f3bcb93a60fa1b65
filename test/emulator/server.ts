import type { IncomingMessage, ServerResponse } from 'node:http';

import { verifyRequest } from './auth';
import type { RouteRequest, ServerContext } from './context';
import { FAULT_BODIES, rewriteData, type FaultAction } from './faults';
import { ClientAbortError, continueBody, HttpError, sendJson, type Reply } from './http';
import { parseTarget, type ParsedTarget } from './query';
import { cdn } from './routes/cdn';
import { isCdnFault, REDIRECT_PREFIX } from './routes/cdn-faults';
import { handleHook, isHookPath } from './routes/hooks';
import { list, remove, signedUrlRoute, upload } from './routes/files';
import { cancel, complete, start, uploadPart } from './routes/multipart';
import type { Operation } from './types';

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
};

const MULTIPART_ROUTE = /^\/api\/v1\/files\/multipart\/([^/]+)\/(upload|complete|cancel)$/;
const MULTIPART_OPS = { upload: 'uploadPart', complete: 'complete', cancel: 'cancel' } as const;

/** [ours] A known path with the wrong method is a 404 like any unknown route. */
export function routeOf(
	method: string,
	path: string,
): { op: Operation; uploadId?: string; redirected?: true } | undefined {
	if (method === 'GET' && path === '/api/v1/files/list') return { op: 'list' };
	if (method === 'PUT' && path === '/api/v1/files/upload') return { op: 'upload' };
	if (method === 'POST' && path === '/api/v1/files/multipart/start') return { op: 'start' };
	if (method === 'DELETE' && path === '/api/v1/files/delete') return { op: 'delete' };
	if (method === 'GET' && path === '/api/v1/files/signed-url') return { op: 'signedUrl' };
	if ((method === 'GET' || method === 'HEAD') && path.startsWith('/f/')) return { op: 'cdn' };
	// Where a `redirect` fault points: the same CDN, exempt from faults so a redirect cannot loop.
	if ((method === 'GET' || method === 'HEAD') && path.startsWith(REDIRECT_PREFIX)) {
		return { op: 'cdn', redirected: true };
	}
	const m = method === 'POST' ? MULTIPART_ROUTE.exec(path) : null;
	if (m) return { op: MULTIPART_OPS[m[2] as keyof typeof MULTIPART_OPS], uploadId: m[1] };
	return undefined;
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

export function createRequestHandler(ctx: ServerContext, track: (work: Promise<void>) => void) {
	return (req: IncomingMessage, res: ServerResponse): void => {
		track(
			handle(ctx, req, res).catch((err) => {
				// Last resort: a bug in a handler must not take the emulator down.
				console.error('[emulator] unexpected error', err);
				if (!res.headersSent && !res.destroyed) res.destroy();
			}),
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
	const route = routeOf(method, target.path);
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
	if (route.op === 'cdn') ctx.stats.cdnRequest(req.headers['accept-encoding']);

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
		const auth = verifyRequest(req, {
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
		// rewrite: the operation took effect; only what the client is told differs.
		if (fault?.kind === 'rewrite') reply.body = rewriteData(reply.body, fault.fields);
		await sendJson(res, reply, ctx.latencyMs);
	} catch (err) {
		if (err instanceof ClientAbortError) return;
		if (err instanceof HttpError) {
			await sendJson(res, { status: err.status, body: err.body, headers: err.headers }, ctx.latencyMs);
			return;
		}
		console.error(`[emulator] ${method} ${target.path} failed:`, err);
		await sendJson(res, { status: 500, body: { error: 'Internal server error' } }, ctx.latencyMs);
	}
}
