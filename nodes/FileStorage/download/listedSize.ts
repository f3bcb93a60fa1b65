import { listContents, type BucketRef } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { MAX_PAGE_SIZE } from '../listing/listing';

/**
 * The file's size as the service's listing states it, in one list request: the listing asked
 * with the key itself as prefix (as S3 lists a prefix), where the file comes first among the files
 * (a name sorts before the longer names it begins). Undefined when that page does not show the
 * file with a size (it went in between, or the service lists only whole folders): the caller
 * then knows no more than before.
 */
export async function listedSize(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
): Promise<number | undefined> {
	const { contents } = await listContents(client, where, key, 1, MAX_PAGE_SIZE);
	const entry = (contents.children ?? []).find((child) => child.type === 'file' && child.path === key);
	const size = entry?.size;
	return typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : undefined;
}
