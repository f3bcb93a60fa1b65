/**
 * Request-target parsing. Signatures cover the raw target, so nothing here rewrites it; this
 * only decodes the query the way the service's SDK encodes it (URLSearchParams form encoding),
 * but strictly: a value whose bytes are not UTF-8 is flagged instead of silently becoming U+FFFD,
 * and a parameter given twice is flagged instead of one copy being dropped.
 */

// ignoreBOM keeps a leading U+FEFF as part of the value instead of eating it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface QueryParams {
	/** First value of each parameter. */
	values: Map<string, string>;
	/** Parameters that occurred more than once. */
	repeated: Set<string>;
	/** Parameters whose decoded bytes are not valid UTF-8. */
	invalidUtf8: Set<string>;
}

export interface ParsedTarget {
	/** Path exactly as received (still percent-encoded). */
	path: string;
	/** Everything after the first `?`, or undefined when there is none. */
	rawQuery: string | undefined;
	query: QueryParams;
}

export function parseTarget(target: string): ParsedTarget {
	const q = target.indexOf('?');
	const path = q === -1 ? target : target.slice(0, q);
	const rawQuery = q === -1 ? undefined : target.slice(q + 1);
	return { path, rawQuery, query: parseQuery(rawQuery ?? '') };
}

export function parseQuery(raw: string): QueryParams {
	const values = new Map<string, string>();
	const repeated = new Set<string>();
	const invalidUtf8 = new Set<string>();
	if (raw === '') return { values, repeated, invalidUtf8 };
	for (const pair of raw.split('&')) {
		if (pair === '') continue;
		const eq = pair.indexOf('=');
		const name = decodeFormComponent(eq === -1 ? pair : pair.slice(0, eq));
		const value = decodeFormComponent(eq === -1 ? '' : pair.slice(eq + 1));
		const key = name ?? pair;
		if (values.has(key)) {
			repeated.add(key);
			continue;
		}
		if (value === undefined || name === undefined) invalidUtf8.add(key);
		values.set(key, value ?? '');
	}
	return { values, repeated, invalidUtf8 };
}

/**
 * `+` is a space, `%XX` a byte; a `%` not followed by two hex digits stays literal, as in
 * URLSearchParams. Node hands us the target as latin1, one char per received byte.
 */
export function decodeFormComponent(component: string): string | undefined {
	const bytes = Buffer.from(component.replace(/\+/g, ' '), 'latin1');
	if (!bytes.includes(0x25 /* % */)) return decodeUtf8(bytes);
	const out = Buffer.allocUnsafe(bytes.length);
	let n = 0;
	for (let i = 0; i < bytes.length; i++) {
		const c = bytes[i];
		if (c === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
			out[n++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16);
			i += 2;
		} else {
			out[n++] = c;
		}
	}
	return decodeUtf8(out.subarray(0, n));
}

function decodeUtf8(bytes: Buffer): string | undefined {
	try {
		return utf8.decode(bytes);
	} catch {
		return undefined;
	}
}

function isHex(c: number | undefined): boolean {
	return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}
