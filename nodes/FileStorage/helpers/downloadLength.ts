import type { IDataObject } from 'n8n-workflow';

/** What is known of a download's length before its body is read. */
export interface LengthFacts {
	/** The answer's Content-Length. */
	announced?: number;
	/** The answer was chunked: its last chunk marks the end. */
	chunked: boolean;
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
		chunked: /chunked/i.test(String(headers?.['transfer-encoding'] ?? '')),
		expected: expected !== undefined && Number.isFinite(expected) ? expected : undefined,
	};
}

/**
 * Whether a body that ended without an error is the whole file, and whether its size was
 * confirmed. n8n's HTTP client itself fails a body that ends short of its Content-Length or
 * before its last chunk, so the answer's own framing is already checked. What is left:
 * - a size the service stated (a listing) must match exactly;
 * - a count other than Content-Length means the client unpacked a body the CDN compressed
 *   although the link asked for identity (n8n keeps the packed length): complete (gzip checks
 *   its own end), but the file's size was stated nowhere;
 * - an answer with neither Content-Length nor chunks ends when the connection does: a cut-off
 *   body looks complete, so its size is not confirmed.
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
	if (facts.announced !== undefined) return { confirmed: received === facts.announced };
	return { confirmed: facts.chunked };
}
