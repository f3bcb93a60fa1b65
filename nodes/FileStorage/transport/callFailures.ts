import type { IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { waitTooLongHint, type NetworkFacts, type StatusFacts } from './attempts';
import { targetOf, timeoutHint, type ApiCall, type TransportSettings } from './call';
import { httpError, networkError } from './errors';
import { serviceNetworkReason, type NetworkProblem } from './networkErrors';
import { checkVerdict, UNSETTLED_WORDS } from './looks';
import type { FileStorageClient } from './request';
import { RedirectRefused } from './redirects';

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
		const refused = networkError(node, {
			what: call.what,
			reason: message,
			attempts: facts.attempts,
			itemIndex,
			description,
			timedOut: false,
		});
		refused.context.outcomeUnknown = facts.outcomeUnknown === true;
		return refused;
	}
	const redirected = facts.error instanceof RedirectRefused && !facts.stopped;
	const reason = facts.stopped
		? 'the execution was stopped'
		: redirected
			? (facts.error as Error).message
			: serviceNetworkReason(problem);
	const hint = problem.timedOut
		? timeoutHint(call, site.settings)
		: redirected
			? "The CDN's redirects lead nowhere usable. Run the node again; if it goes on, check the CDN's configuration."
			: `Network error${problem.code ? ` ${problem.code}` : ''}. Check the Base URL of the credential and that the service is reachable from the n8n host.`;
	const error = networkError(node, {
		what: call.what,
		reason,
		attempts: facts.attempts,
		itemIndex,
		description: hint,
		timedOut: problem.timedOut,
	});
	// What became of the request (outcome.ts): a write that may still land is marked by its caller.
	error.context.outcomeUnknown = facts.outcomeUnknown !== false;
	return error;
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
	failure.context.outcomeUnknown = facts.outcomeUnknown !== false;
	return failure;
}

/**
 * An answer of the API that a cache between n8n and the API says it kept (`marks`: its words, see
 * apiAnswerKept): it may be of a moment before, so nothing is decided on it (a delete or a
 * replacement least of all). Not retried: the cache would answer the same until it lets go.
 */
export function callKeptFailure(site: CallSite, call: ApiCall, marks: string): NodeApiError {
	const exempt = `Exempt the API at ${site.origin} from the cache of the gateway or proxy in front of it (its answers change from moment to moment)`;
	// A write went out: whether the service carried it out is not known (outcome.ts), whatever the answer says.
	const write = call.method !== 'GET' && call.method !== 'HEAD';
	const error = new NodeApiError(site.node, { cacheMarks: marks } as JsonObject, {
		message: write
			? `${call.what} may have been carried out: its answer came marked as a cache's copy (${marks}), so whether the service did it could not be told`
			: `${call.what} failed: a cache between n8n and the API answered from its copy (${marks}), which may be of an earlier moment: what the service stores now could not be told, so nothing was decided on it`,
		description: write
			? `${exempt}. The request reached the gateway and the service may have done it: check the file (File → Get Info) before running the node again; the rest of this run leaves its key alone.`
			: `${exempt}; nothing was deleted or replaced on this answer.`,
		itemIndex: site.itemIndex,
	});
	error.context.keptByCache = true;
	if (write) error.context.outcomeUnknown = true;
	return error;
}

/**
 * Why a call was not sent again: what the check before the repeat found (see ApiCall.resendCheck);
 * 'unsettled': something waited during each of its checks (looks.ts).
 */
export type WithheldResend = 'gone' | 'keep' | 'unknown' | 'unsettled';

/** What the attempt loop knew when the check ran (see AttemptPlan.beforeResend). */
export interface ResendFacts {
	attempts: number;
	/** An earlier attempt hints at work done (an answer lost, a 500/502/504). */
	earlierMayHaveRun: boolean;
	/** An earlier attempt's outcome is unknown (outcome.ts: any 5xx, no answer in time): it may have been carried out. */
	outcomeUnknown: boolean;
}

/** A delete withheld (its repeat, or its first send after a wait for the pool): why, and what the rule is. */
function deleteWithheld(found: WithheldResend, facts: ResendFacts) {
	const earlier = facts.earlierMayHaveRun ? 'may have been carried out (its answer was lost, or a 5xx)' : 'failed';
	const words: Record<WithheldResend, string> = {
		gone: "the service's listing no longer shows the file",
		keep: "the service's listing shows another version there now, which was kept",
		unknown: "the service's listing could not be read to check the file first",
		unsettled: UNSETTLED_WORDS,
	};
	const rule =
		facts.attempts === 0
			? "The node had to wait after it listed the file (the service asked it to wait, a request was repeated, or every slot of the run's request pool was busy), so the file was listed again right before the delete"
			: `An earlier attempt ${earlier}`;
	const byHand =
		found === 'unsettled'
			? ' Nothing was deleted: check the file (File → Get Info) and delete it with File → Delete once the service is less busy.'
			: '';
	return {
		why: words[found],
		description: `${rule}; a delete is sent only while the file is the one it was decided on.${byHand}`,
	};
}

