import type { IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Item } from '../item';
import { waitTooLongHint, type NetworkFacts, type StatusFacts } from '../transport/attempts';
import type { NetworkProblem } from '../transport/networkErrors';
import { RedirectRefused } from '../transport/redirects';
import { readFailureReason } from './streamChunks';

/** The errors of a Source URL that could not be opened: named as the source's, never as the service's. */

const STATUS_WORDS: Record<number, string> = {
	206: 'Partial Content: a part of the file, never asked for',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	410: 'Gone',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'its host name could not be resolved',
	EAI_AGAIN: 'its host name could not be resolved',
	ECONNRESET: 'the connection was closed',
};

function attemptsWords(attempts: number): string {
	return attempts > 1 ? ` (${attempts} attempts)` : '';
}

export function sourceFailures(item: Item, shown: string) {
	const network = (problem: NetworkProblem, facts: NetworkFacts): NodeOperationError => {
		if (problem.refusal) {
			// Also for a redirect's target: n8n checks every hop, and asking again changes nothing.
			return item.fail(
				`The source URL '${shown}' was refused by n8n: ${problem.refusal.message}`,
				`${problem.refusal.description} Nothing was uploaded.`,
			);
		}
		if (facts.error instanceof RedirectRefused) {
			return item.fail(
				`The source URL '${shown}' ${facts.error.message}`,
				'Check the URL: it should lead to the file in a few http(s) redirects. Nothing was uploaded.',
			);
		}
		const words = problem.timedOut
			? 'no answer within the timeout'
			: (NETWORK_WORDS[problem.code] ?? readFailureReason(facts.error));
		return item.fail(
			`The source URL '${shown}' could not be reached: ${words}${attemptsWords(facts.attempts)}`,
			problem.timedOut
				? 'The source did not answer within the Timeout option. Check the URL, or raise Timeout.'
				: 'Check the URL and that its server is reachable from the n8n host. Nothing was uploaded.',
		);
	};
	const status = (answer: IN8nHttpFullResponse, facts: StatusFacts): NodeOperationError => {
		const code = answer.statusCode;
		const words = STATUS_WORDS[code] ? ` (${STATUS_WORDS[code]})` : '';
		let description =
			code === 401 || code === 403
				? 'The source refused the request: check the URL (a signed link may have expired) and the Source Headers (e.g. its Authorization header). Nothing was uploaded.'
				: 'The source URL did not give the file. Check the URL. Nothing was uploaded.';
		if (facts.waitTooLongMs !== undefined) {
			description = `${waitTooLongHint('The source', facts.waitTooLongMs)} Nothing was uploaded.`;
		}
		return item.fail(
			`The source URL '${shown}' answered HTTP ${code}${words}${attemptsWords(facts.attempts)}`,
			description,
		);
	};
	return { network, status };
}
