import type { IN8nHttpFullResponse } from 'n8n-workflow';

import {
	answerCdnHeaders,
	keptByCache,
	laterThanListed,
	sourceReadDecision,
	type SourceReadAction,
} from '../files/proof';
import { transformShapedFolder, transformShapedNote, transformShapedWords } from '../files/keys';
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
	/** The record the answer is judged by (prepareStoredRead); none: the answer is not judged. */
	record?: StoredRecord;
}

/** A record that states nothing: only the cache's marks can then be judged. */
const UNKNOWN: StoredRecord = { size: null, last_modified: null };

/** The Date of a purge of the file's CDN copy, sent before a read; a failure fails the download. */
async function purged(read: StoredRead, fault: Fault): Promise<string | undefined> {
	const date = await purgeBeforeRead(read.client, read.where, read.key).catch((error: unknown) => {
		throw fault(
			`could not clear the CDN cache of the file first: ${(error as Error).message}`,
			'A file is read through the CDN, which can answer an earlier version until its cache is cleared. Run the node again later.',
		);
	});
	return date ?? read.serviceDate;
}

/** The service's record of the file now (its listing), or UNKNOWN when the listing does not show it. */
async function recordNow(read: StoredRead, fault: Fault): Promise<StoredRecord> {
	const record = await findStoredRecord(read.client, read.where, read.key).catch((error: unknown) => {
		throw fault(
			`could not be checked against the service's record of the file: ${(error as Error).message}`,
			'Run the node again.',
		);
	});
	return record ?? UNKNOWN;
}

/**
 * Before the read, with no answer's body open (a body holds a slot of version 3's request pool, and
 * a request waiting for another slot could wait for ever): a public file's CDN copy is purged, as for
 * Copy's source (files/storedRead.ts), and the record to judge the answer by is read: the listing the
 * caller has (the trigger's), else the service's now. A private file the caller did not list gets
 * none and no request: its signed link is not cached (spec §3.9), unless a cache marks its answer
 * (readAgainAfterPurge).
 */
export async function prepareStoredRead(read: StoredRead, fault: Fault): Promise<void> {
	if (!read.link.is_public) {
		read.record = read.listed;
		return;
	}
	read.serviceDate = await purged(read, fault);
	read.record = read.listed ?? (await recordNow(read, fault));
}

/**
 * Whether a private file's answer is one a cache marks as kept (a CDN that keys its cache by path,
 * the signature checked at the edge): it is then judged like a public file's, so the caller closes
 * its body, and the file is read again once, after a purge and with the record read (readyToReadAgain).
 */
export function readAgainAfterPurge(read: StoredRead, response: IN8nHttpFullResponse): boolean {
	return !read.link.is_public && keptByCache(answerCdnHeaders(response)) !== undefined;
}

/** The purge and the record of a private file's second read (readAgainAfterPurge); no body is open. */
export async function readyToReadAgain(read: StoredRead, fault: Fault): Promise<void> {
	read.serviceDate = await purged(read, fault);
	read.record = read.listed ?? (await recordNow(read, fault));
}

/**
 * A refusal of a key whose first folder has a CDN transformation's shape names that folder, whichever check refused
 * it: the CDN most likely read the link as a transformation of another file, dated before or after this one.
 */
function namingShape(key: string, fault: Fault): Fault {
	const folder = transformShapedFolder(key);
	if (!folder) return fault;
	return (problem, description) =>
		fault(`${problem}; ${transformShapedNote(folder)}`, `${description} ${transformShapedWords(folder)}`);
}

