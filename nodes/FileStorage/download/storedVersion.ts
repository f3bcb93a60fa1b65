import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { cdnHeadersOf, sourceReadDecision } from '../files/proof';
import { purgeBeforeRead } from '../files/storedRead';
import { findStoredRecord, type StoredRecord } from '../files/storedRecord';
import type { BucketRef, SignedUrl } from '../transport/api';
import type { FileStorageClient } from '../transport/request';

type Fault = (problem: string, description: string) => Error;

/** A file's signed link, read as the service stores it (files/storedRead.ts). */
export interface StoredRead {
	client: FileStorageClient;
	where: BucketRef;
	key: string;
	link: SignedUrl;
	/** The HTTP Date of the service's last answer before the read (the link's, or the purge's). */
	serviceDate?: string;
	/** The service's record of the version to read (the trigger's listing), when the caller has it. */
	listed?: StoredRecord;
}

/** A record that states nothing: only the cache's marks can then be judged. */
const UNKNOWN: StoredRecord = { size: null, last_modified: null };

/**
 * Before the read: a public file's CDN copy is purged, as for Copy's source (files/storedRead.ts).
 * Gives the Date that bounds when the read happened (files/proof.ts, fetchedNoEarlierThan).
 */
export async function purgedForRead(read: StoredRead, fault: Fault): Promise<string | undefined> {
	if (!read.link.is_public) return read.serviceDate;
	const date = await purgeBeforeRead(read.client, read.where, read.key).catch((error: unknown) => {
		throw fault(
			`could not clear the CDN cache of the public file first: ${(error as Error).message}`,
			'A public file is read through the CDN, which can answer an earlier version until its cache is cleared. Run the node again later.',
		);
	});
	return date ?? read.serviceDate;
}

/**
 * The record the answer is judged by: the listing the caller read (the trigger's), or for a public
 * file the service's own, read after the answer came. None for a private file the caller did not
 * list: its signed link is not cached (spec §3.9), and no request is added for it.
 */
async function recordFor(read: StoredRead, fault: Fault): Promise<StoredRecord | undefined> {
	if (read.listed) return read.listed;
	if (!read.link.is_public) return undefined;
	const record = await findStoredRecord(read.client, read.where, read.key).catch((error: unknown) => {
		throw fault(
			`could not be checked against the service's record of the file: ${(error as Error).message}`,
			'Run the node again.',
		);
	});
	return record ?? UNKNOWN;
}

/**
 * After the answer's headers, before its body is kept: the answer must be one the proof rules
 * accept for the record (files/proof.ts, sourceReadDecision, as Copy): not a version older than the
 * record, and not one a cache marks as kept from before the listed version may have been written.
 * Its size is judged after the body, against the record's (download.ts). Gives the size to expect.
 */
export async function judgeStoredRead(
	read: StoredRead & { response: IN8nHttpFullResponse },
	fault: Fault,
): Promise<number | undefined> {
	const record = await recordFor(read, fault);
	if (!record) return undefined;
	const decision = sourceReadDecision({
		verb: 'Download',
		isPublic: read.link.is_public === true,
		headers: cdnHeadersOf(read.response.headers),
		record,
		serviceDate: read.serviceDate,
	});
	if (decision.action !== 'refuse') return record.size ?? undefined;
	if (decision.proof === 'unproven') {
		throw fault(
			`was not kept: the CDN's answer cannot be shown to be the version the service stores (${decision.why}). Download it again in a few minutes`,
			'A CDN can keep serving an earlier version of a replaced public file even after its cache is cleared. Run the node again in a few minutes, once the CDN no longer keeps it.',
		);
	}
	throw fault(
		`got another version than the service stores: ${decision.why}`,
		'The CDN answered an earlier version from its cache, even after it was cleared, or the file was replaced while it was read. Run the node again in a few minutes.',
	);
}
