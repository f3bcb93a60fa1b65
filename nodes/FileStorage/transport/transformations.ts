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

/**
 * What a segment may not hold: "/", "?" and "#" end a path segment, and whitespace and control
 * characters are in no name or value of the CDN's syntax (a space typed after a comma is a typo).
 */
const NOT_IN_SEGMENT = /[/?#\s\p{Cc}]/u;

/** A character refused by NOT_IN_SEGMENT, in words. */
function characterInWords(char: string): string {
	if (char === ' ') return 'a space';
	if ('/?#'.includes(char)) return `"${char}"`;
	return `the ${/\p{Cc}/u.test(char) ? 'control ' : 'white-space '}character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What is wrong with one `name_value` pair, or undefined; unknown names are gathered in `unknown`. */
function pairProblem(pair: string, unknown: string[]): string | undefined {
	if (!pair) return 'it has an empty pair: "," joins two name_value pairs, as in tr-w_200,h_100';
	const match = /^([a-z]+)_(.+)$/s.exec(pair);
	if (!match) {
		const prefixed = /^(tr|thumb)-/.test(pair)
			? ' (a set chained with "+" has no prefix of its own: tr-w_200+e_grayscale)'
			: '';
		return `"${pair.slice(0, 40)}" is not a name_value pair such as w_200${prefixed}`;
	}
	if (!TRANSFORMATION_NAMES.includes(match[1]) && !unknown.includes(match[1])) unknown.push(match[1]);
	return undefined;
}

/**
 * What is wrong with a transformation segment typed by hand, or undefined when it has the CDN's
 * syntax (spec §3.11): `tr-` or `thumb-`, then sets chained with `+`, each set `name_value` pairs
 * joined by `,`, each name one of TRANSFORMATION_NAMES and each value at least one character
 * (values are the CDN's to judge: `q_auto:standard`, `l_image:logos@@mark.png`, `r_10:20:30:40`).
 */
export function transformationProblem(segment: string): string | undefined {
	const match = /^(tr|thumb)-(.*)$/s.exec(segment);
	if (!match) return 'it must start with "tr-" (a transformation) or "thumb-" (a thumbnail), e.g. tr-w_200,h_100';
	// A lone surrogate is no character at all: it has no UTF-8 form to percent-encode.
	if (hasLoneSurrogate(match[2])) return 'it contains a lone UTF-16 surrogate, which is not a character';
	const refused = NOT_IN_SEGMENT.exec(match[2]);
	if (refused) {
		return `it contains ${characterInWords(refused[0])}: "/", "?", "#", spaces and control characters cannot be in a transformation (an overlay image path writes "/" as "@@")`;
	}
	const unknown: string[] = [];
	for (const set of match[2].split('+')) {
		if (!set) return 'it has an empty set: "+" joins two sets of pairs, as in tr-w_200+e_grayscale';
		for (const pair of set.split(',')) {
			const problem = pairProblem(pair, unknown);
			if (problem) return problem;
		}
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
