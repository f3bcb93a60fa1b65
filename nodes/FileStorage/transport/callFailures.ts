import type { IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { waitTooLongHint, type NetworkFacts, type StatusFacts } from './attempts';
import { targetOf, timeoutHint, type ApiCall, type TransportSettings } from './call';
import { httpError, networkError } from './errors';
import { serviceNetworkReason, type NetworkProblem } from './networkErrors';

/** The errors of a call to the service or to a link it handed out, once the attempts are over. */

export interface CallSite {
	node: INode;
	itemIndex: number;
	/** The Base URL's origin, for errors that name the server. */
	origin: string;
	settings: TransportSettings;
}

export function callNetworkFailure(
	site: CallSite,
	call: ApiCall,
	problem: NetworkProblem,
	facts: NetworkFacts,
): NodeApiError {
	const { node, itemIndex } = site;
	if (problem.refusal) {
		const { message, description } = problem.refusal;
		return networkError(node, {
			what: call.what,
			reason: message,
			attempts: facts.attempts,
			itemIndex,
			description,
			timedOut: false,
		});
	}
	const reason = facts.stopped ? 'the execution was stopped' : serviceNetworkReason(problem);
	const hint = problem.timedOut
		? timeoutHint(call, site.settings)
		: `Network error${problem.code ? ` ${problem.code}` : ''}. Check the Base URL of the credential and that the service is reachable from the n8n host.`;
	return networkError(node, {
		what: call.what,
		reason,
		attempts: facts.attempts,
		itemIndex,
		description: hint,
		timedOut: problem.timedOut,
	});
}

export function callStatusFailure(
	site: CallSite,
	call: ApiCall,
	answer: IN8nHttpFullResponse,
	facts: StatusFacts,
): NodeApiError {
	const failure = httpError(
		site.node,
		call.what,
		{
			status: answer.statusCode,
			body: answer.body,
			serverDate: answer.headers?.date as string | undefined,
			attempts: facts.attempts,
			link: call.link,
			origin: site.origin,
			target: targetOf(call),
		},
		site.itemIndex,
	);
	if (facts.waitTooLongMs !== undefined) {
		failure.description = waitTooLongHint('The service', facts.waitTooLongMs);
	}
	failure.context.earlierAttemptMayHaveRun = facts.earlierMayHaveRun;
	return failure;
}

/**
 * An answer of the API that a cache between n8n and the API says it kept (`marks`: its words, see
 * apiAnswerKept): it may be of a moment before, so nothing is decided on it (a delete or a
 * replacement least of all). Not retried: the cache would answer the same until it lets go.
 */
export function callKeptFailure(site: CallSite, call: ApiCall, marks: string): NodeApiError {
	const error = new NodeApiError(site.node, { cacheMarks: marks } as JsonObject, {
		message: `${call.what} failed: a cache between n8n and the API answered from its copy (${marks}), which may be of an earlier moment: what the service stores now could not be told, so nothing was decided on it`,
		description: `Exempt the API at ${site.origin} from the cache of the gateway or proxy in front of it (its answers change from moment to moment); nothing was deleted or replaced on this answer.`,
		itemIndex: site.itemIndex,
	});
	error.context.keptByCache = true;
	return error;
}
