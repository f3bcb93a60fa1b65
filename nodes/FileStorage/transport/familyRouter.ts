import type { IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiCall } from './call';
import { httpError, serverSaid } from './errors';
import { notTheApi } from './apiAnswer';
import {
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

/** One call to one route, with retries; `missingPathIsAnswer` hands a foreign 404 back as an answer. */
export type SendToRoute = (call: ApiCall, route: Route, missingPathIsAnswer?: boolean) => Promise<IN8nHttpFullResponse>;

export interface FamilyRouterSetup {
	origin: string;
	apiPaths: ApiPathsSetting;
	node: INode;
	itemIndex: number;
	sendTo: SendToRoute;
}

/**
 * Sends the calls whose path the two path families (pathFamily.ts) spell differently, in the family
 * the credential's API Paths names or, when Automatic, the one learned for the Base URL.
 */
export class FamilyRouter {
	constructor(private readonly setup: FamilyRouterSetup) {}

	/** The family that worked for this client (one item: a multipart upload keeps to it). */
	private family: PathFamily | undefined;

	private get origin(): string {
		return this.setup.origin;
	}

	/** Sends a call with family routes in the family the setting or the Base URL calls for. */
	async send(call: ApiCall & { family: FamilyRoutes }): Promise<IN8nHttpFullResponse> {
		const { apiPaths } = this.setup;
		if (apiPaths !== 'auto') {
			const response = await this.setup.sendTo(call, call.family[apiPaths], true);
			if (!isMissingPath(response.statusCode, response.body)) return response;
			throw this.missingPathError(call, response, [apiPaths]);
		}
		return await this.sendInLearnedFamily(call, call.family);
	}

	/**
	 * Whether calls in `family` would first have to find out the service's path family (the
	 * credential's API Paths is Automatic and nothing is learned yet for this Base URL).
	 */
	familyUnknown(): boolean {
		return this.setup.apiPaths === 'auto' && (this.family ?? familyMemory.known(this.origin)) === undefined;
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
			const response = await this.setup.sendTo(call, routes[tried], true).catch((error: unknown) => {
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
			this.setup.node,
			call.what,
			{ status: response.statusCode, body: plainText(response.body) || 'Not Found', attempts: 1, origin: this.origin },
			this.setup.itemIndex,
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
}

/**
 * A failure only the route itself gives, so its family exists: the API's 400 or 404, or its own
 * 403 (a key without permission for that operation). A 401 (a signature refused) may come before
 * any routing, so it teaches nothing.
 */
function answeredOnTheRoute(error: NodeApiError): boolean {
	if (error.httpCode === '400' || error.httpCode === '404') return true;
	return error.httpCode === '403' && error.context.apiAnswer === true;
}
