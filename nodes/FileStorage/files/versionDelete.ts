import { deleteFile, type BucketRef, type Removal, type ResendCheck } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { sourceDeleteDecision } from './proof';
import { findStoredRecord, type StoredRecord } from './storedRecord';

/**
 * The check before a delete decided on the listing's record `decided` is sent again: the listing
 * still shows that record ('send'), no file there ('gone'), another version ('keep'). A write of
 * the same size in the same second cannot be seen: the API has no conditional delete. `lookedAt`:
 * the client's waits.mark() when the listing that decided began (ResendCheck).
 */
export function versionCheck(where: BucketRef, key: string, decided: StoredRecord, lookedAt: number): ResendCheck {
	return {
		guards: 'delete',
		lookedAt,
		ask: async (via) => {
			const decision = sourceDeleteDecision(decided, await findStoredRecord(via, where, key));
			return decision === 'delete' ? 'send' : decision;
		},
	};
}

/**
 * Deletes the version of `key` the listing showed as `decided` (`lookedAt`: the client's waits.mark() when
 * that listing began). A repeat of the delete (its answer lost, a 5xx, a wait the service asked for),
 * and its first send when anything waited since that listing began, go out only while the listing,
 * asked in the delete's slot, still shows it: a version another writer stored meanwhile is kept
 * (docs/reliability.md, "Destructive steps act on proof").
 */
export async function deleteDecidedVersion(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	decided: StoredRecord,
	lookedAt: number,
): Promise<Removal> {
	return await deleteFile(client, where, key, versionCheck(where, key, decided, lookedAt));
}
