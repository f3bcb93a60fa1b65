import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { FileStorageApi } from '../../../credentials/FileStorageApi.credentials';
import { linkRewritesKey, rewrittenLinkWords } from '../helpers/keys';
import {
	httpError,
	linkSecrets,
	networkError,
	serverSaid,
	unexpectedAnswerError,
	withoutSecrets,
	type CallTarget,
} from './errors';
import { isApiErrorAnswer, notTheApi } from './apiAnswer';
import { refusedByN8n } from './ssrf';
import {
	apiPathsSetting,
	FAMILY_NAMES,
	familyMemory,
	isMissingPath,
	otherFamily,
	plainText,
	type ApiPathsSetting,
	type FamilyRoutes,
	type PathFamily,
	type Route,
} from './pathFamily';
import { releaseWithBody, runPoolOf, type RunPool } from './pool';
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
}

export interface TransportSettings {
	timeoutMs: number;
	maxRetries: number;
}

export const DEFAULT_SETTINGS: TransportSettings = { timeoutMs: 300_000, maxRetries: 3 };

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const NOT_PROCESSED_STATUSES = new Set([429, 503]);
/** Failures that happen before a request reaches the service: it cannot have been carried out. */
const NEVER_SENT_NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
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
/** A service asking to wait longer than this is not waited for: the error says how long it asked. */
export const MAX_RETRY_AFTER_MS = 60_000;
/**
 * n8n's request timeout runs from the start of a request to its answer, so it includes
 * sending the body. The Timeout option means waiting for the service; a request with a body
 * gets that plus the time to send the body at this slowest accepted rate (8 Mbit/s per
 * request): a part on a slower link still gets the Timeout option on top.
 */
export const SLOWEST_SEND_BYTES_PER_SECOND = 1024 * 1024;
const MAX_REDIRECTS = 5;
const CLEANUP_RETRIES = 2;

type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

interface NetworkProblem {
	code: string;
	timedOut: boolean;
	cancelled: boolean;
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
	const cancelled =
		code === 'ERR_CANCELED' || candidates.some((c) => c.name === 'CanceledError' || c.name === 'AbortError');
	const timedOut = !cancelled && (/timeout|timed out/i.test(text) || code === 'ETIMEDOUT');
	const isAbort = code === 'ECONNABORTED' && !timedOut;
	let reason = 'the request could not be sent';
	if (cancelled) reason = 'the execution was stopped';
	else if (timedOut) reason = 'no response from the service within the timeout';
	else if (code === 'ECONNRESET' || /socket hang up/i.test(text))
		reason = 'the connection was closed by the service mid-request';
	else if (code === 'ECONNREFUSED')
		reason = 'the service refused the connection (is the Base URL right and the service up?)';
	else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') reason = 'the host name of the Base URL could not be resolved';
	else if (isAbort) reason = 'the request was aborted';
	return { code: code || (/socket hang up/i.test(text) ? 'ECONNRESET' : ''), timedOut, cancelled, reason };
}

/** How long the service asked to wait (Retry-After as seconds or as a date), uncapped. */
function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (value === undefined) return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(seconds * 1000, 0);
	const date = Date.parse(String(value));
	return Number.isFinite(date) ? Math.max(date - Date.now(), 0) : undefined;
}

/**
 * How long to wait before the next attempt of a request that failed: what the server asked
 * (Retry-After) or else a backoff. Above MAX_RETRY_AFTER_MS it is not waited for (see waitTooLongHint).
 * Shared by the service's calls and a Source URL.
 */
export function retryWaitMs(headers: IDataObject | undefined, attempt: number): number {
	return retryAfterMs(headers) ?? backoffMs(attempt);
}

/** Why an answer was not retried after all: `who` ('The service', 'The source') asked for a longer wait. */
export function waitTooLongHint(who: string, waitMs: number): string {
	return `${who} asked to wait ${Math.round(waitMs / 1000)} s before trying again, longer than the ${MAX_RETRY_AFTER_MS / 1000} s this node waits within one run. Run it again later.`;
}

function bodyBytes(call: ApiCall): number {
	return Buffer.isBuffer(call.body) ? call.body.length : 0;
}

