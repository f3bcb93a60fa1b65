import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { answerCdnHeaders } from '../transport/cacheMarks';
import { followRedirects, shownText, type FollowedAnswer } from '../transport/redirects';
import type { Item } from '../item';
import { runAttempts } from '../transport/attempts';
import { sourceFailures } from './sourceFailures';
import { checkedChunks, type StreamProblem } from './streamChunks';
import { splitIntoParts } from './binaryInput';
import { lengthFacts } from '../download/downloadLength';
import type { UploadSource } from './uploadSource';

export interface UrlSourceSettings {
	timeoutMs: number;
	maxRetries: number;
	/** Upload a source that states no Content-Length (see refusedWithoutLength). */
	allowWithoutLength?: boolean;
	/** What to do about a source without Content-Length, for callers without that option (Copy, Move). */
	withoutLengthHint?: string;
}

export { shownText };

export const ALLOW_WITHOUT_LENGTH_FIELD = 'Allow Source Without Content-Length';

/**
 * The URL as it may be shown: scheme, host and path. The query and the user info go: signed
 * links carry their secret in the query.
 */
export function shownUrl(url: URL): string {
	return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The last path segment of the URL, decoded: the default key. */
export function fileNameOfUrl(url: URL): string | undefined {
	const segment = url.pathname.split('/').pop() ?? '';
	if (!segment) return undefined;
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

export function parseSourceUrl(item: Item, text: string): URL {
	const trimmed = text.trim();
	let url: URL | undefined;
	try {
		url = new URL(trimmed);
	} catch {
		url = undefined;
	}
	if (!url || !['http:', 'https:'].includes(url.protocol)) {
		throw item.fail(
			trimmed ? `The parameter 'URL' is not an http(s) URL: '${shownText(trimmed)}'` : "The parameter 'URL' is empty",
			'Enter the full address of the file, e.g. https://example.com/videos/talk.mp4.',
		);
	}
	return url;
}

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name];
	return value === undefined || value === null ? undefined : String(value);
}

function destroyBody(response: IN8nHttpFullResponse): void {
	(response.body as { destroy?: () => void } | undefined)?.destroy?.();
}

/**
 * Opens a URL as the source of an upload: a plain GET (the source is not the storage service,
 * so it is not signed), redirects followed, the body left unread until the parts ask for it.
 * Failures are named as the source's, never as the service's. A Retry-After is honoured as the
 * service's is (the same wait and the same limit).
 */
export async function openUrlSource(
	item: Item,
	url: URL,
	headers: IDataObject,
	settings: UrlSourceSettings,
): Promise<UploadSource> {
	// The body n8n hands back wraps the connection: destroying it does not reach the socket while a
	// read is pending (a stalled source) or before the first one. Aborting the request does.
	const connection = new AbortController();
	const execution = item.ctx.getExecutionCancelSignal?.();
	if (execution?.aborted) connection.abort();
	// Removed once the source is done with: one listener per item would pile up on the execution's signal.
	const onStop = () => connection.abort();
	execution?.addEventListener('abort', onStop, { once: true });
	const forget = () => execution?.removeEventListener('abort', onStop);
	let opened = false;
	try {
		const source = await openWithRetries({ item, url, headers, settings, connection, forget });
		opened = true;
		return source;
	} finally {
		if (!opened) forget();
	}
}

/** A Source URL being opened for one item. */
interface OpeningSource {
	item: Item;
	url: URL;
	headers: IDataObject;
	settings: UrlSourceSettings;
	/** Aborting it closes the source's connection (see openUrlSource). */
	connection: AbortController;
	/** Stops listening for the execution's stop. */
	forget: () => void;
}

/** The source's answer: a 2xx, after the retries of the one attempt loop (transport/attempts.ts). */
async function fetchSource(source: OpeningSource): Promise<FollowedAnswer> {
	const { item, url, headers, settings, connection } = source;
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: url.href,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed by followRedirects; in case one is followed anyway, no credentials.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: settings.timeoutMs,
		abortSignal: connection.signal,
	};
	const failed = sourceFailures(item, shownUrl(url));
	return await runAttempts({
		// A GET of a file: sending it again changes nothing.
		policy: 'idempotent',
		maxRetries: settings.maxRetries,
		// Followed here (transport/redirects.ts), not by n8n's HTTP client: that client passes custom
		// headers on to whatever host a redirect names, and Authorization too unless told otherwise. The
		// Source Headers go to the origin the user chose only; every redirect's headers stay with the answer.
		send: async () =>
			await followRedirects(url, async (hop, ownOrigin) =>
				item.ctx.helpers.httpRequest({
					...options,
					url: hop.href,
					// Identity, so that Content-Length is the length of what arrives.
					headers: { 'Accept-Encoding': 'identity', ...(ownOrigin ? headers : {}) },
				}),
			),
		// The body of a failed answer is not read: its connection is let go at once.
		settle: (answer) => {
			destroyBody(answer);
			return Promise.resolve({ answer });
		},
		networkFailure: failed.network,
		statusFailure: failed.status,
	});
}

