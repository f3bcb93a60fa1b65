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
 * and the CDNs' and gateways' own: Cloudflare's CF-Cache-Status, Bunny's CDN-Cache, Akamai's
 * Akamai-Cache-Status, Vercel's X-Vercel-Cache, and the two names nginx's guides give its
 * `$upstream_cache_status` (X-Cache-Status, X-Proxy-Cache; nginx sends no Age, so without them a
 * kept answer would pass). Squid's X-Cache-Lookup is not read: it says whether the cache held a
 * copy, not whether this answer is that copy (its X-Cache says that).
 */
const CACHE_STATUS = [
	'cache-status',
	'cf-cache-status',
	'cdn-cache',
	'akamai-cache-status',
	'x-vercel-cache',
	'x-cache-status',
	'x-proxy-cache',
];

/** Varnish's X-Varnish with two ids: this request's and that of the request whose answer it kept (a hit). */
const VARNISH_HIT = /^\s*\d+\s+\d+\s*$/;

/** A cache status naming an answer served from what the cache kept (a hit, a stale or revalidated copy). */
const SERVED_FROM_CACHE = /hit|stale|revalidated|updating/i;

/**
 * An X-Cache or cache status naming a revalidation: the cache asked the origin whether its copy was
 * current and served it on a 304. Cloudflare's and nginx's REVALIDATED, CloudFront's "RefreshHit from
 * cloudfront", and the TCP_REFRESH_ family of Squid's and Akamai's codes (all of it: one that
 * brought new bytes cannot be told apart by its mark alone, so it is not taken as proof either).
 */
const REVALIDATED = /revalidated|refreshhit|tcp_refresh_/i;

/**
 * A Structured Field (RFC 8941) split at `separator` outside quoted strings: a list into its
 * members (`,`), a member into its item and parameters (`;`). A `key` or `detail` string may hold either.
 */
function splitOutsideQuotes(value: string, separator: ',' | ';'): string[] {
	const parts = [''];
	let quoted = false;
	let escaped = false;
	for (const char of value) {
		if (char === separator && !quoted) {
			parts.push('');
			continue;
		}
		if (quoted && !escaped && char === '"') quoted = false;
		else if (!quoted && char === '"') quoted = true;
		escaped = quoted && !escaped && char === '\\';
		parts[parts.length - 1] += char;
	}
	return parts.map((part) => part.trim());
}

/**
 * Whether an RFC 9211 Cache-Status value has an entry that revalidated: `fwd=stale` (the cache had
 * a copy, stale, and asked the origin about it) or `fwd-status=304` (the origin said "not
 * modified", so the kept copy was served). The other `fwd` values (bypass, method, uri-miss,
 * vary-miss, miss, request, partial) forward for a new answer; `hit` forwards nothing.
 */
function cacheStatusRevalidated(value: string): boolean {
	return cacheStatusParameters(value).some((parameters) =>
		parameters.some((parameter) => parameter === 'fwd=stale' || parameter === 'fwd-status=304'),
	);
}

/** The parameters of every entry of an RFC 9211 Cache-Status value, lower case, `name=value` without spaces. */
function cacheStatusParameters(value: string): string[][] {
	return splitOutsideQuotes(value, ',').map((entry) =>
		splitOutsideQuotes(entry, ';')
			.slice(1)
			.map((parameter) => parameter.toLowerCase().replace(/\s*=\s*/, '=')),
	);
}

/**
 * Whether a `Name: value` of CdnHeaders.cacheStatus is an RFC 9211 Cache-Status with an entry marked
 * `collapsed`: the cache answered this request with another request's fetch (its miss included), which
 * may have begun before the file was replaced or its copy purged, so the answer is as good as kept.
 */
function statusCollapsed(status: string): boolean {
	const colon = status.indexOf(':');
	if (status.slice(0, colon).trim().toLowerCase() !== 'cache-status') return false;
	return cacheStatusParameters(status.slice(colon + 1)).some((parameters) =>
		parameters.some((parameter) => parameter === 'collapsed' || parameter === 'collapsed=?1'),
	);
}

