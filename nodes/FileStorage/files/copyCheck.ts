import type { Item } from '../item';
import { deleteFile, purgeFile, type BucketRef, type Visibility } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { readFileInfo, type FileInfo } from './fileInfo';
import { etagMd5 } from '../upload/hashedSource';
import { findStoredRecord, staleAnswer, type StoredRecord } from './storedRecord';

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
}

export interface CopyCheck {
	size: number;
	md5: string;
	/** What the copy was compared on: always size; etag when the CDN gives an MD5 ETag. */
	checked: string[];
}

/** Why the service's own answers say the copy is not what was sent (conclusive), or undefined. */
function mismatch(facts: CopyFacts, record: StoredRecord): string | undefined {
	const { bytes } = facts.digest;
	if (facts.announced !== undefined && bytes !== facts.announced) {
		return `${bytes} bytes were read from the source, which announced ${facts.announced}`;
	}
	if (typeof facts.storedSize === 'number' && facts.storedSize !== bytes) {
		return `the service stored ${facts.storedSize} bytes, but ${bytes} were sent`;
	}
	if (record.size !== null && record.size !== bytes) return `the copy is ${record.size} bytes, but ${bytes} were sent`;
	return undefined;
}

/**
 * The CDN's ETag of the copy, only when its answer is of the version the service records (same
 * size, not older): an answer from the CDN's cache says nothing of the copy, and no failure to
 * get it does either (both leave the ETag unchecked). `dated`: the answer had a Last-Modified that
 * agrees with the record, without which an ETag of other bytes may be a kept earlier version's.
 */
async function currentEtag(client: FileStorageClient, facts: CopyFacts, record: StoredRecord) {
	const info: FileInfo | undefined = await readFileInfo(client, facts.to, facts.to.key).catch(() => undefined);
	if (!info || info.size !== facts.digest.bytes) return undefined;
	const read = { size: info.size, lastModified: info.last_modified ?? undefined };
	if (staleAnswer(read, record) !== undefined) return undefined;
	return { etag: info.etag, dated: info.last_modified !== null && record.last_modified !== null };
}

/** A check that could not be made: the copy is kept (it may well be good), the error says so. */
function inconclusive(item: Item, facts: CopyFacts, why: string) {
	return item.fail(
		`${facts.verb}: the copy '${facts.to.key}' could not be checked: ${why}`,
		`The copy was kept: nothing shows it is faulty. Check it with File → Get Info (its size should be ${facts.digest.bytes} bytes, MD5 ${facts.digest.md5}) or run the node again.`,
	);
}

/**
 * Checks a copy before it is reported (and before Move deletes its source), against the service's
 * own answers, never a CDN's cache (spec §3.9): the bytes read are what the source announced, the
 * upload's answer and the listing's record of the copy say as many bytes, and the CDN's ETag
 * is the MD5 of the bytes sent where it is one and the CDN's answer is of the current version
 * [ours: the API reports no ETag]. A public copy is purged from the CDN first, so its location
 * serves it (and a HEAD of it is not answered from the cache). Only a conclusive mismatch deletes the copy; a check that cannot be made keeps it.
 */
export async function fileInfoAfterCopy(item: Item, client: FileStorageClient, facts: CopyFacts): Promise<CopyCheck> {
	const { to } = facts;
	let record: StoredRecord | undefined;
	// So the copy's location serves it at once. Not needed by the check (it asks the API), so a
	// purge that fails leaves the location as an Upload leaves it, and the check goes on.
	if (facts.visibility === 'public') await purgeFile(client, to, to.key).catch(() => undefined);
	try {
		record = await findStoredRecord(client, to, to.key);
	} catch (error) {
		throw inconclusive(item, facts, error instanceof Error ? error.message : String(error));
	}
	if (!record) throw inconclusive(item, facts, "the service's listing does not show it");
	let problem = mismatch(facts, record);
	let checked = ['size'];
	if (problem === undefined) {
		const answer = await currentEtag(client, facts, record);
		const md5 = etagMd5(answer?.etag);
		if (md5 !== undefined) checked = ['size', 'etag'];
		if (md5 !== undefined && md5 !== facts.digest.md5) {
			const words = `the CDN's ETag ${answer?.etag} is not the MD5 of the bytes sent (${facts.digest.md5})`;
			if (!answer?.dated)
				throw inconclusive(
					item,
					facts,
					`${words}, but its answer had no Last-Modified to show it is not an earlier version it kept`,
				);
			problem = `the copy's ETag ${answer.etag} is not the MD5 of the bytes sent (${facts.digest.md5})`;
		}
	}
	if (problem === undefined) return { size: facts.digest.bytes, md5: facts.digest.md5, checked };
	// The file the listing shows is deleted only as the copy: a size that is neither the bytes sent
	// nor what the upload stored is a file written there since (another run or workflow), kept.
	if (record.size !== null && record.size !== facts.digest.bytes && record.size !== facts.storedSize) {
		throw inconclusive(
			item,
			facts,
			`${problem}, and as the upload stored ${typeof facts.storedSize === 'number' ? facts.storedSize : 'an unstated number of'} bytes, the file there now may have been written by someone else since`,
		);
	}
	let after = `The faulty copy '${to.key}' was deleted.`;
	await deleteFile(client, to, to.key).catch((error: Error) => {
		after = `Deleting the faulty copy '${to.key}' failed as well (${error.message}): delete it yourself.`;
	});
	throw item.fail(`The copy of the file failed its check: ${problem}`, `${after} Run the node again.`);
}
