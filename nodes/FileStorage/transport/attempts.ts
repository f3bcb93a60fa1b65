import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { timeOf } from '../listing/listingTime';
import {
	describeNetworkProblem,
	mayRetryNetworkProblem,
	NEVER_SENT_NETWORK_CODES,
	type NetworkProblem,
} from './networkErrors';
import { mustCheckBeforeSend } from './looks';
import { answeredOutcome, networkOutcome } from './outcome';
import { releaseWithBody, type RunPool } from './pool';

/**
 * The one attempt loop of the node: every outgoing request (the API, the links it hands out, a
 * Source URL) is sent, judged and sent again here, with the same policy, backoff, Retry-After,
 * pause of the run's pool and end on a stopped execution.
 */

/**
 * When a failed request may be sent again. Retrying is only safe where repeating the
 * request cannot create a second side effect: reads, replacing uploads and parts, and
 * cancelling/completing (whose repeat the service refuses rather than duplicates).
 * Starting an upload is only retried when the service says it did not process it.
 */
export type RetryPolicy = 'idempotent' | 'notProcessed' | 'never';

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
/** Answers that say the request was not carried out (overloaded, come back later). */
export const NOT_PROCESSED_STATUSES: ReadonlySet<number> = new Set([429, 503]);
export const BASE_BACKOFF_MS = 300;
const MAX_BACKOFF_MS = 20_000;
/** A service asking to wait longer than this is not waited for: the error says how long it asked. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** How long the server asked to wait (Retry-After as seconds or as a date), uncapped. */
export function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (value === undefined) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(seconds * 1000, 0);
	const date = timeOf(String(value));
	return date === undefined ? undefined : Math.max(date - Date.now(), 0);
}

function backoffMs(attempt: number): number {
	const exponential = Math.min(BASE_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS);
	return exponential / 2 + Math.random() * (exponential / 2);
}

/**
 * How long to wait before the next attempt of a request that failed: what the server asked
 * (Retry-After) or else a backoff. Above MAX_RETRY_AFTER_MS it is not waited for (see waitTooLongHint).
 */
export function retryWaitMs(headers: IDataObject | undefined, attempt: number): number {
	return retryAfterMs(headers) ?? backoffMs(attempt);
}

/** Why an answer was not retried after all: `who` ('The service', 'The source') asked for a longer wait. */
export function waitTooLongHint(who: string, waitMs: number): string {
	return `${who} asked to wait ${Math.round(waitMs / 1000)} s before trying again, longer than the ${MAX_RETRY_AFTER_MS / 1000} s this node waits within one run. Run it again later.`;
}

function mayRetryStatus(policy: RetryPolicy, status: number): boolean {
	if (policy === 'idempotent') return RETRYABLE_STATUSES.has(status);
	if (policy === 'notProcessed') return NOT_PROCESSED_STATUSES.has(status);
	return false;
}

/** The part of the run's pool (pool.ts) the loop uses: every request of the run waits out a pause. */
export interface Pausable {
	pause(ms: number): void;
}

/** What the loop knew when it gave up on an answer. */
export interface StatusFacts {
	attempts: number;
	/** Set when the answer could have been retried but asked to wait longer than MAX_RETRY_AFTER_MS. */
	waitTooLongMs?: number;
	/** An attempt before the last may have been carried out (see runAttempts). */
	earlierMayHaveRun: boolean;
	/** Some attempt, the last included, ended with its outcome unknown (outcome.ts): it may still be carried out. */
	outcomeUnknown?: boolean;
}

export interface NetworkFacts {
	attempts: number;
	/** The execution was stopped: that, not the network, ended the request. */
	stopped: boolean;
	/** What was thrown, for a caller whose own failure (e.g. a refused redirect) ends an attempt. */
	error: unknown;
	/** As StatusFacts.outcomeUnknown. */
	outcomeUnknown?: boolean;
}

