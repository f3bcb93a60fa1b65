import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import type { BucketRef } from './apiTypes';
import type { RetryPolicy } from './attempts';
import type { CallTarget } from './errors';
import type { FamilyRoutes } from './pathFamily';
import type { FileStorageClient } from './request';
import type { QueryValue } from './signing';

/** What one request to the service (or to a link it handed out) is, and how n8n is asked to send it. */

export type { RetryPolicy } from './attempts';

export interface ApiCall {
	method: IHttpRequestMethods;
	path: string;
	/**
	 * For the endpoints the two path families spell differently: the route in each. The call then
	 * goes out in the family this process learned for the Base URL (see pathFamily.ts), and `method`
	 * and `path` are not used.
	 */
	family?: FamilyRoutes;
	query?: Array<[string, QueryValue]>;
	body?: Buffer | IDataObject;
	headers?: IDataObject;
	/** Human words for errors, e.g. 'Upload part 3 of 7'. */
	what: string;
	retry: RetryPolicy;
	/** 'stream' hands back the response body unread (downloads). */
	responseType?: 'json' | 'stream';
	/** A URL the service handed out (a CDN link), not the API at the Base URL. */
	link?: boolean;
	/** Values an error must not show (a signed link's query: a CDN's error body may repeat the URL). */
	secrets?: string[];
	/**
	 * Clean-up calls (cancelling an upload after a failure) must still go out when the
	 * execution was stopped: n8n aborts every authenticated request of a stopped execution,
	 * so such a call is signed here and sent on a signal of its own, bounded by this many ms.
	 */
	detachedForMs?: number;
	/** A shorter wait for the answer than the Timeout option, for a call whose answer is only a hint. */
	timeoutMs?: number;
	/** For a delete decided on evidence, or a write that must not replace a file: asked before each repeat, and before a first send that waited (see ResendCheck). */
	resendCheck?: ResendCheck;
	/**
	 * The file a write (an upload in one request, a delete) stores or removes. When an attempt of it
	 * ends with its outcome unknown (outcome.ts), it may still be carried out later, even once a
	 * repeat succeeded: the client tells its item (ClientSetup.onWriteMayLand), whose run then leaves
	 * the key alone.
	 */
	writes?: WrittenFile;
	/** The parameters that named the call's bucket, for a 404's words (see BucketRef.fields; set by onBucket). */
	bucketFields?: string;
}

/**
 * A call's query on a bucket: bucket_name and region first (every endpoint's order), then `rest`; and the
 * parameters that named that bucket, so that a 404 tells the user which fields to check (errors.ts).
 */
export function onBucket(where: BucketRef, rest: Array<[string, QueryValue]>): Pick<ApiCall, 'query' | 'bucketFields'> {
	const query: Array<[string, QueryValue]> = [['bucket_name', where.bucket], ['region', where.region], ...rest];
	return where.fields ? { query, bucketFields: where.fields } : { query };
}

/** A file as a write names it: bucket, region and key. */
export interface WrittenFile {
	bucket: string;
	region: string;
	key: string;
}

/**
 * What a call's repeat must not do, asked of the service again right before the call is sent
 * again (an earlier attempt may have been carried out, and the key written since), and before its
 * first send too when anything waited since the caller's look (`lookedAt`, its client's waits.mark() when
 * the look began: a Retry-After, a retry, a pause of the run's pool or a wait for its slot, see
 * looks.ts): the caller's look is then seconds old. `ask` throws when it cannot be told; it asks
 * `via`: the client whose requests go in the slot of the run's pool the call already holds, so that
 * no wait for the pool comes between the check and the send. A check during which anything waited
 * is asked again (checkVerdict).
 * - 'delete', a delete decided on evidence: 'send' the key is unchanged, a repeat is as safe as the
 *   first send; 'gone' nothing is left, the work is done; 'keep' another version is there.
 * - 'replace', a write that must not replace a file (Refuse Existing File on, Replace Existing File
 *   off): 'send' the key is still free; 'keep' a file is there (another writer's, or the earlier
 *   attempt's own, carried out after all), and nothing more is sent. `first`: asked before the first
 *   send too (an upload in one request, whose source was read, and memory and a slot waited for,
 *   after the caller's own check: a file stored meanwhile would be replaced).
 */
export type ResendCheck = { lookedAt: number } & (
	| { guards: 'delete'; ask: (via: FileStorageClient) => Promise<'send' | 'gone' | 'keep'> }
	| { guards: 'replace'; first?: boolean; ask: (via: FileStorageClient) => Promise<'send' | 'keep'> }
);

export interface TransportSettings {
	timeoutMs: number;
	maxRetries: number;
}

export const DEFAULT_SETTINGS: TransportSettings = { timeoutMs: 300_000, maxRetries: 3 };

