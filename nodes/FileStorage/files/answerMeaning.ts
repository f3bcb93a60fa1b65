/**
 * What answers show to the decisions of proof.ts, in words: the API's failed answers (only its own
 * 404, its JSON error, shows a file absent or nothing cached; any other failure shows nothing), and
 * why a CDN answer a cache marks as kept is no proof of the version.
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
 * Why an answer a cache marks as kept (keptByCache: on it or on a redirect that led to it) is no
 * proof of the version, for a source read, a download and Move's read-back alike, and what to do.
 * Its Date and Age date the cache's last check with the origin (RFC 9111 §4.2.3, §4.3.4), not the
 * bytes it kept: after a 304 a cache serves them as a plain hit with a small Age, and a same-size
 * version written in the kept one's second passes that check (proof.ts, fetchedNoEarlierThan).
 */
export function keptAnswerUnproven(headers: CdnHeaders, kept: string): string {
	const revalidated = revalidatedByCache(headers);
	const marked = revalidated
		? `a cache revalidated its copy of the CDN's answer (${revalidated})`
		: `a cache marked the CDN's answer as kept (${kept})`;
	return `${marked}, so its bytes cannot be shown to be the version the service stores: a cache's Date and Age date its last check with the origin, not the bytes it kept, which may be an earlier version of the same size. Run the node again once the CDN serves the file fresh (no hit mark, no Age), after clearing the cache that marked it (File → Purge CDN Cache clears the service's CDN; a proxy of your own in front of it needs its own purge), or let reads of the files bypass that cache`;
}
