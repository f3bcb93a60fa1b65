import type { IDataObject } from 'n8n-workflow';

/** What is known of a download's length before its body is read. */
export interface LengthFacts {
	/** The answer's Content-Length. */
	announced?: number;
	/** The file's size as the service stated it (a listing), when the caller knows it. */
	expected?: number;
}

export type LengthVerdict =
	{ confirmed: boolean; problem?: undefined } | { problem: string; hint: string; confirmed?: undefined };

const CUT_HINT = 'The connection ended early. Run the node again.';

export function lengthFacts(headers: IDataObject | undefined, expected?: number): LengthFacts {
	const length = headers?.['content-length'];
	const announced = length === undefined || length === '' ? NaN : Number(length);
	return {
		announced: Number.isFinite(announced) ? announced : undefined,
		expected: expected !== undefined && Number.isFinite(expected) ? expected : undefined,
	};
}

/**
 * Whether a body that ended without an error is the whole file, and whether its size was
 * confirmed. n8n's HTTP client fails a body that ends short of its Content-Length or before its
 * last chunk, so the answer's framing is checked. What it hides: it unpacks a body the server
 * compressed although identity was asked for, accepts a compressed stream that stops midway,
 * and removes Content-Encoding from the headers it hands back. So:
 * - a size the service stated (a listing) must match exactly;
 * - a count equal to the Content-Length confirms the size;
 * - any other count (the client unpacked the body; Content-Length is the packed size) is not
 *   confirmed, nor is an answer without Content-Length: a chunked one may carry a compressed
 *   stream cut midway, and a close-delimited one ends when the connection does, cut or not.
 */
export function judgeLength(received: number, facts: LengthFacts): LengthVerdict {
	if (facts.expected !== undefined) {
		if (received < facts.expected) {
			return {
				problem: `was cut short: received ${received} of ${facts.expected} bytes (the size the listing gave)`,
				hint: CUT_HINT,
			};
		}
		if (received > facts.expected) {
			return {
				problem: `is longer than listed: received ${received} bytes, the listing gave ${facts.expected}`,
				hint: 'The file may have changed since it was listed. Run the node again.',
			};
		}
		return { confirmed: true };
	}
	return { confirmed: received === facts.announced };
}