/** A write withheld before its first send: a file stored at the key after the caller's own check. */
function firstWriteWithheld(found: WithheldResend) {
	return {
		why:
			found === 'keep'
				? 'a file was stored at its key after the node checked it was free (while the source was read, or the upload waited for its turn), and it was kept'
				: found === 'unsettled'
					? `whether its key is still free could not be shown right before it was sent: ${UNSETTLED_WORDS}`
					: 'whether its key is still free could not be checked right before it was sent',
		description:
			'This write must not replace a file (Refuse Existing File on, or Replace Existing File off), so the key is checked again right before it is sent: nothing was sent and nothing replaced. Check the key with File → Get Info; to replace the file, turn the option off, or pick another key.',
	};
}

/** A write's repeat withheld (it must not replace a file): why, what may be at the key, and what to do. */
function writeWithheld(found: WithheldResend, facts: ResendFacts) {
	if (facts.attempts === 0) return firstWriteWithheld(found);
	const why =
		found === 'keep'
			? 'a file is at its key now, and it was kept'
			: found === 'unsettled'
				? `whether its key is still free could not be shown: ${UNSETTLED_WORDS}`
				: 'whether its key is still free could not be checked';
	const earlier = facts.outcomeUnknown
		? "An earlier attempt may have been carried out (a 5xx, a gateway's 504 or no answer in time): a file at the key may be this item's own upload, or another writer's."
		: 'An earlier attempt was not carried out.';
	return {
		why,
		description: `${earlier} This write must not replace a file (Refuse Existing File on, or Replace Existing File off), so it is sent again only onto a key found free just before: nothing was replaced by a repeat. Check the key with File → Get Info before running the node again.`,
	};
}

/**
 * The check's finding, asked again while anything waited during it (a 'send' is proof only then:
 * checkVerdict); 'unsettled' after MOST_CHECKS such asks. `via`'s waits are its item's (looks.ts).
 */
async function settledFinding(check: NonNullable<ApiCall['resendCheck']>, via: FileStorageClient) {
	for (let asked = 1; ; asked++) {
		const mark = via.waits.mark();
		const verdict = checkVerdict(await check.ask(via), via.waits.since(mark), asked);
		if (verdict !== 'again') return verdict;
	}
}

/**
 * A call whose earlier attempt may have been carried out (its answer lost, a 5xx) is sent again only
 * after its caller's check says a repeat is safe (a delete: the key still holds what it was decided
 * on; a write that must not replace: the key is still free); otherwise this throws, saying why in
 * the words of the call's kind. It runs right before the repeat goes out, its slot of the run's
 * pool taken: `via` asks the service in that slot, and nothing waits between its last answer and the send.
 */
export async function checkBeforeResend(
	site: CallSite,
	call: ApiCall,
	facts: ResendFacts,
	via: FileStorageClient,
): Promise<void> {
	const check = call.resendCheck;
	if (!check) return;
	let found: WithheldResend;
	let problem = '';
	try {
		const finding = await settledFinding(check, via);
		if (finding === 'send') return;
		found = finding;
	} catch (error) {
		found = 'unknown';
		problem = ` (${error instanceof Error ? error.message : String(error)})`;
	}
	const words = check.guards === 'delete' ? deleteWithheld(found, facts) : writeWithheld(found, facts);
	const again = facts.attempts === 0 ? 'was not sent' : 'was not sent again';
	const error = new NodeOperationError(site.node, `${call.what} ${again}: ${words.why}${problem}`, {
		itemIndex: site.itemIndex,
		description: words.description,
	});
	error.context.resendWithheld = found;
	error.context.earlierAttemptMayHaveRun = facts.earlierMayHaveRun;
	error.context.attempts = facts.attempts;
	throw error;
}

/**
 * What the check before a send found, when it is why `error` ended a call; else undefined. `first`:
 * the call was never sent (its first send waited for the pool, and was checked in its slot).
 */
export function withheldResend(
	error: unknown,
): { found: WithheldResend; earlierMayHaveRun: boolean; first: boolean } | undefined {
	if (!(error instanceof NodeOperationError)) return undefined;
	const found = error.context?.resendWithheld as WithheldResend | undefined;
	if (found === undefined) return undefined;
	return {
		found,
		earlierMayHaveRun: error.context.earlierAttemptMayHaveRun === true,
		first: error.context.attempts === 0,
	};
}
