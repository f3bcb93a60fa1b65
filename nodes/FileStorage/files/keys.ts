/**
 * Object key rules of the service (1–1024 bytes of UTF-8, no leading '/', no '..'
 * segment, no NUL). Other control characters (a tab, a line break) are allowed, as the
 * service allows them: a key the listing shows must be one the node can download or delete.
 */
export const MAX_KEY_BYTES = 1024;

export function keyProblem(key: string): string | undefined {
	if (key.length === 0) return 'it is empty';
	const bytes = Buffer.byteLength(key, 'utf8');
	if (bytes > MAX_KEY_BYTES) return `it is ${bytes} bytes long as UTF-8; the limit is ${MAX_KEY_BYTES} bytes`;
	if (key.startsWith('/')) return "it starts with '/'; keys are relative to the bucket (remove the leading slash)";
	if (key.split('/').includes('..')) return "it contains a '..' segment, which the service refuses";
	const nul = key.indexOf('\u0000');
	if (nul !== -1) return `it contains a NUL character (U+0000) at position ${nul}`;
	return undefined;
}

/** Whether a text has a lone UTF-16 surrogate: no character at all, with no UTF-8 form. */
export function hasLoneSurrogate(text: string): boolean {
	return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Joins a folder and a file name into a key; the folder may be typed with or without a trailing '/'. */
export function joinKey(folder: string, fileName: string): string {
	const prefix = folder.replace(/\/+$/, '');
	return prefix ? `${prefix}/${fileName}` : fileName;
}

/** A listing prefix names a folder, so it always ends in '/' (empty means the bucket root). */
export function folderPrefix(folder: string): string {
	const trimmed = folder.replace(/^\/+/, '');
	if (!trimmed) return '';
	return trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

/**
 * The key in a file location or signed link (`{cdn}/f/{access id}/{key}`, the key
 * percent-encoded per segment, a signed link's query after it), or undefined if the URL is not
 * one. Read from the text as given: a URL parser would resolve `.` segments, which are part of a
 * key.
 */
export function keyFromLocation(url: string): string | undefined {
	const match = /^https?:\/\/[^/?#]+\/f\/[^/?#]+\/([^?#]+)/i.exec(url.trim());
	if (!match) return undefined;
	try {
		return match[1].split('/').map(decodeURIComponent).join('/');
	} catch {
		return undefined;
	}
}

/**
 * When a URL client would not reach the key a link names: a URL parser resolves `.` segments
 * (spelled `.` or `%2e`) of the path, so the link of "./docs/a.txt" fetches "docs/a.txt". Such a
 * key is valid, but its bytes cannot be fetched through its link; undefined when the link is safe.
 */
export function linkRewritesKey(url: string): { named: string; reached: string } | undefined {
	const named = keyFromLocation(url);
	if (named === undefined) return undefined;
	let reached: string | undefined;
	try {
		reached = keyFromLocation(new URL(url.trim()).href);
	} catch {
		return undefined;
	}
	return reached === named ? undefined : { named, reached: reached ?? '' };
}

/** Words for a link refused by linkRewritesKey, for `what` (e.g. "Download of 'x'"). */
export function rewrittenLinkWords(what: string, rewrite: { named: string; reached: string }) {
	return {
		message: `${what} is not possible: the key '${rewrite.named}' has a '.' segment, which its link cannot carry`,
		description:
			`A URL client resolves '.' segments in a link, so the link of '${rewrite.named}' would fetch '${rewrite.reached}', another file; nothing was fetched. ` +
			"Such a file can still be deleted (File → Delete needs no link); to read it, store it again under a key without a '.' segment.",
	};
}

/** A key the CDN link of which a URL client rewrites (see linkRewritesKey), without asking for its link. */
export function hasDotSegment(key: string): boolean {
	return key.split('/').includes('.');
}

/**
 * The first folder of a key when it has the shape of a CDN transformation (`tr-…`, `thumb-…`):
 * the link puts it where spec §3.11 puts a transformation, so a CDN may serve another file.
 */
export function transformShapedFolder(key: string): string | undefined {
	const slash = key.indexOf('/');
	const first = slash > 0 && slash < key.length - 1 ? key.slice(0, slash) : undefined;
	return first !== undefined && /^(tr|thumb)-/.test(first) ? first : undefined;
}

/**
 * The transformation-shaped first folder of a copy's source or destination: a key, or a folder (ending in '/')
 * every key below which has it. A folder marker such as `tr-w_200/` counts too: its link puts the
 * folder where a transformation goes.
 */
export function transformShapedDestination(keyOrFolder: string): string | undefined {
	return transformShapedFolder(keyOrFolder.endsWith('/') ? `${keyOrFolder}_` : keyOrFolder);
}

/** The words that name such a folder in an error's message (the message is all a trigger's item keeps). */
export function transformShapedNote(folder: string): string {
	return `its first folder "${folder}" has the shape of a CDN transformation`;
}

/** Why a download of such a key failed its check against the listing, and what to do. */
export function transformShapedWords(folder: string): string {
	return (
		`Its first folder "${folder}" has the shape of a CDN transformation (tr-… or thumb-, spec §3.11): the CDN may have ` +
		"read the file's link as a transformation of another file. To read it, store it again under a key whose first " +
		"folder does not start with 'tr-' or 'thumb-' (e.g. 'img/" +
		folder +
		"/…')."
	);
}
