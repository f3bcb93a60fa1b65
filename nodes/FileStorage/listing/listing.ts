import { listContents, type BucketRef, type ListEntry, type ListPage } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { proveBoundary } from './boundary';

/** The service refuses pages above 1000 entries. */
export const MAX_PAGE_SIZE = 1000;

/** How one folder's listing went, for a caller that must know whether it was one snapshot. */
export interface FolderListing {
	folder: string;
	/** List requests it took; one request is one consistent answer, several may not be. */
	pages: number;
	/**
	 * Whether every file that was in the folder during the whole walk was given: one page, or
	 * (with `proveBoundaries`) every page boundary proven (see boundary.ts). False otherwise.
	 */
	settled: boolean;
}

/**
 * How many pages a folder may grow to while it is walked, beyond what its first page said:
 * files added during a walk are legitimate, a total that never stops growing is not.
 */
function pageBound(firstTotalPages: number, pageSize: number): number {
	const margin = Math.max(2, Math.ceil(firstTotalPages / 2), Math.ceil(MAX_PAGE_SIZE / pageSize));
	return firstTotalPages + margin;
}

/**
 * A folder marker: the object whose key is a folder's own path (e.g. 'reports/'), as S3 consoles
 * create for an empty folder. The one-level listing of that folder names it as a file whose path
 * is the folder itself (S3 lists it among the folder's objects). It is the folder, not one of its
 * files: List Contents and the trigger skip it, Folder → Delete deletes it with its folder.
 */
export function isFolderMarker(entry: ListEntry): boolean {
	return entry.type === 'file' && entry.path.endsWith('/');
}

function totalItems(page: ListPage): number | undefined {
	const total = Number(page.pagination.total_items);
	return Number.isFinite(total) ? total : undefined;
}

/**
 * Every entry under `prefix`, page by page, fetching the next page only when the
 * caller asks for more. With `recursive`, sub-folders are walked breadth-first over
 * the one-level API, so stopping early (a Limit) also stops the requests.
 *
 * Pages are offsets into a listing that may change between two requests: a file added
 * before a page pushes entries already given onto it again (they are given once), a file
 * removed pulls one entry onto a page already read (that walk misses it; `onFolder` tells
 * the caller which folders took several requests). A page of nothing but entries already
 * given, without the total growing by as many, is a service repeating itself, and a total
 * that keeps growing is a walk that would never end: both fail as unexpected answers.
 */
export interface Walk {
	where: BucketRef;
	/** The folder to start from ('' for the top of the bucket). */
	prefix: string;
	pageSize: number;
	recursive: boolean;
	onFolder?: (listing: FolderListing) => void;
	/** Check each page boundary (one more small request each) so that `settled` can be true for several pages. */
	proveBoundaries?: boolean;
}

export async function* walkEntries(
	client: FileStorageClient,
	{ where, prefix, pageSize, recursive, onFolder, proveBoundaries = false }: Walk,
): AsyncGenerator<ListEntry> {
	const folders = [prefix];
	// A folder listed twice (or inside itself) would be walked again and again.
	const seen = new Set(folders);
	for (let next = 0; next < folders.length; next++) {
		const folder = folders[next];
		const found = (entry: ListEntry) => {
			if (recursive && entry.type === 'folder' && !seen.has(entry.path)) {
				seen.add(entry.path);
				folders.push(entry.path);
			}
		};
		const listing = yield* walkFolder(client, { where, folder, pageSize, proveBoundaries }, found);
		onFolder?.(listing);
	}
}

/** One folder's walk: where, which folder, and whether its page boundaries are checked. */
interface FolderWalk {
	where: BucketRef;
	folder: string;
	pageSize: number;
	proveBoundaries: boolean;
}

/**
 * An entry outside the folder asked for is a service answering another question, never a file to
 * touch (Folder → Delete deletes what a listing names); an empty path is refused with the answer's
 * shape. The folder's own marker is the one entry that may name the folder itself.
 */
export function checkUnder(client: FileStorageClient, what: string, folder: string, entry: ListEntry): void {
	const name = folder ? `'${folder}'` : 'the root';
	const marker = entry.path === folder && folder !== '' && isFolderMarker(entry);
	if (!entry.path.startsWith(folder) || (entry.path === folder && !marker)) {
		throw client.unexpectedAnswer(what, `the listing of ${name} names '${entry.path}', which is not under ${name}`);
	}
}

/**
 * Whether a page came back full: as many entries as asked for, or as many as the largest earlier
 * page (a service that caps its pages below the limit). A full page, even one the count calls the
 * last, is no proof that the listing ends there: a count may lag behind the rows (a cached count),
 * so the next page is read, and only an answer that shows the end (empty, or short) ends a walk.
 */
export function fullPage(entries: number, asked: number, largestEarlier: number): boolean {
	return entries >= asked || (largestEarlier > 0 && entries >= largestEarlier);
}

