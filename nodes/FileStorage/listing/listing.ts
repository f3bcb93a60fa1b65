import { listContents, listingWhat, type BucketRef, type ListEntry, type ListPage } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { proveBoundary } from './boundary';
import { countedEntries, entryBound, listingEnds, looksLast, servedSize, totalItems } from './pageEnd';

/** The service refuses pages above 1000 entries. */
export const MAX_PAGE_SIZE = 1000;

/** How one folder's listing went, for a caller that must know whether it was one snapshot. */
export interface FolderListing {
	folder: string;
	/**
	 * Pages that held the listing: the list requests it took, less (in a walk that proves boundaries)
	 * the empty one read after a page that looked last: it only checks that end (pageEnd.ts). One
	 * page is one consistent answer, several may not be.
	 */
	pages: number;
	/**
	 * Whether every file that was in the folder during the whole walk was given: one page, or
	 * (with `proveBoundaries`) every page boundary proven (see boundary.ts). False otherwise.
	 */
	settled: boolean;
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
	/** Called as each folder's listing starts: a failure of the walk is of the last one named (a sub-folder's, maybe). */
	onFolderStart?: (folder: string) => void;
	/** Check each page boundary (one more small request each) so that `settled` can be true for several pages. */
	proveBoundaries?: boolean;
}

export async function* walkEntries(
	client: FileStorageClient,
	{ where, prefix, pageSize, recursive, onFolder, onFolderStart, proveBoundaries = false }: Walk,
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
		onFolderStart?.(folder);
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

/** Where a walk of one folder is: what it gave, and what the pages it read held. */
interface WalkPlace {
	given: Set<string>;
	/** Paths of the page read last (kept only when boundaries are proven). */
	previousPage: Set<string>;
	/** Entries the pages read so far held (the next page starts there), and the most one page held. */
	received: number;
	largest: number;
	/** The most entries the service serves on one page (pageEnd.ts servedSize): no window asks for more. */
	served: number;
	/** Whether the page read last looked last (pageEnd.ts looksLast): an empty page after it only checks that end. */
	lookedLast: boolean;
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
	// serve shorter pages). An empty one: where the count says first if it says less (files went
	// away), then where the pages read put it (the count may lag low instead).
	const counted = Math.min(place.received, total ?? Number.POSITIVE_INFINITY);
	const positions = children.length > 0 || counted === place.received ? [place.received] : [counted, place.received];
	const boundary = { where, folder, before: place.previousPage, after, nextPage: children, served: place.largest };
	let between: ListEntry[] | undefined;
	// A window larger than the service serves would be cut short by it, and land elsewhere.
	for (const position of positions) between ??= await proveBoundary(client, { ...boundary, position }, place.served);
	for (const entry of between ?? []) {
		checkUnder(client, listingWhat(where, folder, `around page ${page}`), folder, entry);
		if (place.given.has(entry.path)) continue;
		place.given.add(entry.path);
		found(entry);
		yield entry;
	}
	return between !== undefined;
}

/** What page 1 counted, and how many entries the walk may receive before it is a runaway. */
interface FirstCount {
	pagination: ListPage['pagination'];
	bound: number;
}

/**
 * Why a walk must stop as a runaway (a count that keeps growing, pages past it that never end), if
 * it must. Counted in entries: a service that caps its pages serves more pages than its count names.
 */
function runaway(
	page: number,
	answer: ListPage,
	{ asked, received }: { asked: number; received: number },
	first: FirstCount,
) {
	const { pagination } = answer;
	const was = first.pagination;
	if (page > 1 && countedEntries(pagination, asked) > first.bound) {
		const items = (totalItems(pagination) ?? 0) > pagination.total_pages * asked;
		return items
			? `"pagination.total_items" grew to ${pagination.total_items}, but page 1 said ${was.total_items}`
			: `"pagination.total_pages" grew to ${pagination.total_pages}, but page 1 said ${was.total_pages}`;
	}
	if (received >= first.bound && (answer.contents.children ?? []).length > 0) {
		const pages = `${was.total_pages} ${was.total_pages === 1 ? 'page' : 'pages'}`;
		return `page ${page} still has entries, but page 1 said ${pages}`;
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
	const place: WalkPlace = {
		given: new Set(),
		previousPage: new Set(),
		received: 0,
		largest: 0,
		served: pageSize,
		lookedLast: false,
	};
	const first: FirstCount = {
		pagination: { current_page: 1, total_pages: 0, total_items: 0, items_per_page: 0 },
		bound: 0,
	};
	let previousTotal: number | undefined;
	let settled = true;
	for (let page = 1; ; page++) {
		const answer = await listContents(client, where, folder, page, pageSize);
		const { pagination } = answer;
		const what = listingWhat(where, folder, `page ${page}`);
		const children = answer.contents.children ?? [];
		if (page === 1)
			Object.assign(first, { pagination, bound: entryBound(countedEntries(pagination, pageSize), pageSize) });
		const stop = runaway(page, answer, { asked: pageSize, received: place.received }, first);
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
		const total = totalItems(pagination);
		const grown = total !== undefined && previousTotal !== undefined ? total - previousTotal : 0;
		if (page > 1 && children.length > 0 && onThisPage.size === 0 && grown < children.length) {
			throw client.unexpectedAnswer(
				what,
				`page ${page} of ${name} repeats ${children.length} entries already listed on earlier pages, though "pagination.total_items" did not grow by as many`,
			);
		}
		// The empty page after one that looked last checks the end that page showed: no boundary to prove. Not
		// so in a walk without proofs (a Move deletes as it walks): its own deletes may have emptied that page.
		const checksEnd = proveBoundaries && children.length === 0 && place.lookedLast;
		if (page > 1 && !checksEnd) {
			settled =
				proveBoundaries && settled && (yield* acrossBoundary(client, walk, place, { page, children, total }, found));
		}
		previousTotal = total;
		if (proveBoundaries) place.previousPage = new Set(children.map((entry) => entry.path));
		const read = { page, entries: children.length, asked: pageSize, pagination, receivedBefore: place.received };
		place.lookedLast = looksLast({ ...read, largestEarlier: place.largest });
		place.received += children.length;
		place.largest = Math.max(place.largest, children.length);
		place.served = servedSize(pageSize, pagination, place.largest);
		// Only an empty page ends the walk: a short page may be a silent cap, a count may lag low (pageEnd.ts).
		if (listingEnds(children.length)) return { folder, pages: checksEnd ? page - 1 : page, settled };
	}
}
