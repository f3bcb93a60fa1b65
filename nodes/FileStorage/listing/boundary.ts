import { listContents, type BucketRef, type ListEntry } from '../transport/api';
import type { FileStorageClient } from '../transport/request';

/**
 * Proof that a walk of several pages missed nothing at a page boundary.
 *
 * Pages are offsets into a listing that may change between two requests: a file removed before
 * the boundary pulls the first entry of the next page onto the page already read, and no later
 * page names it. One answer, though, is one moment of the listing. So the boundary between page k
 * and page k+1 is proven when one answer shows an entry of page k followed, with nothing it did
 * not also show in between, by an entry of page k+1 (or by the end of the listing): a file that
 * existed all along sorts between the two and is in that answer. Page k+1 is such an answer when
 * it repeats an entry of page k (files were added before the boundary); otherwise a small window
 * around the boundary is asked for, then a wider one. Only the order of the service's own answers
 * is relied on, never a comparison of names made here.
 */

/** Entries asked for around a boundary: small first (one cheap request), then wider if it moved. */
const WINDOW_SIZES = [50, 500];

export interface PageBoundary {
	where: BucketRef;
	folder: string;
	/** Paths of page k as it was read. */
	before: Set<string>;
	/** Paths of page k+1 as it was read; empty when it was past the end. */
	after: Set<string>;
	/** Page k+1's entries, in its order. */
	nextPage: ListEntry[];
	/** Where page k+1 started (0-based: the entries pages 1..k held), the place to look. */
	position: number;
	/**
	 * The most entries one page of the walk held (the service's page size, if it caps pages): an
	 * answer shorter than that and than its own limit shows the end of the listing.
	 */
	served: number;
}

/**
 * A window of `size` entries or more (at most `most`, what the service serves on one page) whose
 * page (limit = size) holds `position` near its middle. When `size` leaves no room below `most` to
 * find such a limit, the search starts at half of `most`: a window the service would cut short
 * starts where the service pages, not where it was asked for, and shows another part of the listing.
 */
export function windowAround(position: number, size: number, most: number): { page: number; limit: number } {
	for (let limit = Math.max(1, Math.min(size, Math.floor(most / 2))); limit < most; limit++) {
		const offset = position % limit;
		if (offset >= limit / 4 && offset <= (3 * limit) / 4) return { page: Math.floor(position / limit) + 1, limit };
	}
	return { page: Math.floor(position / most) + 1, limit: most };
}

/**
 * The entries of one answer from an entry of `before` to the first entry of `after` that follows
 * it (or to the end of the listing, when `after` is empty and the answer shows that end); none
 * when the answer shows no such run.
 */
export function provenRun(children: ListEntry[], boundary: PageBoundary, lastPage: boolean): ListEntry[] | undefined {
	let anchor = -1;
	for (let at = 0; at < children.length; at++) {
		const path = children[at].path;
		if (boundary.before.has(path)) anchor = at;
		else if (anchor >= 0 && boundary.after.has(path)) return children.slice(anchor + 1, at);
	}
	return anchor >= 0 && boundary.after.size === 0 && lastPage ? children.slice(anchor + 1) : undefined;
}

/**
 * Entries between the two pages that the walk has not given yet, once the boundary is proven;
 * undefined when no window proved it (the walk then may have missed files there). `most`: the
 * most entries the service serves on one page (its cap, when it has one), so no window is cut short.
 */
export async function proveBoundary(
	client: FileStorageClient,
	boundary: PageBoundary,
	most: number,
): Promise<ListEntry[] | undefined> {
	// Page k+1 repeating an entry of page k is itself the proof, at no cost.
	if (provenRun(boundary.nextPage, boundary, false)) return [];
	for (const size of WINDOW_SIZES) {
		const { page, limit } = windowAround(boundary.position, Math.min(size, most), most);
		const answer = await listContents(client, boundary.where, boundary.folder, page, limit);
		const children = answer.contents.children ?? [];
		// Only a short answer shows the end of the listing; a count (total_pages) may lag behind the rows.
		const run = provenRun(children, boundary, children.length < Math.min(limit, boundary.served));
		if (run) return run;
	}
	return undefined;
}
