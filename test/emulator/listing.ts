/**
 * Spec §3.1: a one-level listing (S3 with delimiter `/`), folders before files, each group by
 * name. Names compare by Unicode code point — the byte order of their UTF-8, which is what S3
 * uses — rather than JavaScript's UTF-16 order, which puts emoji before U+E000–U+FFFF.
 */

export interface FileEntry {
	name: string;
	type: 'file';
	path: string;
	size: number;
	content_type: string;
	last_modified: string;
	visibility: 'public' | 'private';
}

export interface FolderEntry {
	name: string;
	type: 'folder';
	path: string;
	size: null;
	last_modified: null;
}

export type ListEntry = FileEntry | FolderEntry;

export interface ListableObject {
	key: string;
	size: number;
	contentType: string;
	lastModified: string;
	visibility: 'public' | 'private';
}

export function compareCodePoints(a: string, b: string): number {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) {
		const x = a.charCodeAt(i);
		const y = b.charCodeAt(i);
		if (x === y) continue;
		// A surrogate (a code point above U+FFFF) outranks every BMP char; two surrogates
		// keep their UTF-16 order, which then matches code-point order.
		const xs = x >= 0xd800 && x <= 0xdfff;
		const ys = y >= 0xd800 && y <= 0xdfff;
		if (xs !== ys) return xs ? 1 : -1;
		return x - y;
	}
	return a.length - b.length;
}

/** Last `/`-separated segment of a path, ignoring one trailing `/` (folders). */
export function lastSegment(path: string): string {
	const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
	return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** [ours] Object timestamps are shown like the spec's example: ISO 8601 UTC, whole seconds. */
export function listTimestamp(iso: string): string {
	return iso.replace(/\.\d{3}Z$/, 'Z');
}

export function childrenOf(objects: Iterable<ListableObject>, prefix: string): ListEntry[] {
	const folders = new Set<string>();
	const files: FileEntry[] = [];
	for (const o of objects) {
		if (!o.key.startsWith(prefix)) continue;
		const slash = o.key.indexOf('/', prefix.length);
		if (slash !== -1) {
			folders.add(o.key.slice(0, slash + 1));
			continue;
		}
		files.push({
			name: lastSegment(o.key),
			type: 'file',
			path: o.key,
			size: o.size,
			content_type: o.contentType,
			last_modified: listTimestamp(o.lastModified),
			visibility: o.visibility,
		});
	}
	const folderEntries: FolderEntry[] = [...folders].map((p) => ({
		name: lastSegment(p),
		type: 'folder',
		path: p,
		size: null,
		last_modified: null,
	}));
	const byName = (x: ListEntry, y: ListEntry) => compareCodePoints(x.name, y.name) || compareCodePoints(x.path, y.path);
	folderEntries.sort(byName);
	files.sort(byName);
	return [...folderEntries, ...files];
}

export interface Pagination {
	current_page: number;
	total_pages: number;
	total_items: number;
	items_per_page: number;
}

/** [ours] total_pages = ceil(total / limit), at least 1; a page past the end is empty. */
export function paginate<T>(items: T[], page: number, limit: number): { items: T[]; pagination: Pagination } {
	const start = (page - 1) * limit;
	return {
		items: start < items.length ? items.slice(start, start + limit) : [],
		pagination: {
			current_page: page,
			total_pages: Math.max(1, Math.ceil(items.length / limit)),
			total_items: items.length,
			items_per_page: limit,
		},
	};
}

/** The `contents` object describes the listed folder itself. */
export function describeFolder(prefix: string): { name: string; type: 'folder'; path: string } {
	return { name: prefix === '' ? '/' : lastSegment(prefix), type: 'folder', path: prefix };
}
