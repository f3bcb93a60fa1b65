import { existenceOf } from '../files/proof';
import { getSignedUrl, type BucketRef } from '../transport/api';
import { failedAnswer } from '../transport/apiAnswer';
import type { FileStorageClient } from '../transport/request';

/** The link is never used: the answer itself is what counts. */
const LINK_LIFETIME_SECONDS = 60;

/**
 * Whether a file a scan did not list is still stored, asked of the service directly: one signed
 * link request (no download). Only the API's own 404 means gone; a 404 that is not the API's
 * (a path this Base URL does not serve) or any other failure is thrown, so nothing that cannot be
 * vouched for is ever reported deleted.
 */
export async function stillStored(client: FileStorageClient, where: BucketRef, key: string): Promise<boolean> {
	const gone = (error: unknown): false => {
		if (existenceOf(failedAnswer(error)) === 'absent') return false;
		throw error;
	};
	return await getSignedUrl(client, where, key, LINK_LIFETIME_SECONDS).then(() => true, gone);
}

/**
 * Whether the service itself says a file is gone (its own 404 of the file's link), asked after a read
 * of it failed: a CDN's or a proxy's 404 page says nothing of the file. A failure to ask says no, so
 * the read's own error stands and nothing is called "not found" that the service did not confirm.
 * The one decision of Copy's and Move's source read, File → Download and the trigger.
 */
export async function goneByService(client: FileStorageClient, where: BucketRef, key: string): Promise<boolean> {
	return !(await stillStored(client, where, key).catch(() => true));
}