export interface AttemptPlan<A extends IN8nHttpFullResponse> {
	policy: RetryPolicy;
	maxRetries: number;
	/**
	 * One attempt: a request built afresh (authentication signs each one anew). `beforeGoing`, when
	 * given, runs right before the request goes out, after every wait (the pool's slot and pause):
	 * what it checks is then still true when the request leaves. `waited`: the attempt had to wait
	 * for its slot (a pause of the pool, or no slot free), see checkFirst.
	 */
	send: (beforeGoing?: (waited: boolean) => Promise<void>) => Promise<A>;
	/** True once the execution was stopped: no attempt follows. */
	stopped?: () => boolean;
	/** The run's pool: a 429/503 pauses every request of the run, so items do not burst retries. */
	pool?: Pausable;
	/** The request takes no slot of the pool (a detached clean-up call): it waits out a pause itself. */
	outsidePool?: boolean;
	/** A non-2xx answer made ready to judge (its body read); `done`: it is the answer after all. */
	settle?: (answer: A) => Promise<{ answer: A; done?: boolean }>;
	networkFailure: (problem: NetworkProblem, facts: NetworkFacts) => Error;
	statusFailure: (answer: A, facts: StatusFacts) => Error;
	/**
	 * Asked right before each attempt after the first goes out (send's `beforeGoing`): it throws to
	 * send no more (a delete whose key no longer holds what it was decided on, a write that must not
	 * replace whose key was taken: see ApiCall.resendCheck).
	 */
	beforeResend?: (facts: { attempts: number; earlierMayHaveRun: boolean; outcomeUnknown: boolean }) => Promise<void>;
	/**
	 * When beforeResend is asked before the first attempt too (looks.ts). 'always' (ResendCheck's
	 * `first`: an upload in one request, whose source was read and memory waited for after its
	 * caller's check). 'afterWait': only when something waited since the caller's look
	 * (`waitedSinceLook`), or, without one, when the attempt had to wait for its slot of the run's pool.
	 * Without a wait the caller's check was answered a moment before the send, which a check in the
	 * slot would not shorten (its own answer comes as late): the first send costs one more request
	 * only when something waited, nothing in a run without pauses, queues or retries.
	 */
	checkFirst?: 'always' | 'afterWait';
	/** Whether any request of the caller waited since its look (looks.ts; WaitCount.since). */
	waitedSinceLook?: () => boolean;
	/** Called for every wait: before a retry (its sleep, or the pool's pause), and a wait for the slot. */
	onWait?: () => void;
	/** True for an answer that is the API's own error body (a 4xx of it says: not carried out, see outcome.ts). */
	apiRefusal?: (answer: A) => boolean;
	/** Called each time an attempt ends with its outcome unknown (outcome.ts), before any repeat. */
	onOutcomeUnknown?: () => void;
}

interface LoopState {
	earlierMayHaveRun: boolean;
	outcomeUnknown: boolean;
}

type Step<A> = { answer: A } | { again: true };

/**
 * Sends until an answer is 2xx (or settled as done) or a failure may not be retried, and then
 * throws the plan's error for it. Two readings of the attempts, each erring on its own safe side:
 * - `earlierMayHaveRun`: whether a repeat's 404 may be read as "done by an earlier attempt" (a
 *   success). It counts only what hints at work done: an answer lost on the way back, a
 *   500/502/504. After a 429/503 (the API's "not processed") or a refused connection it does not,
 *   and the 404 stays an error.
 * - `outcomeUnknown` (outcome.ts): whether an attempt may still be carried out later (a write
 *   that may land on another item's file). Only the API's own 4xx and a request that never left
 *   rule that out; a 503 does not.
 */
export async function runAttempts<A extends IN8nHttpFullResponse>(plan: AttemptPlan<A>): Promise<A> {
	const state: LoopState = { earlierMayHaveRun: false, outcomeUnknown: false };
	for (let attempt = 0; ; attempt++) {
		const check = plan.beforeResend;
		const withheld: { error?: unknown } = {};
		const facts = {
			attempts: attempt,
			earlierMayHaveRun: state.earlierMayHaveRun,
			outcomeUnknown: state.outcomeUnknown,
		};
		const beforeGoing = async (waited: boolean) => {
			if (waited) plan.onWait?.();
			if (!check || !mustCheck(plan, attempt, waited)) return;
			await check(facts).catch((error) => {
				withheld.error = error;
				throw error;
			});
		};
		let answer: A;
		try {
			answer = await plan.send(beforeGoing);
		} catch (error) {
			// The check withheld the request: it never went out, and this is the call's end.
			if (withheld.error !== undefined) throw withheld.error;
			await retryAfterNetworkFailure(plan, attempt, error, state);
			continue;
		}
		const step = await judgeAnswer(plan, attempt, answer, state);
		if ('answer' in step) return step.answer;
	}
}

