/**
 * What caches say of an answer (Age, X-Cache, Cache-Status and the CDNs' own headers), read in one
 * place: the CDN's answers are judged by it in files/proof.ts, the API's own in the transport
 * (request.ts), which alone sees their headers.
 */

/** The headers of a CDN answer the decisions read, as sent (undefined when absent). */
export interface CdnHeaders {
	date?: string;
	age?: string;
	xCache?: string;
	/** Other headers in which a cache says how it served the answer, as `Name: value` (see CACHE_STATUS). */
	cacheStatus?: string[];
	/** Varnish's request ids: two when the answer came from what it kept (see keptByCache). */
	xVarnish?: string;
	cacheControl?: string;
	lastModified?: string;
	etag?: string;
	/**
	 * The headers of the redirects that led to this answer, first first (transport/redirects.ts): a
	 * redirect a cache kept may lead to an earlier version's URL, so its marks are the answer's too.
	 */
	redirects?: CdnHeaders[];
}

/**
 * Headers besides X-Cache in which caches say how they served an answer: RFC 9211's Cache-Status,
 * and the CDNs' and gateways' own: Cloudflare's CF-Cache-Status, Bunny's CDN-Cache, and the two
 * names nginx's guides give its `$upstream_cache_status` (X-Cache-Status, X-Proxy-Cache; nginx
 * sends no Age, so without them a kept answer would pass). Squid's X-Cache-Lookup is not read: it
 * says whether the cache held a copy, not whether this answer is that copy (its X-Cache says that).
 */
const CACHE_STATUS = ['cache-status', 'cf-cache-status', 'cdn-cache', 'x-cache-status', 'x-proxy-cache'];

/** Varnish's X-Varnish with two ids: this request's and that of the request whose answer it kept (a hit). */
const VARNISH_HIT = /^\s*\d+\s+\d+\s*$/;

/** A cache status naming an answer served from what the cache kept (a hit, a stale or revalidated copy). */
const SERVED_FROM_CACHE = /hit|stale|revalidated|updating/i;

/** The CDN headers of an answer's header object (names in any case). */
export function cdnHeadersOf(headers: Record<string, unknown> | undefined): CdnHeaders {
	const lower = new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
	const one = (name: string) => {
		const value = lower.get(name);
		return value === undefined || value === null ? undefined : String(value);
	};
	return {
		date: one('date'),
		age: one('age'),
		xCache: one('x-cache'),
		cacheStatus: CACHE_STATUS.flatMap((name) => (one(name) === undefined ? [] : [`${name}: ${one(name)}`])),
		xVarnish: one('x-varnish'),
		cacheControl: one('cache-control'),
		lastModified: one('last-modified'),
		etag: one('etag'),
	};
}

/**
 * The CDN headers of an answer reached through redirects followed by transport/redirects.ts: its
 * own, with every redirect's (keptByCache and files/proof.ts read them all). The one header
 * gathering of every read that judges a version: Copy's and Move's source, Move's read-back,
 * Download (the node's and the trigger's), and the copy check's HEAD.
 */
export function answerCdnHeaders(answer: {
	headers?: Record<string, unknown>;
	redirectHeaders?: Record<string, unknown>[];
}): CdnHeaders {
	const redirects = (answer.redirectHeaders ?? []).map((headers) => cdnHeadersOf(headers));
	return { ...cdnHeadersOf(answer.headers), ...(redirects.length > 0 ? { redirects } : {}) };
}

/**
 * The answer's Age in seconds, or undefined when it has none that can be read. Sent as a list (two
 * caches' values joined), its first member counts, as RFC 9111 §5.1 has a cache do.
 */
export function ageSeconds(headers: CdnHeaders): number | undefined {
	const first = (headers.age ?? '').split(',')[0].trim();
	const age = Number(first);
	return first !== '' && Number.isFinite(age) && age >= 0 ? age : undefined;
}

/** The marks of one answer or one redirect, without those of the redirects before it (see keptByCache). */
export function ownCacheMarks(headers: CdnHeaders, minAgeSeconds = 0): string[] {
	const age = ageSeconds(headers);
	return [
		...(age === undefined || age < minAgeSeconds ? [] : [`Age: ${headers.age ?? ''}`]),
		...(SERVED_FROM_CACHE.test(headers.xCache ?? '') ? [`X-Cache: ${headers.xCache}`] : []),
		...(headers.cacheStatus ?? []).filter((status) => SERVED_FROM_CACHE.test(status.replace(/^[^:]*:/, ''))),
		...(VARNISH_HIT.test(headers.xVarnish ?? '') ? [`X-Varnish: ${headers.xVarnish}`] : []),
	];
}

/**
 * What a cache says of keeping the answer, or undefined when it says nothing: an `Age` of at least
 * `minAgeSeconds` (an HTTP cache MUST send one with every answer it serves from what it kept, RFC
 * 9111 §4 and §5.1; `Age: 0` too, kept less than a second), an `X-Cache` or cache status naming
 * a hit in any spelling (HIT, TCP_HIT, "Hit from cloudfront", STALE, UPDATING, REVALIDATED; MISS,
 * BYPASS, EXPIRED, DYNAMIC name none), or an X-Varnish with two ids. Whatever else the
 * answer says (a Last-Modified included), such an answer may be an earlier version, so it is never
 * proof of the stored one by itself. The marks of a redirect that led to it count as its own: a
 * redirect a cache kept may point at an earlier version's URL, whose own answer is then unmarked.
 */
export function keptByCache(headers: CdnHeaders, minAgeSeconds = 0): string | undefined {
	const marks = [
		...ownCacheMarks(headers, minAgeSeconds),
		...(headers.redirects ?? []).flatMap((redirect, index) => {
			const kept = ownCacheMarks(redirect, minAgeSeconds);
			return kept.length > 0 ? [`a redirect that led to it (hop ${index + 1}): ${kept.join(', ')}`] : [];
		}),
	];
	return marks.length > 0 ? marks.join(', ') : undefined;
}

/**
 * What a cache says of keeping an answer of the API itself (not a link it handed out), or
 * undefined. Such an answer is never the service's word now: the transport refuses it (see
 * docs/api-choices.md). `Age: 0` alone is not read as kept here: gateways (Varnish, some CDNs)
 * stamp it on every answer they forward, so it would fail every call; a CDN's `Age: 0` still
 * counts (files/proof.ts), as its time is then read from its Date and Age.
 */
export function apiAnswerKept(headers: Record<string, unknown> | undefined): string | undefined {
	return keptByCache(cdnHeadersOf(headers), 1);
}
