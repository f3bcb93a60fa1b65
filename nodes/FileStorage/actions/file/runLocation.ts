import type { KeyRef } from '../../files/keyTurns';
import type { Item } from '../../item';
import type { FileStorageClient } from '../../transport/request';
import { fileExists } from './existingFile';

/**
 * A file this run wrote at `ref`'s key in another bucket, still there: it has `ref`'s CDN location
 * (the location names the access id and the key, not the bucket, spec §3.9), so a read of `ref`
 * may be answered with it, and no check of that answer (size, date) tells the two apart when it
 * was written later with the same size. Reading `ref` then proves nothing: the caller copies
 * nothing (and a Move deletes nothing). Called within the turn on the key (files/keyTurns.ts),
 * so no item of the run writes there meanwhile. A check that fails counts as there.
 */
export async function runCopyAtLocation(
	item: Item,
	client: FileStorageClient,
	ref: KeyRef,
): Promise<KeyRef | undefined> {
	// A write there whose outcome is unknown may land after any check: it counts as there.
	const late = item.run.turns.unsettledElsewhere(ref);
	if (late) return late.ref;
	for (const there of item.run.turns.writtenElsewhere(ref)) {
		if (await fileExists(client, there, there.key).catch(() => true)) return there;
	}
	return undefined;
}

/** Why a read of `ref` is refused, in the words of the item that would make it. */
export function runCopyWords(ref: KeyRef, there: KeyRef): string {
	return `this run wrote '${there.key}' in bucket '${there.bucket}' (region ${there.region}), which has the CDN location of '${ref.key}' in bucket '${ref.bucket}' (a location names the key, not the bucket), so a read of the one may be answered with the other`;
}
