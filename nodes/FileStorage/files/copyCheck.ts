import type { Item } from '../item';
import { purgeFile, withheldResend, type BucketRef, type Visibility } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { headFile } from './fileInfo';
import { copyCheckDecision, sameVersion, type CopyEvidence } from './proof';
import { readBackProof } from './readBack';
import { findStoredRecord, type StoredRecord } from './storedRecord';
import { deleteDecidedVersion } from './versionDelete';

export interface CopyFacts {
	to: BucketRef & { key: string };
	/** The destination's visibility: a public one is purged from the CDN after writing. */
	visibility: Visibility;
	/** The source's Content-Length, when its CDN answer had one. */
	announced?: number;
	/** What was read from the source and sent. */
	digest: { bytes: number; md5: string };
	/** The size the upload's answer reported. */
	storedSize?: unknown;
	verb: 'Copy' | 'Move';
	/**
	 * The destination has the CDN location of another file (the source, or a file this run wrote at its key
	 * in another bucket, spec §3.9): an answer at it may be that file's, so none is evidence (size only).
	 */
	sharesSourceLocation?: boolean;
}

export interface CopyCheck {
	size: number;
	md5: string;
	/**
	 * What the copy was compared on: always size; etag when the CDN gives an MD5 ETag; md5 when a
	 * Move read the copy back (no MD5 ETag) and hashed it.
	 */
	checked: string[];
	/** The listing's record of the copy the check proved: Move lists it again before its delete. */
	record: StoredRecord;
}

/** A check that could not be made, or could not show the file there to be this copy: it is kept, the error says so. */
function inconclusive(item: Item, facts: CopyFacts, why: string) {
	return item.fail(
		`${facts.verb}: the copy '${facts.to.key}' could not be checked: ${why}`,
		`The file at the destination was kept: it could not be shown to be this item's copy. Check it with File → Get Info (this item's copy is ${facts.digest.bytes} bytes, MD5 ${facts.digest.md5}); unless someone else stored it, delete it yourself with File → Delete, then run the node again.`,
	);
}

/** The listing's record of the copy; a listing that cannot be had, or does not show it, keeps the copy. */
async function recordOfCopy(item: Item, client: FileStorageClient, facts: CopyFacts): Promise<StoredRecord> {
	let record: StoredRecord | undefined;
	try {
		record = await findStoredRecord(client, facts.to, facts.to.key);
	} catch (error) {
		throw inconclusive(item, facts, error instanceof Error ? error.message : String(error));
	}
	if (!record) throw inconclusive(item, facts, "the service's listing does not show it");
	return record;
}

/**
 * Deletes the copy shown to be this item's and faulty, once the listing shows the same record
 * as when it was judged (a file written there meanwhile is someone else's, and kept).
 */
async function deleteFaultyCopy(
	item: Item,
	client: FileStorageClient,
	facts: CopyFacts,
	judged: StoredRecord,
	why: string,
): Promise<never> {
	const { to } = facts;
	// The look the delete acts on, its waits counted apart (transport/looks.ts).
	const looking = client.forLook();
	const lookedAt = looking.waits.mark();
	const now = await findStoredRecord(looking, to, to.key).catch(() => undefined);
	if (!now || !sameVersion(now, judged)) {
		throw inconclusive(item, facts, `${why}, and the file there changed before it could be deleted`);
	}
	let after = `The faulty copy '${to.key}' was deleted.`;
	// Sent again, or sent after anything waited since that listing began, only while the listing (asked
	// in the delete's slot) shows the copy judged: another writer's file there is kept.
	await deleteDecidedVersion(looking, to, to.key, now, lookedAt).catch((error: Error) => {
		const withheld = withheldResend(error);
		const found = withheld?.found;
		after =
			found === 'keep'
				? withheld?.first === true
					? `The faulty copy was not deleted: the node had to wait after it listed the copy (the service asked it to, or the run's request pool was busy), and meanwhile another version was stored at '${to.key}' (another writer's): it was kept.`
					: `The faulty copy's delete got no answer and was not sent again: another version is at '${to.key}' now (another writer's), and it was kept.`
				: found === 'gone'
					? `The faulty copy '${to.key}' is no longer there.`
					: `Deleting the faulty copy '${to.key}' failed as well (${error.message}): delete it yourself.`;
	});
	throw item.fail(`The copy of the file failed its check: ${why}`, `${after} Run the node again.`);
}

/**
 * Checks a copy before it is reported (and before Move deletes its source), by the decision of
 * files/proof.ts (copyCheckDecision) on the service's own answers (the upload's, the listing's)
 * and the CDN's HEAD of the copy. A public copy is purged from the CDN first, so its location
 * serves it. Only a copy shown to be this item's and faulty is deleted; anything else that
 * disagrees is kept and reported. A Move's copy the HEAD gave no MD5 for is read back and hashed
 * (readBack.ts): its source is deleted only on that proof.
 */
export async function fileInfoAfterCopy(item: Item, client: FileStorageClient, facts: CopyFacts): Promise<CopyCheck> {
	const { to } = facts;
	// So the copy's location serves it at once. Not needed by the check (it asks the API), so a
	// purge that fails leaves the location as an Upload leaves it, and the check goes on.
	if (facts.visibility === 'public') await purgeFile(client, to, to.key).catch(() => undefined);
	const record = await recordOfCopy(item, client, facts);
	const evidence: CopyEvidence = {
		sent: facts.digest,
		announced: facts.announced,
		storedSize: facts.storedSize,
		record,
	};
	// The HEAD is only asked when the sizes leave the ETag to decide; no failure to get it decides anything.
	const bySize = copyCheckDecision(evidence);
	const asksHead =
		bySize.action === 'good' || (facts.announced !== undefined && facts.announced !== facts.digest.bytes);
	if (asksHead && facts.sharesSourceLocation !== true) {
		const head = await headFile(client, to, to.key).catch(() => undefined);
		if (head) evidence.head = { size: head.info.size, headers: head.headers };
	}
	const decision = evidence.head ? copyCheckDecision(evidence) : bySize;
	if (decision.action === 'keep') throw inconclusive(item, facts, decision.why);
	if (decision.action === 'delete-copy') return await deleteFaultyCopy(item, client, facts, record, decision.why);
	const checked = { size: facts.digest.bytes, md5: facts.digest.md5, checked: decision.checked, record };
	if (facts.verb === 'Copy' || decision.checked.includes('etag')) return checked;
	// Size is no proof (spec §3.12): a Move deletes its source, so the copy is read back and hashed.
	const readBack = await readBackProof(item, client, to, { sent: facts.digest, record });
	if (readBack.action === 'keep') throw inconclusive(item, facts, readBack.why);
	return { ...checked, checked: [...decision.checked, 'md5'] };
}
