import { constantTimeEqual, hmacHex } from './auth';
import { encodeKeyPath } from './keys';

/**
 * [ours] Signed CDN URLs. The service signs downloads but does not publish how, so:
 *   `<location>?expires=<unix seconds>&signature=<hex HMAC-SHA256(secret, "GET\n<path>\n<expires>")>`
 * where `<path>` is `/f/<access id>/<key, each segment encodeURIComponent'ed>` — the path of
 * the location. The CDN recomputes it from the decoded key, so any equivalent percent-encoding
 * of the same key verifies, while any change to key, access id or expiry does not.
 */

export function cdnPath(accessId: string, key: string): string {
	return `/f/${encodeURIComponent(accessId)}/${encodeKeyPath(key)}`;
}

export function location(baseUrl: string, accessId: string, key: string): string {
	return `${baseUrl}${cdnPath(accessId, key)}`;
}

function signature(secret: string, accessId: string, key: string, expires: number | string): string {
	return hmacHex(secret, `GET\n${cdnPath(accessId, key)}\n${expires}`);
}

export function signedUrl(baseUrl: string, secret: string, accessId: string, key: string, expires: number): string {
	return `${location(baseUrl, accessId, key)}?expires=${expires}&signature=${signature(secret, accessId, key, expires)}`;
}

export type SignedCheck = { ok: true } | { ok: false; message: string };

export function checkSignedUrl(
	secret: string,
	accessId: string,
	key: string,
	expires: string | undefined,
	sig: string | undefined,
	nowMs: number,
): SignedCheck {
	if (expires === undefined || sig === undefined) {
		return { ok: false, message: 'This file is private; it is served only through a signed URL' };
	}
	if (!/^\d{1,15}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) {
		return { ok: false, message: 'Malformed signed URL' };
	}
	if (!constantTimeEqual(sig, signature(secret, accessId, key, expires))) {
		return { ok: false, message: 'Signed URL signature does not match' };
	}
	if (Math.floor(nowMs / 1000) > Number(expires)) return { ok: false, message: 'Signed URL has expired' };
	return { ok: true };
}
