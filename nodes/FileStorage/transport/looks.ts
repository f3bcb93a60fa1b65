/**
 * How old a look is when a destructive request acts on it. A delete decided on a listing, or a write
 * that must not replace a file, acts on what the service answered a moment before (a "look"). The API
 * has no conditional delete or write, so what may come between that answer and the request reaching
 * the service is only one answer's way, never a wait: a Retry-After, a backoff, a retry after no answer,
 * a pause of the run's pool or a wait for a slot of it. Each of those can last seconds, in which another
 * writer's file lands unseen.
 *
 * So every client (one per item) counts each wait its requests make: a look notes the count (and the
 * time: a wait the node cannot see, LookMark) when it starts (FileStorageClient.waits.mark(), kept as ResendCheck.lookedAt), and a send whose look is older
 * than a wait is checked again in its slot, right before it goes (AttemptPlan.checkFirst). That check
 * is a look too: one during which anything waited is no proof, and is asked again (checkVerdict).
 */

import { steadyMs } from './clock';

/**
 * A look's start: the wait count and the time then. Time counts too: a wait the node cannot see (a
 * gateway or rate limiter that holds a request or its answer without a 429/503, the event loop busy
 * with other items) is as long a window for another writer as a Retry-After.
 */
export interface LookMark {
	count: number;
	at: number;
}

/**
 * A look older than this when its destructive request is about to go, or a check that took longer, is
 * stale: asked again. Above two listings' way to a service near n8n, under the 3 s a slow gateway or a
 * short Retry-After holds a request; each check is held to it again (MOST_CHECKS).
 */
export const FRESH_LOOK_MS = 2000;

/** The waits of one client's requests (an item's): a count only compared, never reset. */
export class WaitCount {
	private count = 0;

	/** A request waited (a retry's sleep, a retry after no answer, a wait for its slot or a pause of the pool). */
	note(): void {
		this.count += 1;
	}

	/** The count and the time now: taken when a look starts, compared when its request is about to go. */
	mark(): LookMark {
		return { count: this.count, at: steadyMs() };
	}

	/** Whether anything waited since `mark`, or it is older than FRESH_LOOK_MS. */
	since(mark: LookMark): boolean {
		return this.count !== mark.count || steadyMs() - mark.at > FRESH_LOOK_MS;
	}
}

/** How often the check in the slot is asked when each time something waited during it. */
export const MOST_CHECKS = 3;

/**
 * Whether a destructive request is checked in its slot before this attempt goes out: every repeat
 * (an earlier attempt may have been carried out), a first send that always is (`always`: an upload in
 * one request), and a first send whose look is older than a wait (`waitedSinceLook`). A first send
 * whose look nothing waited after is not checked again: the check would end as close to the send as
 * the look did, and cost a request.
 */
export function mustCheckBeforeSend(facts: { attempt: number; always: boolean; waitedSinceLook: boolean }): boolean {
	return facts.attempt > 0 || facts.always || facts.waitedSinceLook;
}

/**
 * What the check in the slot found, given whether anything waited while it was asked. 'send' is proof
 * only when nothing waited: a look at the source, then a wait, then a look at the destination says
 * nothing of the source after the wait. Such a check is asked again ('again'), at most MOST_CHECKS
 * times; then 'unsettled': nothing is sent. Any other finding withholds the request, which is safe
 * whatever waited.
 */
export function checkVerdict<D extends string>(
	decision: D,
	waitedDuring: boolean,
	asked: number,
): D | 'again' | 'unsettled' {
	if (decision !== 'send' || !waitedDuring) return decision;
	return asked < MOST_CHECKS ? 'again' : 'unsettled';
}

/** Why a check stayed unsettled, in words for its error. */
export const UNSETTLED_WORDS = `the node had to wait (the service asked it to, a request was repeated, or the answers took over ${FRESH_LOOK_MS / 1000} s) during each of ${MOST_CHECKS} checks in a row, so none showed the file as it is when the request would go`;
