import { MAX_PAGE_SIZE, walkEntries, type FolderListing } from '../../listing/listing';
import type { BucketRef, ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';

/** Walks of the source a Move makes at most; each finds the files its page shifts hid from the last. */
const MAX_ROUNDS = 20;

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
 */
export async function* sourceFiles(client: FileStorageClient, walk: SourceWalk): AsyncGenerator<ListEntry> {
	const { where, prefix, recursive, moving } = walk;
	const given = new Set<string>();
	for (let round = 1; ; round++) {
		let paged = false;
		let fresh = 0;
		const onFolder = (listing: FolderListing) => (paged ||= listing.pages > 1);
		for await (const entry of walkEntries(client, { where, prefix, pageSize: MAX_PAGE_SIZE, recursive, onFolder })) {
			if (entry.type !== 'file') continue;
			// Without sub-folders only the folder's own files (as Folder → Delete): a service that
			// lists deeper files must not widen the operation.
			if (!recursive && entry.path.slice(prefix.length).includes('/')) continue;
			if (moving) {
				if (given.has(entry.path)) continue;
				given.add(entry.path);
			}
			fresh += 1;
			yield entry;
		}
		if (!moving || !paged || fresh === 0 || round === MAX_ROUNDS) return;
	}
}
