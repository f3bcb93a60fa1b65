import { MAX_PAGE_SIZE, walkEntries, type FolderListing } from '../../listing/listing';
import type { BucketRef, ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';

/** Walks of the source at most; each finds the files the page shifts hid from the last. */
const MAX_ROUNDS = 20;

function notFinished(moving: boolean): string {
	const why = moving
		? 'files are deleted as they are moved, and pages shift'
		: 'a page boundary could not be shown to hide nothing';
	return `after ${MAX_ROUNDS} walks the source folder still finds files it had not listed (the folder takes several list pages and another writer keeps changing it; ${why})`;
}

export interface SourceWalk {
	where: BucketRef;
	prefix: string;
	recursive: boolean;
	/** Files are deleted while the walk goes on: pages shift, so it is walked again. */
	moving: boolean;
}

/**
 * The files under the source folder (its own marker and, with sub-folders, theirs included), one
 * page at a time as the caller asks for more: a folder of any size is never held whole.
 *
 * A Move deletes files while it walks, which pulls later files onto pages already read (offset
 * pages, see walkEntries): a walk that took several pages for some folder may have missed files.
 * So it walks again, skipping the files it already gave, until a walk of one page per folder, or
 * one that finds nothing new. The keys given are kept for that (keys only, not their entries).
 * A Copy's pages shift only by other writers, yet a file they delete before a boundary hides a
 * file that stays: so its page boundaries are checked (boundary.ts), and one not proven walks again.
 */
export async function* sourceFiles(client: FileStorageClient, walk: SourceWalk): AsyncGenerator<ListEntry> {
	const { where, prefix, recursive, moving } = walk;
	const given = new Set<string>();
	for (let round = 1; ; round++) {
		let missable = false;
		let fresh = 0;
		const onFolder = (listing: FolderListing) => (missable ||= moving ? listing.pages > 1 : !listing.settled);
		const pages = { where, prefix, pageSize: MAX_PAGE_SIZE, recursive, onFolder, proveBoundaries: !moving };
		for await (const entry of walkEntries(client, pages)) {
			if (entry.type !== 'file') continue;
			// Without sub-folders only the folder's own files (as Folder → Delete): a service that
			// lists deeper files must not widen the operation.
			if (!recursive && entry.path.slice(prefix.length).includes('/')) continue;
			if (given.has(entry.path)) continue;
			given.add(entry.path);
			fresh += 1;
			yield entry;
		}
		if (!missable || fresh === 0) return;
		// Never a plain end while a walk may have missed files: the caller reports what it did.
		if (round === MAX_ROUNDS) throw new Error(notFinished(moving));
	}
}