/** Where a walk of one folder is: what it gave, and what the pages it read held. */
interface WalkPlace {
	given: Set<string>;
	/** Paths of the page read last (kept only when boundaries are proven). */
	previousPage: Set<string>;
	/** Entries the pages read so far held (the next page starts there), and the most one page held. */
	received: number;
	largest: number;
}

/** A page just read: its number, its entries, and the count its answer gave. */
interface ReadPage {
	page: number;
	children: ListEntry[];
	total?: number;
}

/**
 * Proves the boundary before `page` (see boundary.ts) and yields the entries between the two
 * pages that the walk had not given; answers whether the boundary was proven.
 */
async function* acrossBoundary(
	client: FileStorageClient,
	{ where, folder }: FolderWalk,
	place: WalkPlace,
	{ page, children, total }: ReadPage,
	found: (entry: ListEntry) => void,
): AsyncGenerator<ListEntry, boolean> {
	const after = new Set(children.map((entry) => entry.path));
	// The page starts after the entries the pages before it held (not page x limit: a service may
	// serve shorter pages); an empty one, where the count says if it says less (files went away).
	const position = children.length > 0 ? place.received : Math.min(place.received, total ?? Number.POSITIVE_INFINITY);
	const boundary = { where, folder, before: place.previousPage, after, nextPage: children, position };
	const between = await proveBoundary(client, { ...boundary, served: place.largest }, MAX_PAGE_SIZE);
	for (const entry of between ?? []) {
		checkUnder(client, `List Contents of '${where.bucket}' (around page ${page})`, folder, entry);
		if (place.given.has(entry.path)) continue;
		place.given.add(entry.path);
		found(entry);
		yield entry;
	}
	return between !== undefined;
}

/** Why a walk must stop as a runaway (a count that keeps growing, pages past it that never end), if it must. */
function runaway(page: number, totalPages: number, entries: number, first: { totalPages: number; bound: number }) {
	if (page > 1 && totalPages > first.bound) {
		return `"pagination.total_pages" grew to ${totalPages}, but page 1 said ${first.totalPages}`;
	}
	if (page > first.bound && entries > 0) {
		return `page ${page} still has entries, but page 1 said ${first.totalPages} ${first.totalPages === 1 ? 'page' : 'pages'}`;
	}
	return undefined;
}

/** One folder's entries, page by page; returns how many list requests it took and whether it is settled. */
async function* walkFolder(
	client: FileStorageClient,
	walk: FolderWalk,
	found: (entry: ListEntry) => void,
): AsyncGenerator<ListEntry, FolderListing> {
	const { where, folder, pageSize, proveBoundaries } = walk;
	const name = folder ? `'${folder}'` : 'the root';
	const place: WalkPlace = { given: new Set(), previousPage: new Set(), received: 0, largest: 0 };
	const first = { totalPages: 0, bound: Number.POSITIVE_INFINITY };
	let previousTotal: number | undefined;
	let settled = true;
	for (let page = 1; ; page++) {
		const answer = await listContents(client, where, folder, page, pageSize);
		const { pagination } = answer;
		const what = `List Contents of '${where.bucket}' (page ${page})`;
		const children = answer.contents.children ?? [];
		if (page === 1)
			Object.assign(first, { totalPages: pagination.total_pages, bound: pageBound(pagination.total_pages, pageSize) });
		const stop = runaway(page, pagination.total_pages, children.length, first);
		if (stop) throw client.unexpectedAnswer(what, `${stop}; the walk of ${name} was stopped`);
		for (const entry of children) checkUnder(client, what, folder, entry);
		// Only entries of earlier pages are skipped: a page's own entries are one answer.
		const onThisPage = new Set<string>();
		for (const entry of children) {
			if (place.given.has(entry.path) && !onThisPage.has(entry.path)) continue;
			place.given.add(entry.path);
			onThisPage.add(entry.path);
			found(entry);
			yield entry;
		}
		const total = totalItems(answer);
		const grown = total !== undefined && previousTotal !== undefined ? total - previousTotal : 0;
		if (page > 1 && children.length > 0 && onThisPage.size === 0 && grown < children.length) {
			throw client.unexpectedAnswer(
				what,
				`page ${page} of ${name} repeats ${children.length} entries already listed on earlier pages, though "pagination.total_items" did not grow by as many`,
			);
		}
		if (page > 1 && (!proveBoundaries || !settled)) settled = false;
		else if (page > 1) settled = yield* acrossBoundary(client, walk, place, { page, children, total }, found);
		previousTotal = total;
		if (proveBoundaries) place.previousPage = new Set(children.map((entry) => entry.path));
		const full = fullPage(children.length, pageSize, place.largest);
		place.received += children.length;
		place.largest = Math.max(place.largest, children.length);
		// The count says where the listing ends only when the page it calls the last is not full.
		if (children.length === 0 || (page >= pagination.total_pages && !full)) return { folder, pages: page, settled };
	}
}
