import { NodeApiError } from 'n8n-workflow';

import { answeredOutcome, networkOutcome, writeMayStillLand } from '../../nodes/FileStorage/transport/outcome';
import type { NetworkProblem } from '../../nodes/FileStorage/transport/networkErrors';

const node = {
	id: '1',
	name: 'File Storage',
	type: 'fileStorage',
	typeVersion: 3,
	position: [0, 0] as [number, number],
	parameters: {},
};
const problem = (code: string, more: Partial<NetworkProblem> = {}): NetworkProblem => ({
	code,
	timedOut: false,
	cancelled: false,
	hungUp: false,
	...more,
});

describe("What became of a failed request: the one reading every write's late landing goes by", () => {
	it("the API's own 4xx refusal (its JSON error) says the request was not carried out", () => {
		for (const status of [400, 401, 403, 404, 409, 413, 429])
			expect(answeredOutcome(status, true)).toBe('notCarriedOut');
	});

	it("any 5xx, the API's or a gateway's (a 504: it stopped waiting, the service did not), leaves it unknown", () => {
		for (const status of [500, 502, 503, 504]) {
			expect(answeredOutcome(status, true)).toBe('unknown');
			expect(answeredOutcome(status, false)).toBe('unknown');
		}
	});

	it("a 4xx that is not the API's (a proxy's page) leaves it unknown", () => {
		expect(answeredOutcome(404, false)).toBe('unknown');
		expect(answeredOutcome(408, false)).toBe('unknown');
	});

	it('a request that never left (refused connection, unknown host, n8n refused it) was not carried out', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
			expect(networkOutcome(problem(code))).toBe('notCarriedOut');
		const refusal = { message: 'refused', description: 'n8n blocks this host' };
		expect(networkOutcome(problem('', { refusal }))).toBe('notCarriedOut');
	});

	it('no answer in time, a connection cut after sending, or a stopped execution leaves it unknown', () => {
		expect(networkOutcome(problem('ETIMEDOUT', { timedOut: true }))).toBe('unknown');
		expect(networkOutcome(problem('ECONNABORTED', { timedOut: true }))).toBe('unknown');
		expect(networkOutcome(problem('ECONNRESET', { hungUp: true }))).toBe('unknown');
		expect(networkOutcome(problem('EPIPE'))).toBe('unknown');
		expect(networkOutcome(problem('ERR_CANCELED', { cancelled: true }))).toBe('unknown');
		expect(networkOutcome(problem(''))).toBe('unknown');
	});

	it('a failed write may still land unless the transport read every attempt as not carried out', () => {
		const failure = (outcomeUnknown?: boolean) => {
			const error = new NodeApiError(node, { status: 504 });
			if (outcomeUnknown !== undefined) error.context.outcomeUnknown = outcomeUnknown;
			return error;
		};
		expect(writeMayStillLand(failure(false))).toBe(false);
		expect(writeMayStillLand(failure(true))).toBe(true);
		// An error the transport did not read (one made after a 2xx answer, a withheld repeat): possible.
		expect(writeMayStillLand(failure())).toBe(true);
		expect(writeMayStillLand(new Error('anything else'))).toBe(true);
	});
});