/**
 * n8n's request timeout runs from the start of a request to its answer, so it includes
 * sending the body. The Timeout option means waiting for the service; a request with a body
 * gets that plus the time to send the body at this slowest accepted rate (8 Mbit/s per
 * request): a part on a slower link still gets the Timeout option on top.
 */
export const SLOWEST_SEND_BYTES_PER_SECOND = 1024 * 1024;
/** Redirects a link (a CDN) may take before the file; a Source URL follows as many. */
export const MAX_REDIRECTS = 5;

function bodyBytes(call: ApiCall): number {
	return Buffer.isBuffer(call.body) ? call.body.length : 0;
}

function describeSize(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** A streamed error answer's body, read up to 64 KiB and as JSON when it is: what the error quotes. */
export async function readSmallBody(stream: unknown): Promise<unknown> {
	if (!stream || typeof (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator] !== 'function') return stream;
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		chunks.push(chunk);
		size += chunk.length;
		if (size > 64 * 1024) break;
	}
	(stream as { destroy?: () => void }).destroy?.();
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** n8n's deadline for one attempt: the Timeout option, plus time to send the body on a slow link. */
export function deadlineMs(call: ApiCall, settings: TransportSettings): number {
	const wait = Math.min(call.timeoutMs ?? settings.timeoutMs, settings.timeoutMs);
	return wait + Math.ceil((bodyBytes(call) / SLOWEST_SEND_BYTES_PER_SECOND) * 1000);
}

/**
 * Asked on every GET of the API (never of a link the service hands out, whose caching the CDN
 * decides): a cache between n8n and the API that honours them fetches the answer anew instead of
 * answering from its copy (RFC 9111 §5.2.1.4; Pragma for HTTP/1.0 caches, §5.4). Not every gateway
 * honours them (nginx and Varnish ignore them unless told to), so an answer a cache still marks
 * as kept is refused all the same (cacheMarks.ts). The signature covers no header.
 */
export const NO_CACHE_HEADERS: Readonly<IDataObject> = { 'Cache-Control': 'no-cache', Pragma: 'no-cache' };

export function requestOptions(url: string, call: ApiCall, settings: TransportSettings): IHttpRequestOptions {
	return {
		method: call.method,
		url,
		headers: call.method === 'GET' && !call.link ? { ...NO_CACHE_HEADERS, ...call.headers } : call.headers,
		body: call.body,
		json: !Buffer.isBuffer(call.body) && call.responseType !== 'stream',
		encoding: call.responseType === 'stream' ? 'stream' : undefined,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: deadlineMs(call, settings),
		// Redirect support makes the HTTP client keep a replay copy of the body; the API
		// never redirects, so parts go out without that copy.
		disableFollowRedirect: true,
	};
}

export function timeoutHint(call: ApiCall, settings: TransportSettings): string {
	const waitSeconds = Math.round(settings.timeoutMs / 1000);
	const bytes = bodyBytes(call);
	if (bytes === 0) {
		return `No answer within ${waitSeconds} s. Raise the Timeout option if the service is slow, or check that it is reachable.`;
	}
	const sendSeconds = Math.round((deadlineMs(call, settings) - settings.timeoutMs) / 1000);
	return (
		`No answer within ${waitSeconds + sendSeconds} s: the Timeout option (${waitSeconds} s) plus ${sendSeconds} s to send ` +
		`${describeSize(bytes)} at ${describeSize(SLOWEST_SEND_BYTES_PER_SECOND)}/s or faster. Either the link to the service ` +
		'is slower than that (lower Part Size or Parallel Uploads) or the service stopped answering (raise Timeout, or retry later).'
	);
}

/** The bucket, region and key a call names (its query), for a 404 to say which was not found. */
export function targetOf(call: ApiCall): CallTarget {
	const value = (name: string) => {
		const pair = call.query?.find(([key]) => key === name);
		return pair && pair[1] !== undefined && pair[1] !== null ? String(pair[1]) : undefined;
	};
	const paths = call.family ? Object.values(call.family).map((route) => route.path) : [call.path];
	return {
		bucket: value('bucket_name'),
		region: value('region'),
		// An upload names the key it creates: its 404 can only be the bucket's.
		key: call.method === 'PUT' || /\/multipart\/start$/.test(call.path) ? undefined : value('key'),
		// Every multipart step but the start names its upload ID in the path.
		multipart: paths.some((path) => path.includes('/multipart/') && !path.endsWith('/multipart/start')),
		...(call.bucketFields ? { fields: call.bucketFields } : {}),
	};
}

/** One header of an answer as sent (names in any case; a list's first value), or undefined. */
export function headerValue(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
	const value: unknown = Array.isArray(found?.[1]) ? (found[1] as unknown[])[0] : found?.[1];
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
