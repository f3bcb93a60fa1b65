import { hasLoneSurrogate } from '../files/keys';

/**
 * CDN transformations (spec §3.11): a path segment between the access id and the key,
 * `{cdn}/f/{access id}/{transformation}/{key}`. A segment is `tr-` or `thumb-` and sets of
 * `name_value` pairs, pairs joined by `,`, sets chained with `+` (`tr-w_200,h_100+g_face`).
 */

/** The names the browser SDK `@apexxcloud/sdk-js` writes (images, videos, documents, thumbnails). */
export const TRANSFORMATION_NAMES: readonly string[] = [
	'w',
	'h',
	'ar',
	'z',
	'dpr',
	'c',
	'g',
	'b',
	'bo',
	'r',
	'a',
	'o',
	'blur',
	'e',
	'l',
	'f',
	'q',
	'p',
	'so',
	'pg',
];

export type Pairs = Array<[string, string | number]>;

/** A segment from sets of pairs; `prefix` is `tr` (a transformation) or `thumb` (a thumbnail). */
export function transformationSegment(prefix: 'tr' | 'thumb', sets: Pairs[]): string {
	return `${prefix}-${sets.map((set) => set.map(([name, value]) => `${name}_${value}`).join(',')).join('+')}`;
}

/** What is wrong with a transformation segment typed by hand, or undefined when it is well formed. */
export function transformationProblem(segment: string): string | undefined {
	const match = /^(tr|thumb)-(.*)$/s.exec(segment);
	if (!match) return 'it must start with "tr-" (a transformation) or "thumb-" (a thumbnail), e.g. tr-w_200,h_100';
	// A lone surrogate is no character at all: it has no UTF-8 form to percent-encode.
	if (hasLoneSurrogate(match[2])) return 'it contains a lone UTF-16 surrogate, which is not a character';
	if (/[/?#\s]/.test(match[2]))
		return 'it must not contain "/", "?", "#" or spaces (an overlay image path writes "/" as "@@")';
	const unknown: string[] = [];
	for (const pair of match[2].split(/[+,]/)) {
		const named = /^([a-z]+)_(.+)$/s.exec(pair);
		if (!named) return `"${pair.slice(0, 40)}" is not a name_value pair such as w_200`;
		if (!TRANSFORMATION_NAMES.includes(named[1]) && !unknown.includes(named[1])) unknown.push(named[1]);
	}
	if (unknown.length === 0) return undefined;
	const names = unknown.map((name) => `"${name}"`).join(', ');
	return `unknown transformation name${unknown.length > 1 ? 's' : ''} ${names}; allowed: ${TRANSFORMATION_NAMES.join(' ')}`;
}

/**
 * The transformation URL of a file from its location (or signed link: its query is dropped), or
 * undefined when the URL is not a location `{cdn}/f/{access id}/{key}`. The segment goes into the
 * path with only the characters a path cannot carry as they are percent-encoded.
 */
export function transformationUrl(location: string, segment: string): string | undefined {
	const match = /^(https?:\/\/[^/?#]+\/f\/[^/?#]+\/)([^?#]+)/i.exec(location.trim());
	if (!match) return undefined;
	const encoded = segment.replace(/[^A-Za-z0-9_.,+:@!~*'()-]/gu, (c) => encodeURIComponent(c));
	return `${match[1]}${encoded}/${match[2]}`;
}