/** Whether one `Name: value` of CdnHeaders.cacheStatus names a revalidation. */
function statusRevalidated(status: string): boolean {
	const colon = status.indexOf(':');
	const value = status.slice(colon + 1);
	return status.slice(0, colon).trim().toLowerCase() === 'cache-status'
		? cacheStatusRevalidated(value)
		: REVALIDATED.test(value);
}

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
 * The answer's Age in seconds, or undefined when it has none that can be read (RFC 9111 §5.1: digits
 * only). Sent as a list (two caches' values joined), its first member counts, as RFC 9111 §5.1 has a
 * cache do. An Age that cannot be read is still a cache's (ownCacheMarks): only caches send one.
 */
export function ageSeconds(headers: CdnHeaders): number | undefined {
	const first = (headers.age ?? '').split(',')[0].trim();
	return /^\d+$/.test(first) ? Number(first) : undefined;
}

/**
 * The marks by which a cache says it revalidated one answer or one redirect (see revalidatedByCache),
 * without those of the redirects before it.
 */
export function ownRevalidationMarks(headers: CdnHeaders): string[] {
	return [
		...(REVALIDATED.test(headers.xCache ?? '') ? [`X-Cache: ${headers.xCache}`] : []),
		...(headers.cacheStatus ?? []).filter(statusRevalidated),
	];
}

/**
 * Whether an RFC 9211 Cache-Status value says every cache in it fetched the answer anew for this
 * request: `fwd=uri-miss`, `miss` or `vary-miss` (no copy it could use) with `fwd-status=200`. A
 * `fwd-status=304` is a revalidation of a stored copy, and any other `fwd` (or none) says no miss.
 */
function cacheStatusMissed(value: string): boolean {
	return cacheStatusParameters(value).every(
		(parameters) =>
			parameters.some((parameter) => MISS_FORWARDS.includes(parameter)) && parameters.includes('fwd-status=200'),
	);
}

/** RFC 9211's `fwd` values of a cache that had no copy it could use (see cacheStatusMissed). */
const MISS_FORWARDS = ['fwd=uri-miss', 'fwd=miss', 'fwd=vary-miss'];

/** Whether one `Name: value` of CdnHeaders.cacheStatus (or an X-Cache value) names a miss explicitly. */
function statusMissed(status: string): boolean {
	const colon = status.indexOf(':');
	return status.slice(0, colon).trim().toLowerCase() === 'cache-status'
		? cacheStatusMissed(status.slice(colon + 1))
		: /miss/i.test(status.slice(colon + 1));
}

/** Whether the Age is absent or 0 (every member of a list: a second cache's Age counts too). */
function ageZeroOrAbsent(headers: CdnHeaders): boolean {
	return headers.age === undefined || headers.age.split(',').every((member) => /^\s*0+\s*$/.test(member));
}

/**
 * The marks of one answer or one redirect, without those of the redirects before it (see keptByCache).
 * An answer whose caches say MISS explicitly (X-Cache: MISS, TCP_MISS, "Miss from cloudfront"; a cache
 * status MISS; RFC 9211's miss forwards, see cacheStatusMissed), none of them a hit, stale or
 * revalidated copy, with `Age: 0` (or none) is not kept: many CDNs and Varnish stamp `Age: 0` on what
 * they fetched from the origin for this request. A MISS with an Age over 0 contradicts itself, so it
 * stays kept. A cache that marks a revalidation only as MISS with `Age: 0` is not seen (docs/api-choices.md).
 */
export function ownCacheMarks(headers: CdnHeaders, minAgeSeconds = 0): string[] {
	const age = ageSeconds(headers);
	const served = (value: string) => SERVED_FROM_CACHE.test(value) || REVALIDATED.test(value);
	const marks = [
		...(served(headers.xCache ?? '') ? [`X-Cache: ${headers.xCache}`] : []),
		...(headers.cacheStatus ?? []).filter(
			(status) =>
				SERVED_FROM_CACHE.test(status.replace(/^[^:]*:/, '')) || statusRevalidated(status) || statusCollapsed(status),
		),
		...(VARNISH_HIT.test(headers.xVarnish ?? '') ? [`X-Varnish: ${headers.xVarnish}`] : []),
	];
	const statuses = [
		...(headers.xCache === undefined ? [] : [`x-cache: ${headers.xCache}`]),
		...(headers.cacheStatus ?? []),
	];
	const missed = marks.length === 0 && ageZeroOrAbsent(headers) && statuses.some(statusMissed);
	// Only caches send Age (RFC 9111 §5.1): one that cannot be read (negative, empty, a word) marks the answer all the same.
	const ageMarks = headers.age !== undefined && (age === undefined || (age >= minAgeSeconds && !missed));
	return [...(ageMarks ? [`Age: ${headers.age}`] : []), ...marks];
}

/** The marks of an answer and of every redirect that led to it, in words (hop n), or undefined. */
function marksWithRedirects(headers: CdnHeaders, marksOf: (hop: CdnHeaders) => string[]): string | undefined {
	const marks = [
		...marksOf(headers),
		...(headers.redirects ?? []).flatMap((redirect, index) => {
			const own = marksOf(redirect);
			return own.length > 0 ? [`a redirect that led to it (hop ${index + 1}): ${own.join(', ')}`] : [];
		}),
	];
	return marks.length > 0 ? marks.join(', ') : undefined;
}

/**
 * What a cache says of revalidating the answer (or a redirect that led to it), or undefined. A
 * cache that revalidates its copy (If-Modified-Since its Last-Modified, answered 304) serves its
 * kept bytes with a Date and `Age: 0` of the check (RFC 9111 §4.3.4): Date − Age dates the check,
 * not the bytes, and the storage dates versions to the second, so a same-size version written in
 * the kept one's second gets that 304. Such an answer gives no time it was fetched at.
 */
export function revalidatedByCache(headers: CdnHeaders): string | undefined {
	return marksWithRedirects(headers, ownRevalidationMarks);
}

/**
 * What a cache says of keeping the answer, or undefined when it says nothing: an `Age` of at least
 * `minAgeSeconds` (an HTTP cache MUST send one with every answer it serves from what it kept, RFC
 * 9111 §4 and §5.1; `Age: 0` too, kept less than a second, unless its caches say MISS explicitly: see
 * ownCacheMarks), an `X-Cache` or cache status naming
 * a hit in any spelling (HIT, TCP_HIT, "Hit from cloudfront", STALE, UPDATING, REVALIDATED; MISS,
 * BYPASS, EXPIRED, DYNAMIC name none) or a revalidation (revalidatedByCache), or an X-Varnish with two ids. Whatever else the
 * answer says (a Last-Modified included, and a Date and Age, which date the cache's last check with the
 * origin, not the bytes), such an answer may be an earlier version, so it is never proof of the stored one. The marks of a redirect that led to it count as its own: a
 * redirect a cache kept may point at an earlier version's URL, whose own answer is then unmarked.
 */
export function keptByCache(headers: CdnHeaders, minAgeSeconds = 0): string | undefined {
	return marksWithRedirects(headers, (hop) => ownCacheMarks(hop, minAgeSeconds));
}

/**
 * What a cache says of keeping an answer of the API itself (not a link it handed out), or
 * undefined. Such an answer is never the service's word now: the transport refuses it (see
 * docs/api-choices.md). `Age: 0` alone is not read as kept here: gateways (Varnish, some CDNs)
 * stamp it on every answer they forward, so it would fail every call; a CDN's `Age: 0` still
 * counts (files/proof.ts), unless its caches say MISS explicitly (ownCacheMarks): its answer is no proof of the version.
 */
export function apiAnswerKept(headers: Record<string, unknown> | undefined): string | undefined {
	return keptByCache(cdnHeadersOf(headers), 1);
}
