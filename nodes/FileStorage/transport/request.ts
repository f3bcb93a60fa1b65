import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { httpError, networkError } from './errors';
import { buildTarget, checkBaseUrl, type QueryValue } from './signing';

export const CREDENTIAL_TYPE = 'fileStorageApi';

/**
 * When a failed request may be sent again. Retrying is only safe where repeating the
 * request cannot create a second side effect: reads, replacing uploads and parts, and
 * cancelling/completing (whose repeat the service refuses rather than duplicates).
 * Starting an upload is only retried when the service says it did not process it.
 */
export type RetryPolicy = 'idempotent' | 'notProcessed' | 'never';

export interface ApiCall {
	method: IHttpRequestMethods;
	path: string;
	query?: Array<[string, QueryValue]>;
	body?: Buffer | IDataObject;
	headers?: IDataObject;
	/** Human words for errors, e.g. 'Upload part 3 of 7'. */
	what: string;
	retry: RetryPolicy;
	/** 'stream' hands back the response body unread (downloads). */
	responseType?: 'json' | 'stream';
}

export interface TransportSettings {
	timeoutMs: number;
	maxRetries: number;
}

export const DEFAULT_SETTINGS: TransportSettings = { timeoutMs: 300_000, maxRetries: 3 };

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const NOT_PROCESSED_STATUSES = new Set([429, 503]);
const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'EPIPE',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ERR_STREAM_PREMATURE_CLOSE',
	'EAI_AGAIN',
]);
const BASE_BACKOFF_MS = 300;
const MAX_BACKOFF_MS = 20_000;

type Context = IExecuteFunctions | ILoadOptionsFunctions;

interface NetworkProblem {
	code: string;
	timedOut: boolean;
	reason: string;
}

function describeNetworkProblem(error: unknown): NetworkProblem {
	const candidates: IDataObject[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		candidates.push(current as IDataObject);
		current = (current as IDataObject).cause;
	}
	const code = String(candidates.map((c) => c.code).find((c) => typeof c === 'string') ?? '');
	const text = candidates.map((c) => String(c.message ?? '')).join(' ');
	const timedOut = /timeout|timed out/i.test(text) || code === 'ETIMEDOUT';
	const isAbort = code === 'ECONNABORTED' && !timedOut;
	let reason = 'the request could not be sent';
	if (timedOut) reason = 'no response from the service within the timeout';
	else if (code === 'ECONNRESET' || /socket hang up/i.test(text))
		reason = 'the connection was closed by the service mid-request';
	else if (code === 'ECONNREFUSED')
		reason = 'the service refused the connection (is the Base URL right and the service up?)';
	else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') reason = 'the host name of the Base URL could not be resolved';
	else if (isAbort) reason = 'the request was aborted';
	return { code: code || (/socket hang up/i.test(text) ? 'ECONNRESET' : ''), timedOut, reason };
}

function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (value === undefined) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_BACKOFF_MS);
	const date = Date.parse(String(value));
	return Number.isFinite(date) ? Math.min(Math.max(date - Date.now(), 0), MAX_BACKOFF_MS) : undefined;
}

function backoffMs(attempt: number): number {
	const exponential = Math.min(BASE_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS);
	return exponential / 2 + Math.random() * (exponential / 2);
}

function mayRetryStatus(policy: RetryPolicy, status: number): boolean {
	if (policy === 'idempotent') return RETRYABLE_STATUSES.has(status);
	if (policy === 'notProcessed') return NOT_PROCESSED_STATUSES.has(status);
	return false;
}

function mayRetryNetwork(policy: RetryPolicy, problem: NetworkProblem): boolean {
	// A timeout means the service stopped answering: retrying would multiply the wait.
	return policy === 'idempotent' && !problem.timedOut && RETRYABLE_NETWORK_CODES.has(problem.code);
}

