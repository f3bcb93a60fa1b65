/**
 * File Name Filter: a small glob, matched against the key. `*` is any run of characters
 * except `/`, `**` any run including `/` (`**` followed by `/` also matches no folder at all),
 * `?` one character except `/`, `[abc]` / `[a-z]` / `[!abc]` one character of (or not of) a
 * set, `{pdf,csv}` one of the alternatives. A pattern without `/` is matched against the file
 * name (the last segment of the key), one with `/` against the whole key. Case-sensitive, as
 * keys are.
 */
export interface KeyFilter {
	(key: string): boolean;
}

function escapeRegExp(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** The pattern as a regular expression source; throws with the position of a malformed part. */
export function globToRegExpSource(pattern: string): string {
	let source = '';
	let braceDepth = 0;
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i];
		if (c === '*') {
			if (pattern[i + 1] === '*') {
				i++;
				if (pattern[i + 1] === '/') {
					i++;
					source += '(?:.*/)?';
				} else {
					source += '.*';
				}
			} else {
				source += '[^/]*';
			}
		} else if (c === '?') {
			source += '[^/]';
		} else if (c === '[') {
			const end = pattern.indexOf(']', i + 2);
			if (end === -1) throw new Error(`'[' at position ${i + 1} has no closing ']'`);
			let body = pattern.slice(i + 1, end);
			const negated = body.startsWith('!') || body.startsWith('^');
			if (negated) body = body.slice(1);
			const escaped = body.replace(/[\\\]^]/g, '\\$&');
			source += negated ? `[^/${escaped}]` : `[${escaped}]`;
			i = end;
		} else if (c === '{') {
			braceDepth++;
			source += '(?:';
		} else if (c === '}' && braceDepth > 0) {
			braceDepth--;
			source += ')';
		} else if (c === ',' && braceDepth > 0) {
			source += '|';
		} else {
			source += escapeRegExp(c);
		}
	}
	if (braceDepth > 0) throw new Error("a '{' has no closing '}'");
	return source;
}

/** A filter for the pattern; an empty pattern lets every key through. */
export function keyFilter(pattern: string): KeyFilter {
	const trimmed = pattern.trim();
	if (!trimmed) return () => true;
	// No 's' flag: `**` does not cross a line break in a key (files/keys.ts allows them). Saved triggers were set up
	// with that meaning; widening it would emit files their filter never matched as created (docs/trigger.md, Limits).
	const regExp = new RegExp(`^${globToRegExpSource(trimmed)}$`, 'u');
	if (trimmed.includes('/')) return (key) => regExp.test(key);
	return (key) => regExp.test(key.slice(key.lastIndexOf('/') + 1));
}
