import type { IHttpRequestMethods } from 'n8n-workflow';

import { isApiErrorAnswer, parsedBody } from './apiAnswer';

/**
 * The service's two path families. Its published reference and its official SDK spell three
 * endpoints differently (list, part upload, cancel); every other endpoint is the same in both.
 * Which one the live service answers is not known, so by default the node learns it: a request
 * goes to the family last seen working (the reference's at first), and only a 404 that is not the
 * API's own error answer — the path does not exist there — sends it once more in the other family.
 */
export type PathFamily = 'reference' | 'sdk';

/** The credential's API Paths setting; anything else (a credential saved before it existed) is `auto`. */
export type ApiPathsSetting = 'auto' | PathFamily;

export interface Route {
	method: IHttpRequestMethods;
	path: string;
}

export type FamilyRoutes = Record<PathFamily, Route>;

export const FAMILY_NAMES: Record<PathFamily, string> = {
	reference: 'the published reference',
	sdk: 'the official SDK',
};

const FILES = '/api/v1/files';

const uploadPath = (uploadId: string) => `${FILES}/multipart/${encodeURIComponent(uploadId)}`;

export const familyRoutes = {
	list: (): FamilyRoutes => ({
		reference: { method: 'GET', path: `${FILES}/list` },
		sdk: { method: 'GET', path: `${FILES}/contents` },
	}),
	uploadPart: (uploadId: string): FamilyRoutes => ({
		reference: { method: 'POST', path: `${uploadPath(uploadId)}/upload` },
		sdk: { method: 'POST', path: uploadPath(uploadId) },
	}),
	cancel: (uploadId: string): FamilyRoutes => ({
		reference: { method: 'POST', path: `${uploadPath(uploadId)}/cancel` },
		sdk: { method: 'DELETE', path: uploadPath(uploadId) },
	}),
};

export function otherFamily(family: PathFamily): PathFamily {
	return family === 'reference' ? 'sdk' : 'reference';
}

export function apiPathsSetting(value: unknown): ApiPathsSetting {
	return value === 'reference' || value === 'sdk' ? value : 'auto';
}

/** A 404 that is not the API's: whatever answers at the Base URL has no such path. */
export function isMissingPath(status: number, body: unknown): boolean {
	return status === 404 && !isApiErrorAnswer(body);
}

/** A missing path's answer as one line of text (a framework's HTML page, tags and all, otherwise). */
export function plainText(body: unknown): string {
	const value = parsedBody(body);
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
	return text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 200);
}

/**
 * What each n8n process has learned, by Base URL origin: the family is the service's, whoever's
 * keys are used. Each process (main, each queue-mode worker) learns once, with one request sent in
 * the wrong family; a restart forgets. While one request finds out, others to the same origin
 * wait for it, so parts sent in parallel do not each probe.
 */
class FamilyMemory {
	private readonly learned = new Map<string, PathFamily>();
	private readonly probes = new Map<string, Promise<void>>();

	known(origin: string): PathFamily | undefined {
		return this.learned.get(origin);
	}

	remember(origin: string, family: PathFamily): void {
		this.learned.set(origin, family);
	}

	/** The probe under way for this origin, if any. */
	probing(origin: string): Promise<void> | undefined {
		return this.probes.get(origin);
	}

	/** Marks a probe as under way; call the returned function once it has an answer (or failed). */
	beginProbe(origin: string): () => void {
		let done = () => {};
		const probe = new Promise<void>((resolve) => {
			done = resolve;
		});
		this.probes.set(origin, probe);
		return () => {
			if (this.probes.get(origin) === probe) this.probes.delete(origin);
			done();
		};
	}
}

export const familyMemory = new FamilyMemory();