function describeSize(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
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
	return (
		policy === 'idempotent' && !problem.timedOut && !problem.cancelled && RETRYABLE_NETWORK_CODES.has(problem.code)
	);
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
 * The credential as read once for an item, handed to every request of that item. Without it
 * n8n reads and decrypts the credential again for each request: in n8n itself that is a
 * database query per part (in the in-process test engine a map lookup), a serial step in
 * front of every part of a large upload. Each request gets its own copy of the fields, so
 * nothing n8n does to them while signing one request reaches the next.
 */
function decryptedOnce(ctx: Context, data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	const details = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: details?.id ?? '', name: details?.name ?? '', type: CREDENTIAL_TYPE, data };
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
		private readonly credentials: ICredentialsDecrypted,
		private readonly apiPaths: ApiPathsSetting,
		/** The node run's request pool (version 3): every request takes a slot of it. */
		private readonly pool: RunPool | undefined,
	) {}

	/** The family that worked for this client (one item: a multipart upload keeps to it). */
	private family: PathFamily | undefined;

	static async create(ctx: Context, itemIndex: number, settings: Partial<TransportSettings> = {}) {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const base = checkBaseUrl(credentials.baseUrl);
		if (!base.ok) {
			throw new NodeOperationError(ctx.getNode(), `File Storage API credential: ${base.problem}`, {
				itemIndex,
				description: 'Open the credential and correct its Base URL field.',
			});
		}
		return new FileStorageClient(
			ctx,
			base.origin,
			{ ...DEFAULT_SETTINGS, ...settings },
			itemIndex,
			decryptedOnce(ctx, credentials),
			apiPathsSetting(credentials.apiPaths),
			runPoolOf(ctx),
		);
	}

	/**
	 * One attempt in a slot of the run's pool, when there is one. A streamed answer (a download)
	 * holds its slot until its body is done with, so downloads count against the pool too; an
	 * answer without a body to read (`bodyless`: a HEAD) gives it back at once, whatever its caller
	 * does with the answer.
	 */
	private async inSlot(attempt: () => Promise<IN8nHttpFullResponse>, bodyless = false): Promise<IN8nHttpFullResponse> {
		if (!this.pool) return await attempt();
		const release = await this.pool.slot();
		let response: IN8nHttpFullResponse | undefined;
		try {
			response = await attempt();
		} finally {
			if (!response) release();
		}
		// Paused before the slot goes to the next request, which would otherwise go out at once.
		const asked = retryAfterMs(response.headers);
		if (NOT_PROCESSED_STATUSES.has(response.statusCode) && (asked ?? 0) <= MAX_RETRY_AFTER_MS) {
			this.pool.pause(asked ?? BASE_BACKOFF_MS);
		}
		// A HEAD is over once its headers are in: nothing of it holds the connection after that.
		if (bodyless) release();
		else releaseWithBody(response.body, release);
		return response;
	}

	/** The Timeout option in ms: how long the service may take to answer or to send the next bytes. */
	get idleTimeoutMs(): number {
		return this.settings.timeoutMs;
	}

	/** The error for a 2xx answer that lacks what the node relies on; `problem` names the field. */
	unexpectedAnswer(what: string, problem: string) {
		return unexpectedAnswerError(this.ctx.getNode(), what, problem, this.itemIndex);
	}

	/** The execution's stop signal; load-options calls have none. */
	private executionSignal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		return ctx.getExecutionCancelSignal?.() as AbortSignal | undefined;
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
		if (!call.family) return await this.sendTo(call, call);
		if (this.apiPaths !== 'auto') {
			const route = call.family[this.apiPaths];
			const response = await this.sendTo(call, route, true);
			if (!isMissingPath(response.statusCode, response.body)) return response;
			throw this.missingPathError(call, response, [this.apiPaths]);
		}
		return await this.sendInLearnedFamily(call, call.family);
	}

	/**
	 * Whether calls in `family` would first have to find out the service's path family (the
	 * credential's API Paths is Automatic and nothing is learned yet for this Base URL).
	 */
	familyUnknown(): boolean {
		return this.apiPaths === 'auto' && (this.family ?? familyMemory.known(this.origin)) === undefined;
	}

	/**
	 * Learns the path family with a cheap call (a one-entry listing) instead of with the first
	 * large part, which the other parts would otherwise wait for: on a far service that is a whole
	 * part's sending time per upload. A success teaches the family, and so does an error only the
	 * route gives (the API's 400, 404, or 403 for a key without list permission); nothing of it is
	 * reported, and when it does not settle the family (a 401, a 500), the first part finds out as
	 * before.
	 */
	async learnFamilyWith(call: ApiCall): Promise<void> {
		if (!call.family || !this.familyUnknown()) return;
		// Another item is finding out already: its answer is enough.
		const probe = familyMemory.probing(this.origin);
		if (probe) return await probe;
		await this.sendInLearnedFamily(call, call.family).catch(() => undefined);
	}

	/**
	 * The family this client or process learned for the Base URL; when none is known, the first
	 * request finds out (the reference's paths first) while the others wait for its answer.
	 */
	private async chooseFamily(): Promise<{ family: PathFamily; release?: () => void }> {
		for (;;) {
			const known = this.family ?? familyMemory.known(this.origin);
			if (known) return { family: known };
			const probe = familyMemory.probing(this.origin);
			if (!probe) return { family: 'reference', release: familyMemory.beginProbe(this.origin) };
			await probe;
		}
	}

	private learn(family: PathFamily): void {
		this.family = family;
		familyMemory.remember(this.origin, family);
	}

	/**
	 * Sends in the chosen family; a 404 that is not the API's own answer means the path does not
	 * exist at this Base URL, so the call goes once more in the other family. The family that gave
	 * the API's answer (a success, or its own 400 or 404, which only an existing route gives) is
	 * remembered. Bodies are Buffers, so sending again sends the same bytes.
	 */
	private async sendInLearnedFamily(call: ApiCall, routes: FamilyRoutes): Promise<IN8nHttpFullResponse> {
		const { family, release } = await this.chooseFamily();
		const answerIn = async (tried: PathFamily): Promise<IN8nHttpFullResponse> => {
			const response = await this.sendTo(call, routes[tried], true).catch((error: unknown) => {
				if (error instanceof NodeApiError && answeredOnTheRoute(error)) {
					this.learn(tried);
				}
				throw error;
			});
			if (!isMissingPath(response.statusCode, response.body)) this.learn(tried);
			return response;
		};
		try {
			const first = await answerIn(family);
			if (!isMissingPath(first.statusCode, first.body)) return first;
			const other = otherFamily(family);
			const second = await answerIn(other);
			if (!isMissingPath(second.statusCode, second.body)) return second;
			throw this.missingPathError(call, second, [family, other]);
		} finally {
			release?.();
		}
	}

	/** The error for a path that does not exist in the family (or either family) tried. */
	private missingPathError(call: ApiCall, response: IN8nHttpFullResponse, tried: PathFamily[]): NodeApiError {
		const routes = call.family as FamilyRoutes;
		const spell = (family: PathFamily) => `${routes[family].method} ${routes[family].path.split('?')[0]}`;
		const failure = httpError(
			this.ctx.getNode(),
			call.what,
			{ status: response.statusCode, body: plainText(response.body) || 'Not Found', attempts: 1, origin: this.origin },
			this.itemIndex,
		);
		const said = serverSaid(plainText(response.body));
		// With one family pinned the Base URL may well be right: the headline names the missing path.
		if (tried.length === 1) {
			failure.message = `${call.what} failed: the server at ${this.origin} has no ${spell(tried[0])} (HTTP ${response.statusCode})`;
		}
		failure.description =
			(tried.length > 1
				? notTheApi(
						`neither ${spell('reference')} (${FAMILY_NAMES.reference}) nor ${spell('sdk')} (${FAMILY_NAMES.sdk}) exists at ${this.origin}`,
					)
				: `${spell(tried[0])} (the path of ${FAMILY_NAMES[tried[0]]}) does not exist at ${this.origin}, and the credential's API Paths setting allows no other. Set API Paths to Automatic (or to the other family), or check the Base URL.`) +
			said;
		return failure;
	}

	/**
	 * One call to one route, with retries. `missingPathIsAnswer`: a 404 that is not the API's own
	 * comes back as a response (for the family logic to judge) instead of as an error.
	 */
	private async sendTo(call: ApiCall, route: Route, missingPathIsAnswer = false): Promise<IN8nHttpFullResponse> {
		const options = this.requestOptions(this.urlFor(route.path, call.query), { ...call, method: route.method });
		// A fresh copy each attempt: authentication rewrites url and headers, and every
		// attempt must be signed anew with the current time.
		if (call.detachedForMs !== undefined) {
			const deadline = Date.now() + call.detachedForMs;
			return await this.withRetries(
				call,
				async () => await this.sendDetached({ ...options }, Math.max(deadline - Date.now(), 1)),
				missingPathIsAnswer,
			);
		}
		return await this.withRetries(
			call,
			async () =>
				await this.inSlot(
					async () =>
						(await this.ctx.helpers.httpRequestWithAuthentication.call(
							this.ctx,
							CREDENTIAL_TYPE,
							{ ...options },
							{ credentialsDecrypted: { ...this.credentials, data: { ...this.credentials.data } } },
						)) as IN8nHttpFullResponse,
				),
			missingPathIsAnswer,
		);
	}

	/**
	 * Signed by the credential's own `authenticate`, sent by n8n's plain request helper, which
	 * (unlike the authenticated one) keeps the signal it is given instead of the execution's.
	 */
	private async sendDetached(options: IHttpRequestOptions, boundMs: number): Promise<IN8nHttpFullResponse> {
		const signed = await new FileStorageApi().authenticate({ ...this.credentials.data }, options);
		return (await this.ctx.helpers.httpRequest({
			...signed,
			timeout: Math.min(signed.timeout ?? boundMs, boundMs),
			abortSignal: AbortSignal.timeout(boundMs),
		})) as IN8nHttpFullResponse;
	}

	/**
	 * GET (or HEAD: Get Info) of a URL the service handed out (a file location or a signed link): it carries
	 * its own authorisation, so it goes out unsigned, with the same retries and errors.
	 * Redirects are followed (a CDN may send the client elsewhere), and the body is asked for
	 * uncompressed so its length can be checked against Content-Length.
	 */
	async fetchLink(url: string, what: string, method: 'GET' | 'HEAD' = 'GET'): Promise<IN8nHttpFullResponse> {
		// The HTTP client would fetch another file than the link names: refused, never served.
		const rewrite = linkRewritesKey(url);
		if (rewrite) {
			const words = rewrittenLinkWords(what, rewrite);
			throw new NodeOperationError(this.ctx.getNode(), words.message, {
				itemIndex: this.itemIndex,
				description: words.description,
			});
		}
		const call: ApiCall = {
			method,
			path: '',
			what,
			retry: 'idempotent',
			responseType: 'stream',
			headers: { 'Accept-Encoding': 'identity' },
			link: true,
			secrets: linkSecrets(url),
		};
		const options: IHttpRequestOptions = {
			...this.requestOptions(url, call),
			disableFollowRedirect: false,
			maxRedirects: MAX_REDIRECTS,
			abortSignal: this.executionSignal(),
		};
		return await this.withRetries(
			call,
			async () =>
				await this.inSlot(
					async () => (await this.ctx.helpers.httpRequest({ ...options })) as IN8nHttpFullResponse,
					method === 'HEAD',
				),
		);
	}

	/** n8n's deadline for one attempt: the Timeout option, plus time to send the body on a slow link. */
	private deadlineMs(call: ApiCall): number {
		const wait = Math.min(call.timeoutMs ?? this.settings.timeoutMs, this.settings.timeoutMs);
		return wait + Math.ceil((bodyBytes(call) / SLOWEST_SEND_BYTES_PER_SECOND) * 1000);
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
			timeout: this.deadlineMs(call),
			// Redirect support makes the HTTP client keep a replay copy of the body; the API
			// never redirects, so parts go out without that copy.
			disableFollowRedirect: true,
		};
	}

	private timeoutHint(call: ApiCall): string {
		const waitSeconds = Math.round(this.settings.timeoutMs / 1000);
		const bytes = bodyBytes(call);
		if (bytes === 0) {
			return `No answer within ${waitSeconds} s. Raise the Timeout option if the service is slow, or check that it is reachable.`;
		}
		const sendSeconds = Math.round((this.deadlineMs(call) - this.settings.timeoutMs) / 1000);
		return (
			`No answer within ${waitSeconds + sendSeconds} s: the Timeout option (${waitSeconds} s) plus ${sendSeconds} s to send ` +
			`${describeSize(bytes)} at ${describeSize(SLOWEST_SEND_BYTES_PER_SECOND)}/s or faster. Either the link to the service ` +
			'is slower than that (lower Part Size or Parallel Uploads) or the service stopped answering (raise Timeout, or retry later).'
		);
	}

	private stopped(call: ApiCall): boolean {
		return call.detachedForMs === undefined && this.executionSignal()?.aborted === true;
	}

	private async withRetries(
		call: ApiCall,
		attemptOnce: () => Promise<IN8nHttpFullResponse>,
		missingPathIsAnswer = false,
	): Promise<IN8nHttpFullResponse> {
		const node = this.ctx.getNode();
		// Clean-up is what keeps a failure from leaving parts behind: it gets retries of its own.
		const maxRetries =
			call.detachedForMs === undefined ? this.settings.maxRetries : Math.max(this.settings.maxRetries, CLEANUP_RETRIES);
		// Whether an attempt before this one may have been carried out: an answer lost on the way
		// back or a 500/502/504 may hide work done, a 429/503 or a refused connection does not.
		let earlierMayHaveRun = false;
		for (let attempt = 0; ; attempt++) {
			let response: IN8nHttpFullResponse;
			try {
				response = await attemptOnce();
			} catch (error) {
				const refusal = refusedByN8n(error);
				if (refusal) {
					throw networkError(node, call.what, refusal.message, attempt + 1, this.itemIndex, refusal.description, {
						timedOut: false,
					});
				}
				const problem = describeNetworkProblem(error);
				if (this.stopped(call)) problem.reason = 'the execution was stopped';
				else if (attempt < maxRetries && mayRetryNetwork(call.retry, problem)) {
					earlierMayHaveRun ||= !NEVER_SENT_NETWORK_CODES.has(problem.code);
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
						? this.timeoutHint(call)
						: `Network error${problem.code ? ` ${problem.code}` : ''}. Check the Base URL of the credential and that the service is reachable from the n8n host.`,
					{ timedOut: problem.timedOut },
				);
			}
			const status = response.statusCode;
			if (status >= 200 && status < 300) return response;
			const answered = call.responseType === 'stream' ? await readSmallBody(response.body) : response.body;
			const body = withoutSecrets(answered, call.secrets ?? []);
			if (missingPathIsAnswer && isMissingPath(status, body))
				return { ...response, body: body as IN8nHttpFullResponse['body'] };
			const waitMs = retryWaitMs(response.headers, attempt);
			// The service is overloaded, not this request: with a run pool every request of the
			// run waits, so parallel items do not turn one 429 into a burst of retries.
			const pauseAll = this.pool !== undefined && NOT_PROCESSED_STATUSES.has(status) && waitMs <= MAX_RETRY_AFTER_MS;
			if (pauseAll) this.pool!.pause(waitMs);
			const mayRetry = attempt < maxRetries && mayRetryStatus(call.retry, status) && !this.stopped(call);
			if (mayRetry && waitMs <= MAX_RETRY_AFTER_MS) {
				earlierMayHaveRun ||= !NOT_PROCESSED_STATUSES.has(status);
				// With the pool paused, the next attempt waits in the pool, in its turn. A clean-up
				// call takes no slot (see sendDetached), so it waits on its own.
				if (!pauseAll || call.detachedForMs !== undefined) await sleep(waitMs);
				continue;
			}
			const failure = httpError(
				node,
				call.what,
				{
					status,
					body,
					serverDate: response.headers?.date as string | undefined,
					attempts: attempt + 1,
					link: call.link,
					origin: this.origin,
					target: targetOf(call),
				},
				this.itemIndex,
			);
			if (mayRetry) {
				failure.description = waitTooLongHint('The service', waitMs);
			}
			failure.context.earlierAttemptMayHaveRun = earlierMayHaveRun;
			failure.context.apiErrorAnswer = isApiErrorAnswer(body);
			throw failure;
		}
	}
}

/** The bucket, region and key a call names (its query), for a 404 to say which was not found. */
function targetOf(call: ApiCall): CallTarget {
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
	};
}

/**
 * A failure only the route itself gives, so its family exists: the API's 400 or 404, or its own
 * 403 (a key without permission for that operation). A 401 (a signature refused) may come before
 * any routing, so it teaches nothing.
 */
function answeredOnTheRoute(error: NodeApiError): boolean {
	if (error.httpCode === '400' || error.httpCode === '404') return true;
	return error.httpCode === '403' && error.context.apiErrorAnswer === true;
}
