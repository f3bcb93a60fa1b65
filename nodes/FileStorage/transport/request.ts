import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { linkRewritesKey, rewrittenLinkWords } from '../files/keys';
import { inPoolSlot, runAttempts } from './attempts';
import {
	DEFAULT_SETTINGS,
	headerValue,
	readSmallBody,
	requestOptions,
	type ApiCall,
	type TransportSettings,
} from './call';
import { apiAnswerKept } from './cacheMarks';
import { followRedirects, type FollowedAnswer } from './redirects';
import {
	CREDENTIAL_TYPE,
	decryptedOnce,
	sendDetached,
	sendSigned,
	type ClientRun,
	type ClientSetup,
	type Context,
} from './clientSetup';
import {
	callKeptFailure,
	callNetworkFailure,
	callStatusFailure,
	checkBeforeResend,
	type CallSite,
} from './callFailures';
import { isApiErrorAnswer } from './apiAnswer';
import { httpError, linkSecrets, unexpectedAnswerError, withoutSecrets } from './errors';
import { FamilyRouter } from './familyRouter';
import { WaitCount } from './looks';
import { apiPathsSetting, isMissingPath, type FamilyRoutes, type Route } from './pathFamily';
import { buildTarget, checkBaseUrl, querySignedTarget, type QueryValue } from './signing';
import { steadyMs } from './clock';

export { DEFAULT_SETTINGS, SLOWEST_SEND_BYTES_PER_SECOND } from './call';
export type { ApiCall, ResendCheck, RetryPolicy, TransportSettings, WrittenFile } from './call';
export { CREDENTIAL_TYPE } from './clientSetup';
export type { ClientRun } from './clientSetup';

/** Clean-up is what keeps a failure from leaving parts behind: it gets retries of its own. */
const CLEANUP_RETRIES = 2;

/**
 * The one place that knows URLs, query encoding, request options and error shapes. Operations
 * describe a call; this sends it signed through the credential, with the attempts of attempts.ts.
 */
export class FileStorageClient {
	private readonly router: FamilyRouter;

	private readonly ctx: Context;

	private constructor(private readonly setup: ClientSetup) {
		this.ctx = setup.ctx;
		this.router = new FamilyRouter({
			origin: setup.origin,
			apiPaths: setup.apiPaths,
			node: setup.ctx.getNode(),
			itemIndex: setup.itemIndex,
			sendTo: async (call, route, missingPathIsAnswer) => await this.sendTo(call, route, missingPathIsAnswer),
		});
	}

	/** `run`: the run's request pool and who learns of writes that may still land (see ClientRun). */
	static async create(ctx: Context, itemIndex: number, settings: Partial<TransportSettings> = {}, run: ClientRun = {}) {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const base = checkBaseUrl(credentials.baseUrl);
		if (!base.ok) {
			throw new NodeOperationError(ctx.getNode(), `File Storage API credential: ${base.problem}`, {
				itemIndex,
				description: 'Open the credential and correct its Base URL field.',
			});
		}
		return new FileStorageClient({
			ctx,
			origin: base.origin,
			settings: { ...DEFAULT_SETTINGS, ...settings },
			itemIndex,
			credentials: decryptedOnce(ctx, credentials),
			waits: new WaitCount(),
			...run,
			apiPaths: apiPathsSetting(credentials.apiPaths),
		});
	}

	/** One attempt in a slot of the run's pool, when there is one and none is held (inPoolSlot); then `beforeGoing`. */
	private async inSlot(
		beforeGoing: ((waited: boolean) => Promise<void>) | undefined,
		attempt: () => Promise<IN8nHttpFullResponse>,
		bodyless = false,
	): Promise<IN8nHttpFullResponse> {
		const going = async (waited: boolean) => {
			await beforeGoing?.(waited);
			return await attempt();
		};
		if (!this.setup.pool || this.setup.slotHeld) return await going(false);
		return await inPoolSlot(this.setup.pool, going, bodyless);
	}

	/** This client for requests sent in a slot one of its requests holds (ClientSetup.slotHeld). */
	private inHeldSlot(): FileStorageClient {
		return this.setup.pool && !this.setup.slotHeld ? new FileStorageClient({ ...this.setup, slotHeld: true }) : this;
	}

	/**
	 * This client with a count of waits of its own (looks.ts): a look and the send that acts on it go
	 * through it, so that only their waits count, not those of the item's requests beside them.
	 */
	forLook(): FileStorageClient {
		return new FileStorageClient({ ...this.setup, waits: new WaitCount() });
	}

	/** Its requests' waits: a look notes `mark()` when it begins (ResendCheck.lookedAt, looks.ts). */
	get waits(): WaitCount {
		return this.setup.waits;
	}

	/** The Timeout option in ms: how long the service may take to answer or to send the next bytes. */
	get idleTimeoutMs(): number {
		return this.setup.settings.timeoutMs;
	}

