import type { ListPage } from '../transport/api';

/**
 * Where a listing ends, and how far it may run: the one rule of every page walk (the walk of a
 * folder, Folder → Delete's own page loop, a file's record read by its key as a prefix, the
 * search of the file picker).
 *
 * A service may cap its pages below the limit asked for (saying so in `items_per_page`, or not),
 * and its counts may lag behind its rows (a cached count) or be reckoned with the limit asked for
 * rather than with the pages it serves. So neither a count nor a short page proves the end: a
 * service that silently serves 100 entries of the 1000 asked, under a count that lags at 100,
 * answers page 1 exactly as an honest folder of 100 files does. Only an empty page does (spec: a
 * page past the end returns no children), so a walk ends there and nowhere else. A short page
 * costs one more request, the empty one after it.
 */

type Pagination = ListPage['pagination'];

/** A whole number > 0 the answer gives, or undefined (absent, zero, or not a number). */
function positive(value: unknown): number | undefined {
	const number = Number(value);
	return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** The entries the answer counts in the listing (`total_items`), when it gives a count. */
export function totalItems(pagination: Pagination): number | undefined {
	const total = Number(pagination.total_items);
	return Number.isFinite(total) ? total : undefined;
}

/**
 * The most entries the service serves on one page, as far as the walk knows: the limit asked for,
 * its `items_per_page` when smaller, and the largest page seen when smaller (a cap it does not tell).
 */
export function servedSize(asked: number, pagination: Pagination | undefined, largestSeen: number): number {
	const perPage = positive(pagination?.items_per_page) ?? asked;
	return Math.max(1, Math.min(asked, perPage, largestSeen > 0 ? largestSeen : asked));
}

/**
 * Whether a page came back full: as many entries as asked for, as its answer's `items_per_page`
 * says a page holds, or as the largest earlier page (a service that caps its pages below the limit).
 */
export function fullPage(entries: number, asked: number, largestEarlier: number, itemsPerPage?: unknown): boolean {
	if (entries <= 0) return false;
	const perPage = positive(itemsPerPage);
	return (
		entries >= asked ||
		(perPage !== undefined && entries >= perPage) ||
		(largestEarlier > 0 && entries >= largestEarlier)
	);
}

/** Whether the listing ends with a page of `entries` entries: only an empty page shows the end. */
export function listingEnds(entries: number): boolean {
	return entries <= 0;
}

/** One page just read, for `looksLast`. */
export interface PageRead {
	page: number;
	entries: number;
	asked: number;
	pagination: Pagination;
	/** Entries the pages before this one held (where this page starts). */
	receivedBefore: number;
	/** The most entries one earlier page held. */
	largestEarlier: number;
}

/**
 * Whether an honest service would have ended the listing with this page: it is not full and
 * nothing more is counted (neither a later page by `total_pages` nor more entries by `total_items`).
 * It no longer ends a walk (see above); it says what the empty page read after it is: the check of
 * an end the page already showed, not a page boundary the walk must prove (listing.ts), and no
 * reason for Folder → Delete to count its pass as one that left page 1.
 */
export function looksLast(read: PageRead): boolean {
	if (read.entries === 0) return true;
	if (fullPage(read.entries, read.asked, read.largestEarlier, read.pagination.items_per_page)) return false;
	const counted = totalItems(read.pagination);
	const moreCounted = counted !== undefined && counted > read.receivedBefore + read.entries;
	return read.page >= read.pagination.total_pages && !moreCounted;
}

/**
 * The entries an answer counts: its `total_items`, or its `total_pages` of the limit asked for if
 * that says more (a count reckoned with the limit, whatever the pages served hold).
 */
export function countedEntries(pagination: Pagination, asked: number): number {
	return Math.max(totalItems(pagination) ?? 0, pagination.total_pages * asked);
}

/**
 * How many entries a walk may receive before it is a runaway, counted in entries (not in pages,
 * which a capped service makes shorter than the limit): what page 1 counted, plus room for files
 * added during the walk (two pages asked for, half the count, or a thousand entries, the most).
 */
export function entryBound(firstCounted: number, asked: number): number {
	return firstCounted + Math.max(2 * asked, Math.ceil(firstCounted / 2), 1000);
}

/**
 * Reads of one folder that Folder → Delete makes before it stops as a runaway: twice the pages
 * page 1 counts, in pages the service serves, with room for files arriving.
 */
export function readBound(first: Pagination, asked: number): number {
	const served = servedSize(asked, first, 0);
	return 2 * Math.max(1, Math.ceil(countedEntries(first, asked) / served)) + 8;
}
