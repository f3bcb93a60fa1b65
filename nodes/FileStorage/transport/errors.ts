import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { timeOf } from '../listing/listingTime';
import { isApiErrorAnswer, notTheApi, parsedBody } from './apiAnswer';

/** What the service said, whichever of its error shapes it used. */
export function serviceWords(body: unknown): string {
	if (typeof body === 'string') return body.trim().slice(0, 300);
	if (!body || typeof body !== 'object') return '';
	const { error, message, details } = body as IDataObject;
	const words = [error, message].filter((part): part is string => typeof part === 'string' && part !== '');
	const unique = words.filter((part, index) => words.indexOf(part) === index);
	if (Array.isArray(details)) {
		for (const detail of details as IDataObject[]) {
			if (detail && typeof detail === 'object') {
				const field = typeof detail.field === 'string' ? `${detail.field}: ` : '';
				if (typeof detail.message === 'string') unique.push(`${field}${detail.message}`);
			}
		}
	}
	return unique.join(' – ');
}

const SKEW_WORTH_MENTIONING_MS = 60_000;

function clockHint(serverDate: string | undefined): string {
	const serverTime = timeOf(serverDate);
	if (serverTime !== undefined) {
		const skewMs = Date.now() - serverTime;
		if (Math.abs(skewMs) > SKEW_WORTH_MENTIONING_MS) {
			const minutes = Math.round(Math.abs(skewMs) / 60_000);
			return ` The clock of this n8n host is about ${minutes} minute(s) ${skewMs > 0 ? 'ahead of' : 'behind'} the service's: requests are signed with the current time and the service rejects timestamps too far off, so fix the host's clock (e.g. enable NTP).`;
		}
	}
	return ' If the keys are right, check that the clock of this n8n host is correct: requests are signed with the current time and the service rejects timestamps too far off.';
}

function hintFor(failure: HttpFailure): string {
	const { status, body, serverDate } = failure;
	if (status === 401 || status === 403) {
		return `Check the Access Key and Secret Key of the File Storage API credential.${clockHint(serverDate)}`;
	}
	if (status === 404) {
		// Any web server answers 404 to the API's paths: only the API's own answer means a missing bucket.
		if (foreign404(failure)) return `${notTheApi("a 404 without the API's error body")}${serverSaid(body)}`;
		return notFoundHint(failure.target);
	}
	if (status === 400) return 'The service refused a parameter; the message above names it.';
	if (status === 413)
		return 'The request body is larger than the service accepts; use Multipart Upload or a smaller Part Size.';
	if (status === 429)
		return 'The service is rate limiting requests. Lower Parallel Uploads or run fewer executions at once.';
	if (status >= 500) return 'The service had an internal problem. Retry later; if it persists, contact the service.';
	return 'Check the parameters of the node.';
}

/** What a call asked for, to name it when the API answers that it does not exist. */
export interface CallTarget {
	bucket?: string;
	region?: string;
	key?: string;
	/** A step of a multipart upload: its upload ID may be what is missing. */
	multipart?: boolean;
	/** The parameters that named the bucket (BucketRef.fields); unset: Bucket Name and Region. */
	fields?: string;
}

export interface HttpFailure {
	status: number;
	body: unknown;
	serverDate?: string;
	attempts: number;
	/** The answer came from a link the service handed out, not from the API at the Base URL. */
	link?: boolean;
	/** Scheme and host of the Base URL (never a secret: the credential refuses a user name or password in it). */
	origin?: string;
	target?: CallTarget;
}

/** The API's own 404 says what was asked for is missing; the words name it. */
function notFoundHint(target: CallTarget | undefined): string {
	if (!target?.bucket) {
		return 'Check the bucket name and region (a bucket is identified by both) and the path of the file.';
	}
	const bucket = `bucket '${target.bucket}' (region ${target.region ?? 'not set'})`;
	// The words name the fields to fix: a destination bucket is named by its own options, not the source's.
	const fields = target.fields ?? 'Bucket Name and Region';
	const check = target.fields ? `check ${target.fields}: ` : '';
	const bucketToo = `or the bucket does not exist in that region (${check}a bucket is identified by its name and region)`;
	if (target.multipart) {
		return `The multipart upload in ${bucket} was not found: its upload ID is wrong, or it was completed, cancelled or expired, ${bucketToo}.`;
	}
	if (target.key !== undefined) {
		return `'${target.key}' was not found in ${bucket}: check the path of the file (it may be gone already), ${bucketToo}.`;
	}
	return `The ${bucket} was not found: check ${fields} (a bucket is identified by both).`;
}

/** A 404 from whatever sits at the Base URL, not from the API (a wrong Base URL). */
function foreign404(failure: HttpFailure): boolean {
	return failure.status === 404 && !failure.link && !isApiErrorAnswer(failure.body);
}