async function readSmallBody(stream: unknown): Promise<unknown> {
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

/**
 * The one place that knows URLs, query encoding, request options, retries and error
 * shapes. Operations describe a call; this sends it signed through the credential.
 */
export class FileStorageClient {
	private constructor(
		private readonly ctx: Context,
		private readonly origin: string,
		private readonly settings: TransportSettings,
		private readonly itemIndex: number,
	) {}

	static async create(ctx: Context, itemIndex: number, settings: Partial<TransportSettings> = {}) {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const base = checkBaseUrl(credentials.baseUrl);
		if (!base.ok) {
			throw new NodeOperationError(ctx.getNode(), `File Storage API credential: ${base.problem}`, {
				itemIndex,
				description: 'Open the credential and correct its Base URL field.',
			});
		}
		return new FileStorageClient(ctx, base.origin, { ...DEFAULT_SETTINGS, ...settings }, itemIndex);
	}

	/** Absolute URL of an API call; the credential signs its path and query as they stand. */
	private urlFor(path: string, query: Array<[string, QueryValue]> = []): string {
		return `${this.origin}${buildTarget(path, query)}`;
	}

	async send<T = IDataObject>(call: ApiCall): Promise<T> {
		const response = await this.sendRaw(call);
		const body = response.body as IDataObject | undefined;
		if (call.responseType === 'stream') return body as T;
		if (!body || typeof body !== 'object' || !('data' in body)) {
			throw httpError(
				this.ctx.getNode(),
				call.what,
				{ status: response.statusCode, body: 'the response has no "data" object', attempts: 1 },
				this.itemIndex,
			);
		}
		return body.data as T;
	}

	private async sendRaw(call: ApiCall): Promise<IN8nHttpFullResponse> {
		const options = this.requestOptions(this.urlFor(call.path, call.query), call);
		// A fresh copy each attempt: authentication rewrites url and headers, and every
		// attempt must be signed anew with the current time.
		return await this.withRetries(
			call,
			async () =>
				(await this.ctx.helpers.httpRequestWithAuthentication.call(this.ctx, CREDENTIAL_TYPE, {
					...options,
				})) as IN8nHttpFullResponse,
		);
	}

	/**
	 * GET of a URL the service handed out (a file location or a signed link): it carries
	 * its own authorisation, so it goes out unsigned, with the same retries and errors.
	 */
	async fetchLink(url: string, what: string): Promise<IN8nHttpFullResponse> {
		const call: ApiCall = { method: 'GET', path: '', what, retry: 'idempotent', responseType: 'stream' };
		const options = this.requestOptions(url, call);
		return await this.withRetries(
			call,
			async () => (await this.ctx.helpers.httpRequest({ ...options })) as IN8nHttpFullResponse,
		);
	}

	private requestOptions(url: string, call: ApiCall): IHttpRequestOptions {
		return {
			method: call.method,
			url,
			headers: call.headers,
			body: call.body,
			json: !Buffer.isBuffer(call.body) && call.responseType !== 'stream',
			encoding: call.responseType === 'stream' ? 'stream' : undefined,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.settings.timeoutMs,
			// Redirect support makes the HTTP client keep a replay copy of the body; the API
			// never redirects, so parts go out without that copy.
			disableFollowRedirect: true,
		};
	}

	private async withRetries(
		call: ApiCall,
		attemptOnce: () => Promise<IN8nHttpFullResponse>,
	): Promise<IN8nHttpFullResponse> {
		const node = this.ctx.getNode();
		for (let attempt = 0; ; attempt++) {
			let response: IN8nHttpFullResponse;
			try {
				response = await attemptOnce();
			} catch (error) {
				const problem = describeNetworkProblem(error);
				if (attempt < this.settings.maxRetries && mayRetryNetwork(call.retry, problem)) {
					await sleep(backoffMs(attempt));
					continue;
				}
				throw networkError(
					node,
					call.what,
					problem.reason,
					attempt + 1,
					this.itemIndex,
					problem.timedOut
						? `No answer within ${Math.round(this.settings.timeoutMs / 1000)} s. Raise the Timeout option if the service is slow, or check that it is reachable.`
						: `Network error${problem.code ? ` ${problem.code}` : ''}. Check the Base URL of the credential and that the service is reachable from the n8n host.`,
				);
			}
			const status = response.statusCode;
			if (status >= 200 && status < 300) return response;
			const body = call.responseType === 'stream' ? await readSmallBody(response.body) : response.body;
			if (attempt < this.settings.maxRetries && mayRetryStatus(call.retry, status)) {
				await sleep(retryAfterMs(response.headers) ?? backoffMs(attempt));
				continue;
			}
			throw httpError(
				node,
				call.what,
				{ status, body, serverDate: response.headers?.date as string | undefined, attempts: attempt + 1 },
				this.itemIndex,
			);
		}
	}
}
