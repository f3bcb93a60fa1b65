import type { IDataObject } from 'n8n-workflow';

import { refusedByN8n, type N8nRefusal } from './ssrf';

/**
 * The one reading of a request that failed without an answer, for every request the node sends:
 * the service's API, the links it hands out (downloads, Get Info, a copy's source) and a Source
 * URL. Whether to try again is decided here alone, so no kind of request retries what another
 * gives up on.
 */

/**
 * The network failures worth another attempt: the connection broke or could not be made, and a
 * new one may well work. Each, and why:
 * - ECONNRESET: the peer (or a proxy, a load balancer dropping an idle keep-alive connection) reset
 *   the connection; the next connection is a new one.
 * - EPIPE: the peer closed the connection while the request was still being written (a kept-alive
 *   socket closed under it); the same cause as ECONNRESET, seen while sending.
 * - ECONNREFUSED: nothing listened at that moment (a service restarting, a pod being replaced);
 *   the request never reached it, so even a start of an upload may go again.
 * - ECONNABORTED: the HTTP client gave the connection up mid-request for a reason other than the
 *   timeout (a timeout is never retried, see below).
 * - ERR_STREAM_PREMATURE_CLOSE: a stream of the request closed before its end (the connection
 *   went away while a body was sent); a broken connection as ECONNRESET is.
 * - EAI_AGAIN: the resolver failed for now (DNS timed out); unlike ENOTFOUND it is no answer that
 *   the name does not exist.
 * Until issue 31 a Source URL did not retry ERR_STREAM_PREMATURE_CLOSE while every other request
 * did; a broken connection is as passing for a source as for the service.
 */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'EPIPE',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ERR_STREAM_PREMATURE_CLOSE',
	'EAI_AGAIN',
]);

/** Failures that happen before a request reaches the service: it cannot have been carried out. */
export const NEVER_SENT_NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export interface NetworkProblem {
	/** The first error code along the error and its causes ('' when none). */
	code: string;
	timedOut: boolean;
	/** The request was aborted on purpose (the execution was stopped). */
	cancelled: boolean;
	/** Node's words for a connection closed before the answer ('socket hang up'). */
	hungUp: boolean;
	/** n8n refused where the request goes (SSRF protection): it never left n8n. */
	refusal?: N8nRefusal;
}

/** What went wrong with a request that got no answer; n8n's HTTP client nests the cause a few levels deep. */
export function describeNetworkProblem(error: unknown): NetworkProblem {
	const candidates: IDataObject[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		candidates.push(current as IDataObject);
		current = (current as IDataObject).cause;
	}
	const found = String(candidates.map((c) => c.code).find((c) => typeof c === 'string' && c !== '') ?? '');
	const text = candidates.map((c) => String(c.message ?? '')).join(' ');
	const cancelled =
		found === 'ERR_CANCELED' || candidates.some((c) => c.name === 'CanceledError' || c.name === 'AbortError');
	const timedOut = !cancelled && (/timeout|timed out/i.test(text) || found === 'ETIMEDOUT');
	const hungUp = /socket hang up/i.test(text);
	// A hang-up without a code is a reset connection.
	const code = found || (hungUp ? 'ECONNRESET' : '');
	return { code, timedOut, cancelled, hungUp, refusal: refusedByN8n(error) };
}

/**
 * Whether a request that failed so may go again. A timeout means the other side stopped
 * answering: retrying would multiply the wait. A stopped execution and n8n's refusal end it.
 */
export function mayRetryNetworkProblem(problem: NetworkProblem): boolean {
	return !problem.refusal && !problem.timedOut && !problem.cancelled && RETRYABLE_NETWORK_CODES.has(problem.code);
}

/** The service's (or a link's) network failure in words, for the node's error. */
export function serviceNetworkReason(problem: NetworkProblem): string {
	const { code } = problem;
	if (problem.cancelled) return 'the execution was stopped';
	if (problem.timedOut) return 'no response from the service within the timeout';
	if (code === 'ECONNRESET' || problem.hungUp) return 'the connection was closed by the service mid-request';
	if (code === 'ECONNREFUSED') return 'the service refused the connection (is the Base URL right and the service up?)';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name of the Base URL could not be resolved';
	if (code === 'ECONNABORTED') return 'the request was aborted';
	return 'the request could not be sent';
}