	/** The error for a 2xx answer that lacks what the node relies on; `problem` names the field. */
	unexpectedAnswer(what: string, problem: string) {
		return unexpectedAnswerError(this.ctx.getNode(), what, problem, this.setup.itemIndex);
	}

	/** The execution's stop signal; load-options calls have none. */
	private executionSignal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		return ctx.getExecutionCancelSignal?.() as AbortSignal | undefined;
	}

	/** Absolute URL of an API call; the credential signs its path and query as they stand. */
	private urlFor(path: string, query: Array<[string, QueryValue]> = []): string {
		return `${this.setup.origin}${buildTarget(path, query)}`;
	}

	/**
	 * An API call's absolute URL signed in its query (spec §3.10) for another client to send,
	 * with the same signer as every request; nothing is sent.
	 */
	querySignedUrl(method: string, path: string, query: Array<[string, QueryValue]>, timestamp: string): string {
		const { accessKey, secretKey } = this.setup.credentials.data ?? {};
		const target = buildTarget(path, query);
		return `${this.setup.origin}${querySignedTarget(String(accessKey ?? ''), String(secretKey ?? ''), method, target, timestamp)}`;
	}

	async send<T = IDataObject>(call: ApiCall): Promise<T> {
		return (await this.sendDated<T>(call)).data;
	}

	/**
	 * A call's `data`, with its answer's HTTP Date as sent (the service's clock; undefined when it
	 * sent none): the calls whose time bounds a later read's (files/proof.ts) ask for it.
	 */
	async sendDated<T = IDataObject>(call: ApiCall): Promise<{ data: T; date?: string }> {
		const response = await this.sendRaw(call);
		const date = headerValue(response.headers, 'date');
		return { data: this.dataOf<T>(call, response), ...(date === undefined ? {} : { date }) };
	}

	private dataOf<T>(call: ApiCall, response: IN8nHttpFullResponse): T {
		const body = response.body as IDataObject | undefined;
		if (call.responseType === 'stream') return body as T;
		if (!body || typeof body !== 'object' || !('data' in body)) {
			throw httpError(
				this.ctx.getNode(),
				call.what,
				{ status: response.statusCode, body: 'the response has no "data" object', attempts: 1 },
				this.setup.itemIndex,
			);
		}
		return body.data as T;
	}

	private async sendRaw(call: ApiCall): Promise<IN8nHttpFullResponse> {
		if (!call.family) return await this.sendTo(call, call);
		return await this.router.send(call as ApiCall & { family: FamilyRoutes });
	}

	/**
	 * Whether calls in `family` would first have to find out the service's path family (the
	 * credential's API Paths is Automatic and nothing is learned yet for this Base URL).
	 */
	familyUnknown(): boolean {
		return this.router.familyUnknown();
	}

	/** Learns the path family with a cheap call before large parts go out (see FamilyRouter). */
	async learnFamilyWith(call: ApiCall): Promise<void> {
		await this.router.learnFamilyWith(call);
	}

	/**
	 * One call to one route, with retries. `missingPathIsAnswer`: a 404 that is not the API's own
	 * comes back as a response (for the family logic to judge) instead of as an error.
	 */
	private async sendTo(call: ApiCall, route: Route, missingPathIsAnswer = false): Promise<IN8nHttpFullResponse> {
		const options = requestOptions(
			this.urlFor(route.path, call.query),
			{ ...call, method: route.method },
			this.setup.settings,
		);
		// A fresh copy each attempt: authentication rewrites url and headers, and every
		// attempt must be signed anew with the current time. `beforeGoing` runs once every wait is over.
		if (call.detachedForMs !== undefined) {
			// Whole milliseconds: AbortSignal.timeout takes integers only, and the steady clock has fractions.
			const deadline = steadyMs() + call.detachedForMs;
			return await this.attempts(
				call,
				async (beforeGoing) => {
					await beforeGoing?.(false);
					return await sendDetached(this.setup, { ...options }, Math.max(Math.ceil(deadline - steadyMs()), 1));
				},
				missingPathIsAnswer,
			);
		}
		const signed = async () => await sendSigned(this.setup, { ...options });
		return await this.attempts(call, async (go) => await this.inSlot(go, signed), missingPathIsAnswer);
	}

	/**
	 * GET (or HEAD: Get Info) of a URL the service handed out (a file location or a signed link): it carries
	 * its own authorisation, so it goes out unsigned, with the same retries and errors.
	 * Redirects are followed (a CDN may send the client elsewhere) here, not by n8n's HTTP client,
	 * which hands back the last answer's headers only: a redirect a cache kept is no proof of the
	 * version it leads to, so every redirect's headers stay with the answer (redirects.ts, cacheMarks.ts).
	 * The body is asked for uncompressed so its length can be checked against Content-Length.
	 */
	async fetchLink(url: string, what: string, method: 'GET' | 'HEAD' = 'GET'): Promise<FollowedAnswer> {
		// The HTTP client would fetch another file than the link names: refused, never served.
		const rewrite = linkRewritesKey(url);
		if (rewrite) {
			const words = rewrittenLinkWords(what, rewrite);
			throw new NodeOperationError(this.ctx.getNode(), words.message, {
				itemIndex: this.setup.itemIndex,
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
			...requestOptions(url, call, this.setup.settings),
			disableFollowRedirect: true,
		};
		const execution = this.executionSignal();
		const attempt = async (): Promise<FollowedAnswer> => {
			// Its own signal, so a body that stalls can be ended at its socket (FollowedAnswer.closeConnection).
			const connection = new AbortController();
			const abortSignal = execution ? AbortSignal.any([execution, connection.signal]) : connection.signal;
			// The hops go out with the link's own headers only (no credential is ever sent to a link).
			const sendHop = async (hop: URL) =>
				(await this.ctx.helpers.httpRequest({ ...options, url: hop.href, abortSignal })) as IN8nHttpFullResponse;
			const answer = await followRedirects(new URL(url), sendHop);
			return { ...answer, closeConnection: () => connection.abort() };
		};
		return await this.attempts(call, async (go) => await this.inSlot(go, attempt, method === 'HEAD'));
	}

	private stopped(call: ApiCall): boolean {
		return call.detachedForMs === undefined && this.executionSignal()?.aborted === true;
	}

	private get site(): CallSite {
		return {
			node: this.ctx.getNode(),
			itemIndex: this.setup.itemIndex,
			origin: this.setup.origin,
			settings: this.setup.settings,
		};
	}

	/**
	 * The attempts of one call. A streamed error answer is read for the error to quote, and a
	 * link's secrets are taken out of it. `missingPathIsAnswer`: see sendTo.
	 */
	private async attempts(
		call: ApiCall,
		send: (beforeGoing?: (waited: boolean) => Promise<void>) => Promise<IN8nHttpFullResponse>,
		missingPathIsAnswer = false,
	): Promise<IN8nHttpFullResponse> {
		const detached = call.detachedForMs !== undefined;
		// An API answer a cache kept is no answer of the service now (a link's is judged by files/proof.ts).
		const kept = (answer: IN8nHttpFullResponse) => (call.link ? undefined : apiAnswerKept(answer.headers));
		const response = await runAttempts({
			policy: call.retry,
			maxRetries: detached ? Math.max(this.setup.settings.maxRetries, CLEANUP_RETRIES) : this.setup.settings.maxRetries,
			send,
			stopped: () => this.stopped(call),
			pool: this.setup.pool,
			// A clean-up call takes no slot (see sendDetached), nor one sent in a held slot: they wait on their own.
			outsidePool: detached || this.setup.slotHeld === true,
			settle: async (response) => {
				const answered = call.responseType === 'stream' ? await readSmallBody(response.body) : response.body;
				const answer = {
					...response,
					body: withoutSecrets(answered, call.secrets ?? []) as IN8nHttpFullResponse['body'],
				};
				return { answer, done: missingPathIsAnswer && isMissingPath(answer.statusCode, answer.body) };
			},
			networkFailure: (problem, facts) => callNetworkFailure(this.site, call, problem, facts),
			statusFailure: (answer, facts) => {
				const marks = kept(answer);
				return marks ? this.keptFailure(call, marks) : callStatusFailure(this.site, call, answer, facts);
			},
			beforeResend: async (facts) => await checkBeforeResend(this.site, call, facts, this.inHeldSlot()),
			// Every check of a destructive call is asked before its first send too once anything waited since its look.
			checkFirst: call.resendCheck?.guards === 'replace' && call.resendCheck.first === true ? 'always' : 'afterWait',
			waitedSinceLook: () => call.resendCheck !== undefined && this.waits.since(call.resendCheck.lookedAt),
			onWait: () => this.setup.waits.note(),
			apiRefusal: (answer) => !call.link && isApiErrorAnswer(answer.body),
			onOutcomeUnknown: () => {
				if (call.writes) this.setup.onWriteMayLand?.(call.writes);
			},
		});
		const marks = kept(response);
		if (marks) {
			(response.body as { destroy?: () => void } | undefined)?.destroy?.();
			throw this.keptFailure(call, marks);
		}
		return response;
	}

	/** An answer a cache marks as kept: a write it answers may still have been carried out (its key is marked). */
	private keptFailure(call: ApiCall, marks: string): NodeApiError {
		const failure = callKeptFailure(this.site, call, marks);
		if (failure.context.outcomeUnknown === true && call.writes) this.setup.onWriteMayLand?.(call.writes);
		return failure;
	}
}
