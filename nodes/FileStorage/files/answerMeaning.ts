/**
 * What the API's failed answers show to the decisions of proof.ts: only its own 404 (its JSON error)
 * shows a file absent or nothing cached; any other failure shows nothing.
 */
import { isApiNotFoundAnswer } from '../transport/apiAnswer';

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
