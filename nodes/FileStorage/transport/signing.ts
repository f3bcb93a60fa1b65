import { createHmac } from 'crypto';

/**
 * Pure request signing for the File Storage API v1 (HMAC-SHA256 over
 * METHOD \n TARGET \n TIMESTAMP). No I/O here, so it can be unit-tested against the
 * spec's vectors and shared by the credential and the node.
 */

export const ACCESS_KEY_HEADER = 'X-Access-Key';
export const SIGNATURE_HEADER = 'X-Signature';
export const TIMESTAMP_HEADER = 'X-Timestamp';

export const SIGNED_HEADER_NAMES = [ACCESS_KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER];

export type QueryValue = string | number | boolean | undefined | null;

/**
 * Encodes query parameters in the given order the way the service's SDK does
 * (URLSearchParams: space as '+', '/' as %2F). Undefined and null values are left out.
 */
export function encodeQuery(params: Array<[string, QueryValue]>): string {
	const search = new URLSearchParams();
	for (const [name, value] of params) {
		if (value === undefined || value === null) continue;
		search.append(name, String(value));
	}
	return search.toString();
}

export function buildTarget(path: string, params: Array<[string, QueryValue]> = []): string {
	const query = encodeQuery(params);
	return query ? `${path}?${query}` : path;
}

export function stringToSign(method: string, target: string, timestamp: string): string {
	return `${method.toUpperCase()}\n${target}\n${timestamp}`;
}

export function computeSignature(secretKey: string, method: string, target: string, timestamp: string): string {
	return createHmac('sha256', secretKey)
		.update(stringToSign(method, target, timestamp))
		.digest('hex');
}

export function signatureHeaders(
	accessKey: string,
	secretKey: string,
	method: string,
	target: string,
	timestamp: string,
): Record<string, string> {
	return {
		[ACCESS_KEY_HEADER]: accessKey,
		[TIMESTAMP_HEADER]: timestamp,
		[SIGNATURE_HEADER]: computeSignature(secretKey, method, target, timestamp),
	};
}

/** The query parameters a signed operation URL ends with (spec §3.10), in the order the service reads them. */
export const QUERY_AUTH_NAMES = ['access_key', 'signature', 'timestamp'] as const;

/**
 * Spec §3.10: `target` (path and query) with the credentials appended as its last three query
 * parameters, so a client without the secret (a browser) can send it. The signature is the one
 * of computeSignature over `target` as it stands before the three are appended; the secret
 * itself never goes into the result.
 */
export function querySignedTarget(
	accessKey: string,
	secretKey: string,
	method: string,
	target: string,
	timestamp: string,
): string {
	const signature = computeSignature(secretKey, method, target, timestamp);
	const tail = encodeQuery([
		[QUERY_AUTH_NAMES[0], accessKey],
		[QUERY_AUTH_NAMES[1], signature],
		[QUERY_AUTH_NAMES[2], timestamp],
	]);
	return `${target}${target.includes('?') ? '&' : '?'}${tail}`;
}

export type BaseUrlCheck = { ok: true; origin: string } | { ok: false; problem: string };

/**
 * The signature covers the path as the service receives it, so a base URL with a path
 * (e.g. '/api/v1' pasted from the docs) would sign a target the service never sees.
 * Only scheme + host (+ port) is accepted; a trailing slash is harmless and dropped.
 */
export function checkBaseUrl(raw: unknown): BaseUrlCheck {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (!text) {
		return { ok: false, problem: 'Base URL is empty. Enter the API address, e.g. https://api.apexxcloud.com' };
	}
	if (!/^https?:\/\//i.test(text)) {
		return {
			ok: false,
			problem: `Base URL "${text}" has no scheme. Start it with https:// (or http:// for a local emulator), e.g. https://api.apexxcloud.com`,
		};
	}
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return { ok: false, problem: `Base URL "${text}" is not a valid URL, e.g. https://api.apexxcloud.com` };
	}
	if (parsed.pathname !== '/' || parsed.search || parsed.hash) {
		return {
			ok: false,
			problem: `Base URL "${text}" must be only the scheme and host, without a path or query such as "${parsed.pathname}${parsed.search}". Use ${parsed.origin}`,
		};
	}
	if (parsed.username || parsed.password) {
		return { ok: false, problem: 'Base URL must not contain a user name or password' };
	}
	return { ok: true, origin: parsed.origin };
}

/**
 * Splits an absolute URL into origin and request target exactly as the HTTP client
 * will put them on the wire: Node's URL parser percent-encodes a few raw characters
 * (space, quotes, <, >) but keeps existing escapes, and the client sends
 * `pathname + search` of that parse, so signing the same parse signs the sent bytes.
 */
export function splitUrl(absoluteUrl: string): { origin: string; target: string } {
	const parsed = new URL(absoluteUrl);
	return { origin: parsed.origin, target: `${parsed.pathname}${parsed.search}` };
}
