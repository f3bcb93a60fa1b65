import { MAX_PAGE_SIZE, walkEntries, type FolderListing } from '../../listing/listing';
import type { BucketRef, ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';

/** Walks of the source at most; each finds the files the page shifts hid from the last. */
const MAX_ROUNDS = 20;

function notFinished(moving: boolean): string {
	const why = moving
		? 'files are deleted as they are moved, and pages shift'
		: 'a page boundary could not be shown to hide nothing';
	return `after ${MAX_ROUNDS} walks the source folder still finds files it had not listed, or is not shown listed whole (it takes several list pages and changes while it is walked; ${why}): files may remain in the source unhandled. Run the node again to finish: a file already done is not done twice`;
}

export interface SourceWalk {
	where: BucketRef;
	prefix: string;
	recursive: boolean;
	/** Files are deleted while the walk goes on: pages shift, so it is walked again. */
	moving: boolean;
	/** Told the folder each listing starts with: a failure is of the last one told (see Walk.onFolderStart). */
	onFolderStart?: (folder: string) => void;
}

/**
 * The files under the source folder (its own marker and, with sub-folders, theirs included), one
 * page at a time as the caller asks for more: a folder of any size is never held whole.
 *
 * Pages are offsets (see walkEntries): a file deleted before a page boundary pulls a later file
 * onto a page already read, and that walk misses it. So the walks end only with a settled one
 * (one page per folder, or every page boundary proven, boundary.ts): it gave every file that was
 * in the folder all along. A walk that finds nothing new is no proof by itself (a delete between
 * its pages may have hidden a file missed before too). A Copy proves its boundaries on every walk.
 * A Move deletes files while it walks, which shifts pages by itself: it walks without proofs while
 * walks still find files, and proves the boundaries of the walk after one that found nothing new.
 * The keys given are kept to skip them on the next walk (keys only, not their entries).
 */
export async function* sourceFiles(client: FileStorageClient, walk: SourceWalk): AsyncGenerator<ListEntry> {
	const { where, prefix, recursive, moving, onFolderStart } = walk;
	const given = new Set<string>();
	let fresh = Number.POSITIVE_INFINITY;
	for (let round = 1; ; round++) {
		let settled = true;
		const onFolder = (listing: FolderListing) => (settled &&= listing.settled);
		const proveBoundaries = !moving || fresh === 0;
		fresh = 0;
		const pages = { where, prefix, pageSize: MAX_PAGE_SIZE, recursive, onFolder, onFolderStart, proveBoundaries };
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
		if (settled) return;
		// Never a plain end while a walk may have missed files: the caller reports what it did.
		if (round === MAX_ROUNDS) {
			// Not one folder's listing that failed: the source folder's walks as a whole.
			onFolderStart?.(prefix);
			throw new Error(notFinished(moving));
		}
	}
}
