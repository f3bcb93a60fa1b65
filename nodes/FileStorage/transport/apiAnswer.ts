/**
 * Telling the File Storage API's own error answers from those of whatever else may sit at a
 * Base URL (a web server, a proxy, another API). The credential's Test and the node's errors
 * both decide by these, so a wrong Base URL is named the same way in both places.
 */
import { NodeApiError } from 'n8n-workflow';

/**
 * What web servers and frameworks put in `error` or `message` for a path they do not know, in any
 * case and punctuation ("Not Found", "not_found", "404 Not Found", "Not found."). The API names
 * what was not found ("Resource not found", "Bucket not found"), never just this.
 */
export const GENERIC_NOT_FOUND_PHRASES = ['not found', 'page not found', 'route not found', 'endpoint not found'];

/** Letters only, lower case: "404 Not_Found." and "notFound" both read "notfound". */
function lettersOf(word: string): string {
	return word.toLowerCase().replace(/[^a-z]/g, '');
}

const GENERIC_NOT_FOUND = new Set(GENERIC_NOT_FOUND_PHRASES.map(lettersOf));

export function isGenericNotFound(word: string): boolean {
	return GENERIC_NOT_FOUND.has(lettersOf(word));
}

/**
 * The usual spellings of a phrase of lower-case words: as written, Title Case, Sentence case,
 * UPPER CASE, snake_case in both cases, PascalCase and camelCase. For checks that can only compare
 * exact values (the credential's Test rules).
 */
export function spellingsOf(phrase: string): string[] {
	const words = phrase.split(' ');
	const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
	const spellings = [
		phrase,
		words.map(capital).join(' '),
		capital(phrase),
		phrase.toUpperCase(),
		words.join('_'),
		words.join('_').toUpperCase(),
		words.map(capital).join(''),
		words[0] + words.slice(1).map(capital).join(''),
	];
	return spellings.filter((spelling, index) => spellings.indexOf(spelling) === index);
}

/**
 * True when an error body is the API's own: a JSON object with a non-empty string `error` or
 * `message` (the spec's two fields), neither of them a web server's bare "Not Found" in any
 * spelling. An HTML page, an empty body or a framework's JSON 404 is not. A body still in text
 * (or bytes) is read as JSON first.
 */
export function isApiErrorAnswer(body: unknown): boolean {
	const value = parsedBody(body);
	if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
	const { error, message } = value as Record<string, unknown>;
	const words = [error, message].filter((word): word is string => typeof word === 'string' && word.trim() !== '');
	return words.length > 0 && !words.some(isGenericNotFound);
}

/**
 * True when a 404's body is the API's own "not found" of a file or bucket, the only answer that
 * shows something absent: the spec's body names what was not found in `error` ("Resource not
 * found"). A gateway's JSON ("no Route matched with those values" in `message` alone), a web
 * server's bare "Not Found", or any other API error body shows nothing of the file.
 */
export function isApiNotFoundAnswer(body: unknown): boolean {
	if (!isApiErrorAnswer(body)) return false;
	const { error } = parsedBody(body) as Record<string, unknown>;
	return typeof error === 'string' && /\bnot found\b/i.test(error);
}

/** A failed request as the decisions of files/proof.ts read it (existenceOf, purgeFailure): its status and body. */
export function failedAnswer(error: unknown): { httpCode?: string | null; body?: unknown } {
	return error instanceof NodeApiError ? { httpCode: error.httpCode, body: error.errorResponse } : {};
}

/** Names a Base URL that is not the API, and the fix: the credential's Test and the node's errors say it alike. */
export function notTheApi(why: string): string {
	// A whole sentence, ended: the server's own words may follow it.
	return `The Base URL did not answer like the File Storage API (${why}). Set the Base URL of the File Storage API credential to the API's scheme and host (e.g. https://api.apexxcloud.com).`;
}

/** A body as JSON when it is JSON text or bytes, else as it came. */
export function parsedBody(body: unknown): unknown {
	const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
	if (text === undefined) return body;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
