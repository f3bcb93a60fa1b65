import {
	describeNetworkProblem,
	mayRetryNetworkProblem,
	RETRYABLE_NETWORK_CODES,
} from '../../nodes/FileStorage/transport/networkErrors';

/** An error as n8n's HTTP client hands it on: the network error as the cause of a wrapper. */
function wrapped(code: string, message = 'request failed'): Error {
	const cause = Object.assign(new Error(message), { code });
	return Object.assign(new Error('The connection to the server was closed unexpectedly'), { cause });
}

describe('the one classifier of network errors (every request: the API, links, a Source URL)', () => {
	it('retries ERR_STREAM_PREMATURE_CLOSE, which a Source URL did not retry before issue 31', () => {
		const problem = describeNetworkProblem(wrapped('ERR_STREAM_PREMATURE_CLOSE', 'Premature close'));
		expect(problem.code).toBe('ERR_STREAM_PREMATURE_CLOSE');
		expect(mayRetryNetworkProblem(problem)).toBe(true);
	});

	it.each(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'EAI_AGAIN'])(
		'retries %s (the union of the lists the API and the Source URL had)',
		(code) => {
			expect(RETRYABLE_NETWORK_CODES.has(code)).toBe(true);
			expect(mayRetryNetworkProblem(describeNetworkProblem(wrapped(code)))).toBe(true);
		},
	);

	it('a hang-up without a code is a reset connection, retried', () => {
		const problem = describeNetworkProblem(new Error('socket hang up'));
		expect(problem.code).toBe('ECONNRESET');
		expect(mayRetryNetworkProblem(problem)).toBe(true);
	});

	it.each([
		['a timeout', wrapped('ECONNABORTED', 'timeout of 300000ms exceeded')],
		['ETIMEDOUT', wrapped('ETIMEDOUT')],
		['a stopped execution', Object.assign(new Error('canceled'), { name: 'CanceledError', code: 'ERR_CANCELED' })],
		['an unknown host', wrapped('ENOTFOUND')],
		[
			"n8n's SSRF refusal",
			Object.assign(new Error('wrapper'), {
				cause: Object.assign(new Error('Request to 10.0.0.1 blocked'), {
					name: 'SsrfBlockedIpError',
					code: 'ECONNREFUSED',
				}),
			}),
		],
	])('does not retry %s', (_name, error) => {
		expect(mayRetryNetworkProblem(describeNetworkProblem(error))).toBe(false);
	});

	it('takes the first code along the causes, skipping empty ones', () => {
		const error = Object.assign(new Error('outer'), { code: '', cause: wrapped('EPIPE') });
		expect(describeNetworkProblem(error).code).toBe('EPIPE');
	});
});
