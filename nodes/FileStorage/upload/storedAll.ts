import { sizeOf } from '../files/storedRecord';
import type { Item } from '../item';
import type { StoredFile } from '../transport/api';
import type { MultipartTarget } from './parts';

/**
 * Upload and Multipart Upload: the service's answer (the one request's, or Complete's) must say it
 * stored every byte sent. One that names another size is no success: the file at the key is not the
 * input. It is kept (docs/reliability.md, "Upload: what the service says it stored"): most likely this
 * upload's own faulty write, but a file of that size another writer stored there since would look the
 * same (the listing has no hash, the API no conditional delete), so it is not deleted on that answer.
 * The size is read as the listing's is (sizeOf: a number, or a string of digits); an answer without
 * one says nothing of it, and is taken as before. Copy and Move judge
 * their copy with the listing as well (files/copyCheck.ts).
 */
export function requireStoredAll(item: Item, target: MultipartTarget, stored: StoredFile, sent: number): void {
	const size = sizeOf(stored.size);
	if (size === null || size === sent) return;
	throw item.fail(
		`Upload of '${target.key}': the service says it stored ${size} bytes, but ${sent} were sent`,
		`The file at '${target.key}' is not the input, so the upload is not reported stored. That file was kept: it is most likely this upload's faulty write, but another writer's file of ${size} bytes stored there since could not be told from it, so the node does not delete it. Check it with File → Get Info; if it is this upload's, run the node again, which replaces it (with Refuse Existing File on, delete it with File → Delete first).`,
	);
}