/** Whether beforeResend is asked before this attempt goes out (see checkFirst). */
function mustCheck<A extends IN8nHttpFullResponse>(plan: AttemptPlan<A>, attempt: number, waited: boolean): boolean {
	const afterWait = plan.checkFirst === 'afterWait';
	return mustCheckBeforeSend({
		attempt,
		always: plan.checkFirst === 'always',
		waitedSinceLook: afterWait && (waited || plan.waitedSinceLook?.() === true),
	});
}

async function retryAfterNetworkFailure<A extends IN8nHttpFullResponse>(
	plan: AttemptPlan<A>,
	attempt: number,
	error: unknown,
	state: LoopState,
): Promise<void> {
	const problem = describeNetworkProblem(error);
	if (networkOutcome(problem) === 'unknown') outcomeUnknown(plan, state);
	const stopped = !problem.refusal && plan.stopped?.() === true;
	const retry =
		!stopped && attempt < plan.maxRetries && plan.policy === 'idempotent' && mayRetryNetworkProblem(problem);
	if (!retry) {
		throw plan.networkFailure(problem, { attempts: attempt + 1, stopped, error, outcomeUnknown: state.outcomeUnknown });
	}
	state.earlierMayHaveRun ||= !NEVER_SENT_NETWORK_CODES.has(problem.code);
	plan.onWait?.();
	await sleep(backoffMs(attempt));
}

async function judgeAnswer<A extends IN8nHttpFullResponse>(
	plan: AttemptPlan<A>,
	attempt: number,
	answer: A,
	state: LoopState,
): Promise<Step<A>> {
	const status = answer.statusCode;
	if (status >= 200 && status < 300) return { answer };
	const settled = plan.settle ? await plan.settle(answer) : { answer };
	if (settled.done) return { answer: settled.answer };
	if (answeredOutcome(status, plan.apiRefusal?.(settled.answer) === true) === 'unknown') outcomeUnknown(plan, state);
	const waitMs = retryWaitMs(answer.headers, attempt);
	const pauseAll = plan.pool !== undefined && NOT_PROCESSED_STATUSES.has(status) && waitMs <= MAX_RETRY_AFTER_MS;
	if (pauseAll) plan.pool!.pause(waitMs);
	const mayRetry = attempt < plan.maxRetries && mayRetryStatus(plan.policy, status) && plan.stopped?.() !== true;
	if (mayRetry && waitMs <= MAX_RETRY_AFTER_MS) {
		state.earlierMayHaveRun ||= !NOT_PROCESSED_STATUSES.has(status);
		plan.onWait?.();
		// With the pool paused, the next attempt waits in the pool, in its turn.
		if (!pauseAll || plan.outsidePool === true) await sleep(waitMs);
		return { again: true };
	}
	throw plan.statusFailure(settled.answer, {
		attempts: attempt + 1,
		waitTooLongMs: mayRetry ? waitMs : undefined,
		earlierMayHaveRun: state.earlierMayHaveRun,
		outcomeUnknown: state.outcomeUnknown,
	});
}

function outcomeUnknown<A extends IN8nHttpFullResponse>(plan: AttemptPlan<A>, state: LoopState): void {
	state.outcomeUnknown = true;
	plan.onOutcomeUnknown?.();
}

/**
 * One attempt in a slot of the run's pool, when there is one. A streamed answer (a download)
 * holds its slot until its body is done with, so downloads count against the pool too; an
 * answer without a body to read (`bodyless`: a HEAD) gives it back at once. A 429/503 pauses the
 * pool before the slot goes to the next request, which would otherwise go out at once.
 */
export async function inPoolSlot(
	pool: RunPool,
	attempt: (waited: boolean) => Promise<IN8nHttpFullResponse>,
	bodyless: boolean,
): Promise<IN8nHttpFullResponse> {
	const { giveBack, waited } = await pool.takeSlot();
	let response: IN8nHttpFullResponse | undefined;
	try {
		response = await attempt(waited);
	} finally {
		if (!response) giveBack();
	}
	const asked = retryAfterMs(response.headers);
	if (NOT_PROCESSED_STATUSES.has(response.statusCode) && (asked ?? 0) <= MAX_RETRY_AFTER_MS) {
		pool.pause(asked ?? BASE_BACKOFF_MS);
	}
	// A HEAD is over once its headers are in: nothing of it holds the connection after that.
	if (bodyless) giveBack();
	else releaseWithBody(response.body, giveBack);
	return response;
}
