import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * [ours] CORS for browsers (spec §3.10): the browser SDK calls the API straight from a web page
 * with signed operation URLs, and pages load CDN files. The API needs no cookies (a signed URL
 * carries its own credentials), so every origin is allowed with `*` rather than an echo of the
 * Origin. Every API and CDN answer carries it, errors included, so a page can read the 401's body.
 */

export const CORS_ALLOW_ORIGIN = '*';
export const CORS_ALLOW_METHODS = 'GET, PUT, POST, DELETE';
/**
 * The browser SDK sets Content-Type (application/json on start and complete); its form bodies'
 * multipart Content-Type is safelisted anyway. The signing headers let a page that signs for
 * itself (a test page, never one holding a production secret) use header authentication.
 */
export const CORS_ALLOW_HEADERS = 'Content-Type, X-Access-Key, X-Timestamp, X-Signature';
/**
 * The SDK reads the part's ETag from the JSON body (`data.ETag`), not from a header, so no ETag
 * header is exposed. Date lets a page tell a skewed clock from a bad signature (as a server
 * client can), Retry-After goes with a 429, and the emulator's own aids explain a refusal.
 */
export const CORS_EXPOSE_HEADERS =
	'Date, Retry-After, X-Emulator-Auth-Reason, X-Emulator-String-To-Sign, X-Emulator-Transformation';
export const CORS_MAX_AGE_SECONDS = 600;

/** Headers every API and CDN answer carries (set before the handler writes its own). */
export function setCorsHeaders(res: ServerResponse): void {
	res.setHeader('Access-Control-Allow-Origin', CORS_ALLOW_ORIGIN);
	res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
}

/** A browser's preflight: OPTIONS with Origin and Access-Control-Request-Method. */
export function preflightMethod(req: IncomingMessage): string | undefined {
	if (req.method !== 'OPTIONS' || req.headers.origin === undefined) return undefined;
	const requested = req.headers['access-control-request-method'];
	return typeof requested === 'string' && requested !== '' ? requested : undefined;
}

/** 204 with what the browser may send; the browser itself checks its request against it. */
export async function answerPreflight(res: ServerResponse, latencyMs: number): Promise<void> {
	if (latencyMs > 0) await sleep(latencyMs);
	if (res.headersSent || res.destroyed) return;
	res.writeHead(204, {
		'Access-Control-Allow-Origin': CORS_ALLOW_ORIGIN,
		'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
		'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
		'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
		'Content-Length': '0',
	});
	res.end();
}
