/**
 * Spec §3.11, CDN transformations: `/f/<access id>/<transformation>/<key>`, where the
 * transformation is `tr-` or `thumb-` and sets of `name_value` pairs, pairs joined by `,`, sets
 * chained with `+`. The emulator transforms nothing: it serves the original bytes and names the
 * transformation in `X-Emulator-Transformation`, so a client can see what it asked for.
 */

/**
 * Parameter names the service documents (§3.11) and its browser SDK's URL builders write
 * (`@apexxcloud/sdk-js` 1.0.23): images, videos, documents and thumbnails alike.
 */
export const TRANSFORMATION_PARAMS: readonly string[] = [
	'w', // width
	'h', // height
	'ar', // aspect ratio
	'z', // zoom
	'dpr', // device pixel ratio
	'c', // crop mode (images, videos), compression (documents)
	'g', // gravity
	'b', // background
	'bo', // border
	'r', // corner radius
	'a', // rotation
	'o', // opacity
	'blur',
	'e', // effect (e_grayscale)
	'l', // overlay layer (l_text:…, l_image:…)
	'f', // format
	'q', // quality
	'p', // document pages
	'so', // video thumbnail: start offset
	'pg', // document thumbnail: page
];

const PREFIX = /^(tr|thumb)-(.+)$/s;
const PAIR = /^([a-z]+)_(.+)$/s;

export type TransformationCheck = { ok: true; segment: string } | { ok: false; message: string };

/**
 * Whether a path segment has the shape of a transformation: a prefix, then at least one set of
 * `name_value` pairs with lower-case letter names and non-empty values. A segment without that
 * shape (`tr-notes`, `thumbnails`, `tr-2024_q1`) is part of the key. With it, the names are
 * checked: an unknown one is a client's mistake, not a folder name [ours].
 */
export function checkTransformation(segment: string): TransformationCheck | undefined {
	const m = PREFIX.exec(segment);
	if (!m) return undefined;
	const sets = m[2].split('+').map((set) => set.split(','));
	const names: string[] = [];
	for (const set of sets) {
		for (const pair of set) {
			const p = PAIR.exec(pair);
			if (!p) return undefined;
			names.push(p[1]);
		}
	}
	const unknown = [...new Set(names.filter((n) => !TRANSFORMATION_PARAMS.includes(n)))];
	if (unknown.length > 0) {
		return {
			ok: false,
			message: `Unknown transformation parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} in "${printable(segment)}"; known: ${TRANSFORMATION_PARAMS.join(', ')}`,
		};
	}
	return { ok: true, segment };
}

/** The segment as a header value: printable ASCII as is, anything else percent-encoded (UTF-8). */
export function printable(segment: string): string {
	return segment.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
}
