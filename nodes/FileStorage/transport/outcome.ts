import { NodeApiError } from 'n8n-workflow';

import { NEVER_SENT_NETWORK_CODES, type NetworkProblem } from './networkErrors';

/**
 * The one reading of what became of a request that did not succeed: was it carried out? Only two
 * kinds of failure say it was not:
 * - the API's own refusal: a 4xx answer with the API's JSON error body (spec §2). The service
 *   looked at the request and turned it down.
 * - a failure before the request left: n8n refused where it goes (SSRF protection), the host name
 *   did not resolve, or nothing accepted the connection (NEVER_SENT_NETWORK_CODES).
 * Everything else leaves the outcome unknown: no answer in time, a connection cut after the
 * request went out, any 5xx (the API's or a gateway's: a gateway's 504 means it stopped waiting,
 * not that the service stopped working), any answer not the API's (a proxy's page). A write with
 * an unknown outcome may still land, later, on whatever another item stored there since
 * (docs/api-choices.md, "What became of a failed write").
 */
export type AttemptOutcome = 'notCarriedOut' | 'unknown';

/** A non-2xx answer: `apiRefusal` when it carries the API's own JSON error body (isApiErrorAnswer). */
export function answeredOutcome(status: number, apiRefusal: boolean): AttemptOutcome {
	return status >= 400 && status < 500 && apiRefusal ? 'notCarriedOut' : 'unknown';
}

/** A request that got no answer. */
export function networkOutcome(problem: NetworkProblem): AttemptOutcome {
	return problem.refusal || NEVER_SENT_NETWORK_CODES.has(problem.code) ? 'notCarriedOut' : 'unknown';
}

/**
 * Whether a write that failed with `error` may still be carried out: false only when the transport
 * read every attempt of it as not carried out (see above). Any other error (one made after a 2xx
 * answer, a check that withheld a repeat) leaves it possible.
 */
export function writeMayStillLand(error: unknown): boolean {
	return !(error instanceof NodeApiError && error.context?.outcomeUnknown === false);
}
