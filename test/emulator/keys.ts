import { LIMITS } from './config';

/**
 * Spec §4 key rules, nothing more: 1–1024 bytes of UTF-8, no leading `/`, no `..` segment, no
 * NUL. Other control characters are legal keys. Keys never become file-system paths (objects are
 * stored under a hash of the key), so these rules are about the API, not about disk safety.
 */
export function keyProblem(key: string): string | undefined {
	if (key.length === 0) return 'Key is required';
	if (Buffer.byteLength(key, 'utf8') > LIMITS.maxKeyBytes) {
		return `Key must be at most ${LIMITS.maxKeyBytes} bytes of UTF-8`;
	}
	if (key.startsWith('/')) return 'Key must not start with "/"';
	if (key.split('/').includes('..')) return 'Key must not contain a ".." path segment (path traversal)';
	if (key.includes('\0')) return 'Key must not contain a NUL character';
	return undefined;
}

/** The `{key}` part of a location: each `/`-separated segment encodeURIComponent'ed. */
export function encodeKeyPath(key: string): string {
	return key.split('/').map(encodeURIComponent).join('/');
}

/** Inverse of encodeKeyPath for a received CDN path; undefined when an escape is malformed. */
export function decodeKeyPath(path: string): string | undefined {
	try {
		return path.split('/').map(decodeURIComponent).join('/');
	} catch {
		return undefined;
	}
}
