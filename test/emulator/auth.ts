import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Spec §1. The string-to-sign is built from the request target as Node received it: `req.url`
 * is the request-line target verbatim (latin1, one char per byte), never normalised, so
 * verifying over it is verifying over the bytes on the wire.
 */

export interface AuthSettings {
	accessKey: string;
	secretKey: string;
	clockToleranceSeconds: number;
	now: () => number;
}

export type AuthResult = { ok: true } | { ok: false; reason: string; stringToSign?: string };

/** `new Date().toISOString()` and nothing else: the service's SDK sends exactly that. */
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

export function stringToSign(method: string, target: string, timestamp: string): Buffer {
	return Buffer.from(`${method}\n${target}\n${timestamp}`, 'latin1');
}

export function hmacHex(secret: string, data: Buffer | string): string {
	return createHmac('sha256', secret).update(data).digest('hex');
}

/**
 * Equal-length digests make the comparison constant-time whatever the inputs' lengths, so
 * neither the secret-derived value nor its length leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
	const da = createHash('sha256').update(a, 'latin1').digest();
	const db = createHash('sha256').update(b, 'latin1').digest();
	return timingSafeEqual(da, db) && a.length === b.length;
}

function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return typeof value === 'string' ? value : undefined;
}

export function verifyRequest(req: IncomingMessage, settings: AuthSettings): AuthResult {
	const accessKey = header(req, 'x-access-key');
	const timestamp = header(req, 'x-timestamp');
	const signature = header(req, 'x-signature');
	if (accessKey === undefined) return { ok: false, reason: 'missing X-Access-Key header' };
	if (timestamp === undefined) return { ok: false, reason: 'missing X-Timestamp header' };
	if (signature === undefined) return { ok: false, reason: 'missing X-Signature header' };
	return checkCredentials(settings, HEADER_NAMES, {
		method: req.method ?? '',
		target: req.url ?? '',
		accessKey,
		timestamp,
		signature,
	});
}

/** What one request claims: who it is, when it was signed, and over which method and target. */
export interface Claim {
	method: string;
	/** The signed request target, byte for byte as received (latin1). */
	target: string;
	accessKey: string;
	timestamp: string;
	signature: string;
}

/** How the three credentials are named in the reasons: headers, or the query of a signed URL. */
export interface CredentialNames {
	timestamp: string;
	signature: string;
}

const HEADER_NAMES: CredentialNames = { timestamp: 'X-Timestamp', signature: 'X-Signature' };

/** The checks every authenticated request passes, wherever its credentials came from (§1, §3.10). */
export function checkCredentials(settings: AuthSettings, names: CredentialNames, claim: Claim): AuthResult {
	if (!constantTimeEqual(claim.accessKey, settings.accessKey)) return { ok: false, reason: 'unknown access key' };

	const { timestamp, signature } = claim;
	const time = Date.parse(timestamp);
	if (!ISO_MILLIS.test(timestamp) || Number.isNaN(time) || new Date(time).toISOString() !== timestamp) {
		return {
			ok: false,
			reason: `${names.timestamp} is not ISO 8601 UTC with milliseconds (as Date.prototype.toISOString prints)`,
		};
	}
	const skewMs = Math.abs(settings.now() - time);
	if (skewMs > settings.clockToleranceSeconds * 1000) {
		return {
			ok: false,
			reason: `timestamp outside the allowed window (+/-${settings.clockToleranceSeconds} s)`,
		};
	}

	const toSign = stringToSign(claim.method, claim.target, timestamp);
	const expected = hmacHex(settings.secretKey, toSign);
	const printable = printableForHeader(toSign);
	if (!HEX_SIGNATURE.test(signature)) {
		return { ok: false, reason: `${names.signature} is not 64 lower-case hex digits`, stringToSign: printable };
	}
	if (!constantTimeEqual(signature, expected)) {
		return { ok: false, reason: 'signature does not match', stringToSign: printable };
	}
	return { ok: true };
}

/** A header-safe rendering of the string-to-sign: `\n` for newlines, `\xHH` for other bytes. */
function printableForHeader(bytes: Buffer): string {
	let out = '';
	for (const b of bytes) {
		if (b === 0x0a) out += '\\n';
		else if (b === 0x5c) out += '\\\\';
		else if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b);
		else out += `\\x${b.toString(16).padStart(2, '0')}`;
	}
	return out;
}