async function openWithRetries(source: OpeningSource): Promise<UploadSource> {
	const { item, url, settings, connection, forget } = source;
	const shown = shownUrl(url);
	const response = await fetchSource(source);
	// 206 answers a Range, which this plain GET never sends: its body is a part of the file.
	if (response.statusCode === 206) {
		destroyBody(response);
		connection.abort();
		forget();
		throw sourceFailures(item, shown).status(response, { attempts: 1, earlierMayHaveRun: false });
	}
	const announced = lengthFacts(response.headers).announced;
	const size = announced !== undefined && announced >= 0 ? announced : undefined;
	if (size === undefined && settings.allowWithoutLength !== true) {
		destroyBody(response);
		connection.abort();
		forget();
		throw refusedWithoutLength(item, shown, settings.withoutLengthHint);
	}
	// Whole, its parameters too: a charset says how the bytes read as text (a copy or upload that kept
	// only type/subtype would store the bytes under another encoding's name, or none).
	const mimeType = (headerValue(response.headers, 'content-type') ?? '').trim();
	const fail = (problem: StreamProblem) => sourceFault(item, shown, problem);
	const body = response.body;
	const answer = response;
	const letGo = () => {
		destroyBody(answer);
		connection.abort();
		forget();
	};
	return {
		kind: 'url',
		label: `the source URL '${shown}'`,
		fileName: fileNameOfUrl(url),
		mimeType: mimeType || 'application/octet-stream',
		size,
		// A redirect a cache kept makes the answer one too (cacheMarks.ts).
		cdnHeaders: answerCdnHeaders(response),
		parts: async function* (partSize, nextPart) {
			let complete = false;
			try {
				yield* splitIntoParts(
					checkedChunks(body, {
						expected: size,
						idleMs: settings.timeoutMs,
						fail,
						copiedBeforeNext: true,
						// Freed as copied: left to V8, a GiB of chunks made n8n grow by tens of MiB (README, Memory).
						chunksAreItsOwn: true,
						stop: letGo,
					}),
					partSize,
					nextPart,
				);
				complete = true;
			} finally {
				// A body left unread (a failed part, a body longer than announced) holds its connection open.
				if (!complete) letGo();
				forget();
			}
		},
		discard: letGo,
		// As Download says it: only a size that could not be confirmed is flagged.
		output: { source: 'url', url: shown, ...(size === undefined ? { sizeConfirmed: false } : {}) },
	};
}

/**
 * A source without Content-Length, unless the user allowed it. Its end cannot be checked: a
 * close-delimited body ends when the connection does, cut or not, and a chunked one may carry a
 * compressed stream that stops midway, which n8n's HTTP client unpacks as far as it goes without
 * an error and without leaving Content-Encoding in the headers. Storing it could put a cut-off
 * file in the bucket, in place of a good one under the same key.
 */
function refusedWithoutLength(
	item: Item,
	shown: string,
	hint = `Nothing was uploaded. Use a URL whose server sends Content-Length (e.g. a static file or a signed storage link), or turn on '${ALLOW_WITHOUT_LENGTH_FIELD}' to upload it anyway: the output then says sizeConfirmed: false.`,
): NodeOperationError {
	return item.fail(
		`The source URL '${shown}' did not state its length (no Content-Length), so a cut-off body could not be told from the whole file`,
		hint,
	);
}

function sourceFault(item: Item, shown: string, problem: StreamProblem): NodeOperationError {
	const of = (received: number, expected?: number) =>
		expected === undefined ? `${received} bytes` : `${received} of ${expected} bytes`;
	let message: string;
	let description = 'Run the node again; if it keeps happening, check the source.';
	if (problem.kind === 'broke') {
		message = `The connection to the source URL '${shown}' broke after ${of(problem.received, problem.expected)}: ${problem.reason}`;
	} else if (problem.kind === 'stalled') {
		message = `The source URL '${shown}' sent no data for ${problem.idleSeconds} s after ${of(problem.received, problem.expected)}`;
		description = 'The source stopped sending. Run the node again; on a very slow source raise the Timeout option.';
	} else if (problem.kind === 'short') {
		message = `The source URL '${shown}' ended after ${of(problem.received, problem.expected)} (its Content-Length)`;
	} else {
		message = `The source URL '${shown}' sent more than the ${problem.expected} bytes its Content-Length announced`;
		description =
			'The body is not what the source announced (it may have compressed it although asked not to). Nothing is kept of a body whose length is wrong.';
	}
	return item.fail(message, description);
}