/** The server's own words for the description: its error fields, or its text without markup. */
export function serverSaid(body: unknown): string {
	const words = serviceWords(parsedBody(body))
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return words ? ` The server said: "${words}".` : ' The server sent no message.';
}

export function httpError(node: INode, what: string, failure: HttpFailure, itemIndex: number): NodeApiError {
	const words = serviceWords(failure.body) || 'no message';
	const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const errorBody: JsonObject = {
		status: failure.status,
		...(failure.body && typeof failure.body === 'object'
			? (failure.body as JsonObject)
			: { body: String(failure.body ?? '') }),
	};
	// A foreign 404's body is some other server's (often raw JSON): the headline says what it means.
	const message = foreign404(failure)
		? `${what} failed${tries}. The server at ${failure.origin ?? 'the Base URL'} answered HTTP 404 (Not Found), not as the File Storage API does: is the Base URL right?`
		: `${what} failed${tries}: ${words} (HTTP ${failure.status})`;
	const error = new NodeApiError(node, errorBody, {
		message,
		description: hintFor(failure),
		httpCode: String(failure.status),
		itemIndex,
	});
	error.context.attempts = failure.attempts;
	// Only the API's own error body tells what happened; a web server's 404 means a missing path.
	error.context.apiAnswer = !failure.link && isApiErrorAnswer(failure.body);
	return error;
}

/** True when the API itself answered 404: what was asked for (bucket, key, upload) does not exist. */
export function apiNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404' && error.context?.apiAnswer === true;
}

/**
 * True when the last answer was the API's own `status` and an earlier attempt of the same request may have been
 * carried out (its answer was lost, or it got a 500/502/504): only then can a repeat's 404 mean
 * the work was already done. After a 429, a 503 or a refused connection it cannot.
 */
export function failedOnRetryWith(error: unknown, status: number): boolean {
	if (!(error instanceof NodeApiError)) return false;
	return (
		error.httpCode === String(status) &&
		error.context?.apiAnswer === true &&
		error.context?.earlierAttemptMayHaveRun === true
	);
}

/** A request that got no answer: what it was, why it failed and after how many attempts. */
export interface NetworkFailure {
	what: string;
	reason: string;
	attempts: number;
	itemIndex: number;
	description: string;
	timedOut: boolean;
}

export function networkError(node: INode, failure: NetworkFailure): NodeApiError {
	const { what, reason, attempts } = failure;
	const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
	const error = new NodeApiError(node, { reason } as JsonObject, {
		message: `${what} failed${tries}: ${reason}`,
		description: failure.description,
		itemIndex: failure.itemIndex,
	});
	error.context.attempts = attempts;
	error.context.timedOut = failure.timedOut;
	return error;
}

/**
 * The service answered 2xx, but not with what the node relies on (a part number, an upload ID,
 * a key): going on would store or report something wrong, so the call fails instead.
 */
export function unexpectedAnswerError(node: INode, what: string, problem: string, itemIndex: number): NodeApiError {
	const error = new NodeApiError(node, { problem } as JsonObject, {
		message: `Unexpected answer from the service to ${what}: ${problem}`,
		description:
			'The service answered in a form this node does not expect, so nothing was taken as done. Check that the Base URL points at the File Storage API v1; if it does, report the answer to the service.',
		itemIndex,
	});
	error.context.unexpectedAnswer = true;
	return error;
}

/** What stands in an error for a value that must not be shown. */
export const REDACTED = '[redacted]';
/** Shorter query values (a page number, a flag) are no secrets, and replacing them would garble the words. */
const MIN_SECRET_LENGTH = 8;

/**
 * The values of a link's query, as sent and as decoded: a signed link's signature and expiry. A
 * CDN's error body may repeat the URL it was asked for; none of these may reach an error, as
 * a Source URL is shown without its query.
 */
export function linkSecrets(url: string): string[] {
	const query = url.split('#')[0].split('?').slice(1).join('?');
	const secrets = new Set<string>();
	for (const pair of query.split('&')) {
		const value = pair.slice(pair.indexOf('=') + 1);
		let decoded = value;
		try {
			decoded = decodeURIComponent(value.replace(/\+/g, ' '));
		} catch {
			// A malformed escape: the value is hidden as sent.
		}
		for (const secret of [value, decoded]) if (secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
	}
	// The longest first: a value that contains another is hidden whole.
	return [...secrets].sort((a, b) => b.length - a.length);
}

/** The body with every secret replaced by REDACTED, in its text or in any string of its JSON. */
export function withoutSecrets(body: unknown, secrets: string[]): unknown {
	if (secrets.length === 0) return body;
	if (typeof body === 'string') return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), body);
	if (Array.isArray(body)) return body.map((value) => withoutSecrets(value, secrets));
	if (body && typeof body === 'object') {
		return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, withoutSecrets(value, secrets)]));
	}
	return body;
}
