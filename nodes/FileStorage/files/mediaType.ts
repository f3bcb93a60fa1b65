/**
 * Content types as media types (RFC 9110 §8.3.1): `type/subtype` then `; name=value` parameters. A copy keeps
 * the whole of its source's (a charset says how the bytes read as text), and Folder → Copy/Move takes a file
 * already at the destination for the copy only when its content type is the same media type as the copy's would be.
 */

/**
 * A media type read for comparison: its type/subtype lower-cased, its parameters as [name, value] pairs, sorted by
 * name when no name is given twice (a repeated parameter is an error, RFC 6838 §4.3: a reader may take either, so
 * their order is kept and counts).
 */
interface MediaType {
	essence: string;
	parameters: Array<[string, string]>;
}

/** Parameters whose values are case-insensitive too: a charset names one character encoding (RFC 9110 §8.3.2). */
const CASE_INSENSITIVE_VALUES = new Set(['charset']);

/** One `name=value` after a ';' (a quoted value unquoted, its '\' escapes taken out), and where it ends. */
function parameterAt(text: string, start: number): { name: string; value: string; end: number } {
	const equals = text.indexOf('=', start);
	const semicolon = text.indexOf(';', start);
	if (equals < 0 || (semicolon >= 0 && semicolon < equals)) {
		// A name without a value (";;" or "; x"): no parameter, and nothing to compare.
		const end = semicolon < 0 ? text.length : semicolon;
		return { name: '', value: '', end };
	}
	const name = text.slice(start, equals).trim().toLowerCase();
	let at = equals + 1;
	while (text[at] === ' ' || text[at] === '\t') at++;
	if (text[at] !== '"') {
		const end = semicolon < 0 ? text.length : semicolon;
		return { name, value: text.slice(at, end).trim(), end };
	}
	// A quoted-string may hold ';' and escaped quotes; quoted and unquoted values are equivalent (RFC 9110 §5.6.6).
	let value = '';
	for (at += 1; at < text.length && text[at] !== '"'; at++) {
		if (text[at] === '\\' && at + 1 < text.length) at++;
		value += text[at];
	}
	const next = text.indexOf(';', at);
	return { name, value, end: next < 0 ? text.length : next };
}

/** The media type of a Content-Type value, or undefined when it is not `type/subtype[; parameters]`. */
export function parseMediaType(text: string): MediaType | undefined {
	const semicolon = text.indexOf(';');
	const essence = (semicolon < 0 ? text : text.slice(0, semicolon)).trim().toLowerCase();
	if (!/^[^\s/]+\/[^\s/]+$/.test(essence)) return undefined;
	const parameters: Array<[string, string]> = [];
	for (let at = semicolon; at >= 0 && at < text.length;) {
		const { name, value, end } = parameterAt(text, at + 1);
		if (name) parameters.push([name, CASE_INSENSITIVE_VALUES.has(name) ? value.toLowerCase() : value]);
		at = end;
	}
	const unique = new Set(parameters.map(([name]) => name)).size === parameters.length;
	return { essence, parameters: unique ? parameters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : parameters };
}

/**
 * Whether two Content-Type values name the same media type: type/subtype and parameter names case-insensitively,
 * charset values case-insensitively, other values exactly (their meaning is the type's), whitespace around ';'
 * and '=' ignored, a value quoted or not alike, parameters in any order. Aliases of one charset ("utf8", "utf-8")
 * are not folded: they are spelled differently, and what a reader makes of them is the reader's. A value that is not a
 * media type is the same only as the same text (spaces around it aside).
 */
export function sameMediaType(a: string, b: string): boolean {
	const [first, second] = [parseMediaType(a), parseMediaType(b)];
	if (!first || !second) return a.trim() === b.trim();
	// Compared as pairs, never joined: a quoted value may hold ';' or '='.
	return first.essence === second.essence && JSON.stringify(first.parameters) === JSON.stringify(second.parameters);
}
