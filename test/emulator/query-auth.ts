import type { IncomingMessage } from 'node:http';

import { checkCredentials, verifyRequest, type AuthResult, type AuthSettings } from './auth';
import { decodeFormComponent } from './query';

/**
 * Spec §3.10, signed operation URLs: a backend hands a browser one URL per API call, with the
 * credentials in the query instead of headers. The server SDK builds it as
 * `path?query` + `&access_key=…&signature=…&timestamp=…` (URLSearchParams, so the timestamp's
 * colons arrive as `%3A`), where the signature covers `METHOD\npath?query\ntimestamp` — the
 * target as it was *before* the three were appended. So the emulator cuts the three off the raw
 * target it received and verifies what is left, byte for byte; it never rebuilds the query.
 */

/** In the order the SDK appends them; they must be the query's last three parameters. */
export const QUERY_AUTH_PARAMS = ['access_key', 'signature', 'timestamp'] as const;

const HEADERS = ['x-access-key', 'x-timestamp', 'x-signature'];
const NAMES = { timestamp: 'timestamp', signature: 'signature' };

function pairName(pair: string): string {
	const eq = pair.indexOf('=');
	const raw = eq === -1 ? pair : pair.slice(0, eq);
	return decodeFormComponent(raw) ?? raw;
}

function pairValue(pair: string): string | undefined {
	const eq = pair.indexOf('=');
	return eq === -1 ? undefined : decodeFormComponent(pair.slice(eq + 1));
}

/** Whether the query carries any of the three: the request then means to use query authentication. */
function queryAuthPairs(rawQuery: string | undefined): string[] | undefined {
	if (rawQuery === undefined) return undefined;
	const pairs = rawQuery.split('&');
	const names = pairs.map(pairName);
	return names.some((n) => (QUERY_AUTH_PARAMS as readonly string[]).includes(n)) ? pairs : undefined;
}

/** Header authentication (§1) or query authentication (§3.10); a request may not mix them [ours]. */
export function authenticate(req: IncomingMessage, settings: AuthSettings): AuthResult {
	const target = req.url ?? '';
	const q = target.indexOf('?');
	const pairs = queryAuthPairs(q === -1 ? undefined : target.slice(q + 1));
	if (pairs === undefined) return verifyRequest(req, settings);
	if (HEADERS.some((h) => req.headers[h] !== undefined)) {
		return {
			ok: false,
			reason:
				'both X-Access-Key/X-Timestamp/X-Signature headers and access_key/signature/timestamp query parameters: use one',
		};
	}
	return verifyQuery(req.method ?? '', target.slice(0, q), pairs, settings);
}

function verifyQuery(method: string, path: string, pairs: string[], settings: AuthSettings): AuthResult {
	const tail = pairs.slice(-3);
	const before = pairs.slice(0, -3);
	// Raw names, exactly as URLSearchParams writes them, and none of the three earlier in the query.
	const inPlace = tail.length === 3 && tail.every((p, i) => p.startsWith(`${QUERY_AUTH_PARAMS[i]}=`));
	const earlier = before.some((p) => (QUERY_AUTH_PARAMS as readonly string[]).includes(pairName(p)));
	if (!inPlace || earlier) {
		return {
			ok: false,
			reason: 'access_key, signature and timestamp must be the last three query parameters, in that order, each once',
		};
	}
	const [accessKey, signature, timestamp] = tail.map(pairValue);
	if (accessKey === undefined || signature === undefined || timestamp === undefined) {
		return { ok: false, reason: 'access_key, signature or timestamp is not percent-encoded UTF-8' };
	}
	const signedTarget = before.length === 0 ? path : `${path}?${before.join('&')}`;
	return checkCredentials(settings, NAMES, { method, target: signedTarget, accessKey, timestamp, signature });
}
