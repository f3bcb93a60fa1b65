import { datedPurge, type BucketRef } from '../transport/api';
import { failedAnswer } from '../transport/apiAnswer';
import type { FileStorageClient } from '../transport/request';
import { purgeFailure } from './proof';

/**
 * Reading a file as the service stores it is one path for every reader: Copy's and Move's source
 * (actions/file/storedSource.ts), Download and the trigger's Download File (download/storedVersion.ts).
 * A public file's plain location is answered by a CDN that may still hold an earlier version (spec
 * §3.9), so its cache is purged first (here), and the answer is then judged against the service's
 * record by files/proof.ts (sourceReadDecision). A private file's signed link is not expected to be
 * cached: no purge, unless a cache marks its answer as kept (download/storedVersion.ts).
 */

/**
 * Purges the public file's CDN copy before it is read; gives the Date of the purge's answer (the
 * service's clock, before the read) when it had one. The API's own 404 means nothing of the key is
 * cached: the read goes on, still judged. Any other failure is thrown as it came (the cache may
 * still hold an earlier version): the caller reads nothing and says so in its own words.
 */
export async function purgeBeforeRead(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
): Promise<string | undefined> {
	return await datedPurge(client, where, key).then(
		({ date }) => date,
		(error: unknown) => {
			if (purgeFailure(failedAnswer(error)) === 'nothing-cached') return undefined;
			throw error;
		},
	);
}
