import { listContents, type BucketRef, type ListEntry } from '../transport/api';
import type { FileStorageClient } from '../transport/request';

/** The service refuses pages above 1000 entries. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Every entry under `prefix`, page by page, fetching the next page only when the
 * caller asks for more. With `recursive`, sub-folders are walked breadth-first over
 * the one-level API, so stopping early (a Limit) also stops the requests.
 */
export async function* walkEntries(
	client: FileStorageClient,
	where: BucketRef,
	prefix: string,
	pageSize: number,
	recursive: boolean,
): AsyncGenerator<ListEntry> {
	const folders = [prefix];
	// A folder listed twice (or inside itself) would be walked again and again.
	const seen = new Set(folders);
	for (let next = 0; next < folders.length; next++) {
		const folder = folders[next];
		for (let page = 1; ; page++) {
			const { contents, pagination } = await listContents(client, where, folder, page, pageSize);
			const children = contents.children ?? [];
			for (const entry of children) {
				if (recursive && entry.type === 'folder' && !seen.has(entry.path)) {
					seen.add(entry.path);
					folders.push(entry.path);
				}
				yield entry;
			}
			if (children.length === 0 || page >= pagination.total_pages) break;
		}
	}
}