/** Why a read the proof rules refuse (files/proof.ts, sourceReadDecision) gives nothing, in the download's words. */
function refused(decision: Extract<SourceReadAction, { action: 'refuse' }>, key: string, onKey: Fault): Error {
	const fault = namingShape(key, onKey);
	if (decision.proof === 'unproven') {
		return fault(
			`was not kept: the CDN's answer cannot be shown to be the version the service stores (${decision.why}). Download it again in a few minutes`,
			"A CDN can keep serving an earlier version of a replaced file even after its cache is cleared, and one CDN location serves this key for every bucket of the account, so the answer may be another bucket's file. Run the node again in a few minutes; if it goes on, keep one key in one bucket of the account, and let Last-Modified through any CDN or proxy in front of the files.",
		);
	}
	return fault(
		`got another version than the service stores: ${decision.why}`,
		'The CDN answered an earlier version from its cache, even after it was cleared, or the file was replaced while it was read. Run the node again in a few minutes.',
	);
}

/**
 * After the answer's headers, before its body is kept (no request is sent here): the answer must be
 * one the proof rules accept for the record (files/proof.ts, sourceReadDecision, as Copy): not a
 * version older than the record, not one a cache marks as kept (whatever its Date and Age), and dated by a Last-Modified. An answer dated a later second than a listing read
 * before it (the trigger's) may be a version stored since: never attached to the listed version's
 * item. One dated later than a public file's record read before the read (File → Download) is judged
 * after the body, by the record listed then (confirmStoredAfterRead). Its size is judged after the
 * body, against the record's (download.ts). Gives the size to expect.
 */
export function judgeStoredRead(
	read: StoredRead & { response: IN8nHttpFullResponse },
	fault: Fault,
): number | undefined {
	const { record } = read;
	if (!record) return undefined;
	// A redirect a cache kept on the way makes the answer one too (transport/cacheMarks.ts).
	const headers = answerCdnHeaders(read.response);
	const later = laterThanListed(headers.lastModified, record);
	if (later && read.listed) {
		throw namingShape(read.key, fault)(
			`got a later version than the one listed: ${later}`,
			'The file was replaced after it was listed: its bytes are not given as the listed version. The newer version is listed and downloaded next time.',
		);
	}
	// A version stored since the record was read, or another bucket's file: the record listed after the read decides.
	if (later) return undefined;
	const decision = sourceReadDecision({
		verb: 'Download',
		isPublic: read.link.is_public === true,
		headers,
		record,
		serviceDate: read.serviceDate,
	});
	if (decision.action === 'refuse') throw refused(decision, read.key, fault);
	return record.size ?? undefined;
}

/**
 * File → Download names the file by its key alone, and one CDN location serves that key for every bucket of the
 * account (spec §3.9): after the answer's body is in (no body open, so a list request may wait for its slot), the
 * file's record is listed, and the read is judged by it as Copy's source is (files/proof.ts, sourceReadDecision: the
 * size, a Last-Modified in the record's second, none refused). One list request per download. The trigger's download
 * was judged before its body by its poll's listing (judgeStoredRead), dated answers only: nothing is asked then.
 */
export async function recordAfterRead(read: StoredRead, fault: Fault): Promise<StoredRecord | undefined> {
	if (read.listed) return undefined;
	const after = await findStoredRecord(read.client, read.where, read.key).catch((error: unknown) => {
		throw fault(
			`could not be checked against the service's record of the file, read after the download: ${(error as Error).message}`,
			'Run the node again.',
		);
	});
	if (after) return after;
	throw fault(
		"was not kept: the service's listing no longer shows the file (it was deleted or moved while it was read)",
		'Run the node again if the file is back.',
	);
}

/** The read judged by the record listed after it (recordAfterRead): nothing is given when the rules refuse it. */
export function confirmStoredAfterRead(
	read: StoredRead,
	response: IN8nHttpFullResponse,
	got: { size: number; record: StoredRecord },
	fault: Fault,
): void {
	const decision = sourceReadDecision({
		verb: 'Download',
		isPublic: read.link.is_public === true,
		size: got.size,
		headers: answerCdnHeaders(response),
		record: got.record,
		serviceDate: read.serviceDate,
	});
	if (decision.action === 'refuse') throw refused(decision, read.key, fault);
}
