/**
 * What answers show to the decisions of proof.ts, in words: the API's failed answers (only its own
 * 404, its JSON error, shows a file absent or nothing cached; any other failure shows nothing), and
 * a CDN answer a cache kept that gives no time it was fetched at.
 */
import { isApiNotFoundAnswer } from '../transport/apiAnswer';
import { revalidatedByCache, type CdnHeaders } from '../transport/cacheMarks';

/** What the API's answer to "is a file at this key" (a signed-link request) shows. */
export type Existence = 'exists' | 'absent' | 'unknown';

/**
 * A link given: the file exists. Only the API's own 404 (its JSON error) shows it absent; any
 * other failure (a 5xx, a 403, a proxy's or web server's 404 page) shows nothing, and a step that
 * must not write over a file then refuses.
 */
export function existenceOf(answer: { linked: true } | { httpCode?: string | null; body?: unknown }): Existence {
	if ('linked' in answer) return 'exists';
	return answer.httpCode === '404' && isApiNotFoundAnswer(answer.body) ? 'absent' : 'unknown';
}

/**
 * A failed purge of a public source's cache: only the API's own 404 shows nothing is cached (the
 * read goes on, its answer still judged by sourceReadDecision); anything else leaves the cache as
 * it was, and nothing is copied.
 */
export function purgeFailure(answer: { httpCode?: string | null; body?: unknown }): 'nothing-cached' | 'refuse' {
	return answer.httpCode === '404' && isApiNotFoundAnswer(answer.body) ? 'nothing-cached' : 'refuse';
}

/**
 * Why an answer a cache kept gives no time it was fetched at (proof.ts, fetchedNoEarlierThan), so
 * it is no proof of the version, for a source read, a download and Move's read-back alike. A
 * revalidated copy is named as such: its Date and Age are those of the cache's check (RFC 9111
 * §4.3.4), not of its bytes, and a same-size version written in the kept one's second passes that
 * check. Otherwise its headers lack a Date or an Age.
 */
export function undatedKeptAnswer(headers: CdnHeaders, kept: string): string {
	const revalidated = revalidatedByCache(headers);
	if (revalidated) {
		return `a cache revalidated its copy of the CDN's answer (${revalidated}), so the answer cannot be dated: a revalidation dates the cache's check with the origin, not the bytes it kept, which may be an earlier version of the same size`;
	}
	return `a cache says it kept the CDN's answer (${kept}), and its headers do not say since when (a Date and an Age)`;
}
