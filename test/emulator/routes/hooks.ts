import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ServerContext } from '../context';
import { validateFaultRule } from '../faults';
import { readJsonBody, sendJson, type Reply } from '../http';
import { setNetworkProfile } from '../network';
import type { FaultRule, NetworkProfile, OpenUploadInfo } from '../types';

/**
 * Test hooks under `/_emulator/`, for processes that cannot call the in-process API (a real n8n
 * in an e2e test). Unsigned, so they answer only loopback clients.
 */

export function openUploads(ctx: ServerContext): OpenUploadInfo[] {
	return ctx.uploads.all().map((u) => ({
		uploadId: u.uploadId,
		bucket: u.bucket,
		region: u.region,
		key: u.key,
		parts: [...u.parts.keys()].sort((a, b) => a - b),
	}));
}

function isLoopback(address: string | undefined): boolean {
	return !!address && (address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.'));
}

export function isHookPath(path: string): boolean {
	return path === '/_emulator' || path.startsWith('/_emulator/');
}

async function route(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<Reply> {
	if (!isLoopback(req.socket.remoteAddress)) {
		return { status: 403, body: { error: 'Forbidden', message: 'Test hooks answer loopback clients only' } };
	}
	if (req.method === 'GET' && path === '/_emulator/stats') {
		return { status: 200, body: { ...ctx.stats.snapshot(ctx.uploads.openCount), openUploads: openUploads(ctx) } };
	}
	if (req.method === 'POST' && path === '/_emulator/reset-stats') {
		ctx.stats.reset();
		return { status: 200, body: { ok: true } };
	}
	if (req.method === 'POST' && path === '/_emulator/faults') {
		const body = await readJsonBody(req, res, 1 << 20);
		if (!body.ok) return { status: 400, body: { error: 'Invalid fault rules', message: body.reason } };
		const { faults, latencyMs } = (body.value ?? {}) as { faults?: FaultRule[]; latencyMs?: number };
		try {
			if (!Array.isArray(faults)) throw new Error('body must be { "faults": FaultRule[], "latencyMs"?: number }');
			faults.forEach(validateFaultRule);
			if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
				throw new Error('latencyMs must be a number >= 0');
			}
		} catch (err) {
			return { status: 400, body: { error: 'Invalid fault rules', message: (err as Error).message } };
		}
		ctx.faults.set(faults);
		if (latencyMs !== undefined) ctx.latencyMs = latencyMs;
		return { status: 200, body: { ok: true } };
	}
	if (req.method === 'POST' && path === '/_emulator/network') {
		const body = await readJsonBody(req, res, 1 << 20);
		if (!body.ok) return { status: 400, body: { error: 'Invalid network profile', message: body.reason } };
		try {
			const profile = body.value as NetworkProfile | null;
			if (!profile || typeof profile !== 'object' || Array.isArray(profile)) {
				throw new Error('body must be { "latencyMs"?, "connectionDelayMs"?, "connectionRateMiBps"? }');
			}
			setNetworkProfile(ctx, profile);
		} catch (err) {
			return { status: 400, body: { error: 'Invalid network profile', message: (err as Error).message } };
		}
		return { status: 200, body: { ok: true } };
	}
	return { status: 404, body: { error: 'Resource not found', message: `No test hook ${req.method} ${path}` } };
}

export async function handleHook(
	ctx: ServerContext,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
): Promise<void> {
	// Hooks are never delayed: latency simulates the service, not the test's controls.
	await sendJson(res, await route(ctx, req, res, path), 0);
}
