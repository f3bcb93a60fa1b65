import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { MAX_REDIRECTS } from './call';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A link's or a Source URL's redirects lead nowhere usable (too many, or to a URL that is not http(s)); asking again changes nothing. */
export class RedirectRefused extends Error {}

/**
 * An answer reached by following redirects here, with the headers of every redirect that led to
 * it, first first: a cache may have kept any of them (cacheMarks.ts, answerCdnHeaders), and n8n's
 * HTTP client, following them itself, hands back only the last answer's headers.
 */
export type FollowedAnswer = IN8nHttpFullResponse & {
	redirectHeaders?: IDataObject[];
	/**
	 * Aborts the request, when the caller gave it its own signal: destroying a stalled body does not
	 * reach its socket (n8n's client, not following redirects itself, hands the body back wrapped).
	 */
	closeConnection?: () => void;
};

/** One request of a redirect chain; `ownOrigin`: the URL is still of the origin the chain began at. */
export type SendHop = (url: URL, ownOrigin: boolean) => Promise<IN8nHttpFullResponse>;

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name];
	return value === undefined || value === null ? undefined : String(value);
}

/**
 * Text that is not a usable URL, as it may be shown: without what may be a query or a fragment,
 * and without user info (`user:password@`), also when the scheme is missing or odd.
 */
export function shownText(text: string): string {
	const [beforeQuery] = text.split(/[?#]/);
	const scheme = /^[a-z][a-z0-9+.-]*:[\\/]{2}/i.exec(beforeQuery)?.[0] ?? '';
	const rest = beforeQuery.slice(scheme.length);
	const authority = rest.split(/[\\/]/)[0];
	return `${scheme}${rest.slice(authority.lastIndexOf('@') + 1)}`.slice(0, 120);
}

/**
 * Sends `start` and follows its redirects, each hop a request of its own (so n8n's checks of where
 * requests may go apply to every one), at most MAX_REDIRECTS. Once a redirect leaves the origin of
 * `start`, `ownOrigin` stays false, even if a later one comes back: the hosts in between chose that
 * way back. A redirect's body is let go. Throws RedirectRefused when the chain leads nowhere usable.
 */
export async function followRedirects(start: URL, send: SendHop): Promise<FollowedAnswer> {
	let current = start;
	let ownOrigin = true;
	const redirectHeaders: IDataObject[] = [];
	for (let hop = 0; ; hop++) {
		const answer = await send(current, ownOrigin);
		const location = REDIRECT_STATUSES.has(answer.statusCode) ? headerValue(answer.headers, 'location') : undefined;
		if (location === undefined) return redirectHeaders.length > 0 ? { ...answer, redirectHeaders } : answer;
		(answer.body as { destroy?: () => void } | undefined)?.destroy?.();
		redirectHeaders.push(answer.headers ?? {});
		if (hop >= MAX_REDIRECTS)
			throw new RedirectRefused(`could not be reached: it redirected more than ${MAX_REDIRECTS} times`);
		let next: URL | undefined;
		try {
			next = new URL(location, current);
		} catch {
			next = undefined;
		}
		if (!next || !['http:', 'https:'].includes(next.protocol)) {
			throw new RedirectRefused(`redirected to a URL that is not http(s): '${shownText(location)}'`);
		}
		if (next.origin !== start.origin) ownOrigin = false;
		current = next;
	}
}
