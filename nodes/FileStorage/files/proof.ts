/**
 * The decisions of every step that deletes or replaces a file, in one place: pure functions from
 * the evidence the API gives (listing records, what the upload reported, a CDN answer's headers,
 * digests of the bytes sent) to an action. The rule: act on proof, otherwise keep the file and
 * say what could not be proven. docs/reliability.md ("Destructive steps act on proof") is the
 * table of these functions, row by row, each row with its test; the evidence is spec §3.12.
 */
import { keptByCache, type CdnHeaders } from '../transport/cacheMarks';
import { etagMd5 } from '../upload/hashedSource';
import { keptAnswerUnproven } from './answerMeaning';
import { isoSeconds, sizeOf, timeOf, type StoredRecord } from './storedRecord';

/** The listing dates a version to the whole second (spec §3.1): a write at T.9 is listed as T. */
export const LISTING_SECOND_MS = 1000;

/**
 * How far ahead of the storage's clock (the listing's dates) the clock dating a read may run [ours]:
 * the CDN's Date counts only up to the Date of the service's answer before the read
 * (fetchedNoEarlierThan), so both would have to run ahead; the spec publishes no bound.
 */
export const CDN_CLOCK_MARGIN_MS = 3000;

/**
 * When a read counts as after the listed second for sure (ms, in the storage's clock), or undefined
 * for a record with no time: the end of that second plus the clock margin. Both reads that prove a
 * version by their time (the source's, Move's read-back of its copy) wait for it.
 */
export function settledAfter(listed: string | null | undefined): number | undefined {
	const recorded = timeOf(listed);
	return recorded === undefined ? undefined : recorded + LISTING_SECOND_MS + CDN_CLOCK_MARGIN_MS;
}

// The cache-mark reading lives with the transport, which reads the API's answers by it too.
export { answerCdnHeaders, cdnHeadersOf, keptByCache, type CdnHeaders } from '../transport/cacheMarks';

/** HTTP dates have whole seconds: a public Move's Last-Modified within this of the listing's is its own. */
const HTTP_DATE_MS = 1000;

/**
 * The earliest time (ms) the answer's bytes can have been fetched from the storage: its Date, for an
 * answer no cache marks on it or on any redirect that led to it. Undefined for one a cache marks as
 * kept (keptByCache), whatever its Date and Age: Age counts from when the origin last produced OR
 * validated the answer (RFC 9111 §4.2.3, §4.3.4), and a cache that revalidated its copy (If-Modified-Since
 * its Last-Modified, answered 304) serves its kept bytes as a plain hit with a small Age and no mark of
 * that check; the storage dates versions to the second, so a same-size version written in the kept one's
 * second passes it. Date − Age dates the cache's check, never the bytes. Undefined too with no Date.
 * The CDN's clock need not agree with the storage's (spec §3.12): one running ahead would make an early
 * read look late. So when the service answered a call just before the read (`serviceDate`, the Date of
 * the link's or the purge's answer, the service's clock), the earlier of the two Dates counts: a read
 * counts as late only when both clocks say so. An answer reached through redirects is as old as its
 * oldest hop; an unmarked redirect with no Date came from its origin after `serviceDate`. Never the n8n
 * host's clock.
 */
export function fetchedNoEarlierThan(headers: CdnHeaders, serviceDate?: string): number | undefined {
	if (keptByCache(headers) !== undefined) return undefined;
	const service = timeOf(serviceDate);
	const hop = (date: string | undefined, fallback: number | undefined) => {
		const answered = timeOf(date) ?? fallback;
		return answered === undefined || service === undefined ? answered : Math.min(answered, service);
	};
	const times = [
		hop(headers.date, undefined),
		...(headers.redirects ?? []).map((redirect) => hop(redirect.date, service)),
	];
	return times.includes(undefined) ? undefined : Math.min(...(times as number[]));
}

/** The start (ms) of the whole second a listing's time falls in (a listing may give milliseconds). */
function secondOf(time: number): number {
	return Math.floor(time / LISTING_SECOND_MS) * LISTING_SECOND_MS;
}

/**
 * Why an answer of the CDN is not of the version the service records, or undefined when nothing
 * that can be compared disagrees: another size, or a Last-Modified a whole second or more before
 * the record's. The storage is S3-like [ours, docs/api-choices.md]: the listing's time and the
 * HTTP Last-Modified are the same second, so an answer dated an earlier second is an earlier
 * version, while a listing's milliseconds within that second still agree. A later one can be a
 * CDN stamping its own time, or a version stored after the record was read (laterThanListed).
 */
export function staleAnswer(read: { size?: number; lastModified?: string }, record: StoredRecord): string | undefined {
	if (read.size !== undefined && record.size !== null && read.size !== record.size) {
		return `the CDN answered ${read.size} bytes, the service's listing says ${record.size} bytes`;
	}
	const answered = timeOf(read.lastModified);
	const recorded = timeOf(record.last_modified);
	if (answered !== undefined && recorded !== undefined && recorded - answered >= LISTING_SECOND_MS) {
		return `the CDN answered a version last modified ${isoSeconds(read.lastModified)}, the service's listing says ${isoSeconds(record.last_modified)}`;
	}
	return undefined;
}

/**
 * Why an answer is dated in a later second than a record, or undefined: in S3-like storage the listing and Last-Modified
 * name one second, so such an answer is no version the record names. Against a record listed AFTER the answer
 * (sourceReadDecision) it is no version the service stored at the key then: another bucket's file at the key (one CDN
 * location per key, spec §3.9), or a CDN dating by its own clock. Against a listing read BEFORE the read (the
 * trigger's) it may be a version stored since: the trigger holds the change back, and its next poll lists it.
 */
export function laterThanListed(lastModified: string | undefined, listed: StoredRecord): string | undefined {
	const answered = timeOf(lastModified);
	const recorded = timeOf(listed.last_modified);
	if (answered === undefined || recorded === undefined || answered < secondOf(recorded) + LISTING_SECOND_MS) {
		return undefined;
	}
	return `the CDN answered a version last modified ${isoSeconds(lastModified)}, after the listed one (${isoSeconds(listed.last_modified)})`;
}

/**
 * Why an answer cannot be tied to the record's file at all, or undefined: it names no Last-Modified that can be read (a
 * CDN or proxy may drop it: spec §3.12, "whatever headers the CDN sends"), or the record has no time. One CDN location
 * serves the key of every bucket of the account (spec §3.9) and no answer names its bucket, so only the Last-Modified
 * second, compared with the record's, tells this bucket's file from another bucket's file of the same size at the key.
 */
export function undatedRead(lastModified: string | undefined, record: StoredRecord): string | undefined {
	if (timeOf(record.last_modified) === undefined) return "the service's listing gives no time for the file";
	if (timeOf(lastModified) !== undefined) return undefined;
	return `the answer names no Last-Modified, so it cannot be told from another bucket's file at this key (one CDN location serves the key of every bucket of the account): let Last-Modified through the CDN or proxy, or keep one key in one bucket of the account`;
}

/**
 * Whether two records of one key are of the same version, as far as the listing tells: size, second,
 * content type and visibility (another writer's file may differ in any one). A record without a size
 * or a readable time tells nothing, so it is never the same version (its file is kept).
 */
export function sameVersion(a: StoredRecord, b: StoredRecord): boolean {
	const time = timeOf(a.last_modified);
	const sameKind =
		(a.content_type ?? null) === (b.content_type ?? null) && (a.visibility ?? null) === (b.visibility ?? null);
	return (
		typeof a.size === 'number' &&
		a.size === b.size &&
		time !== undefined &&
		time === timeOf(b.last_modified) &&
		sameKind
	);
}

export type SourceReadAction =
	| { action: 'copy' }
	| { action: 'read-again'; afterMs: number }
	/** `other-version`: the answer is shown to be another version; `unproven`: it may be one. */
	| { action: 'refuse'; proof: 'other-version' | 'unproven'; why: string };

export interface SourceRead {
	/** Download (the node's, by a record listed after its read) takes an answer as Copy does. */
	verb: 'Copy' | 'Move' | 'Download';
	/** The source is public: read through its plain location, which a CDN caches. */
	isPublic: boolean;
	/** The answer's Content-Length. */
	size?: number;
	headers: CdnHeaders;
	/** The listing's record of the source, read after the answer came. */
	record: StoredRecord;
	/** The HTTP Date of the service's last answer before the read (the link's, or the purge's), as sent. */
	serviceDate?: string;
}

/**
 * What Copy and Move do with the answer read for the source. Neither copies an answer shown to be
 * another version, nor one a cache marks as kept, on it or on a redirect that led to it, whatever its
 * Date and Age (fetchedNoEarlierThan: they date the cache's last check with the origin, not the bytes):
 * such an answer may be a version the service no longer stores, and the copy (and its success) would be
 * untrue. Copy takes an answer no cache marks: read from the origin, it is a version stored when it was
 * read. Move deletes the source after, so it also waits until the answer's Date (bounded by the
 * service's) is past the listed second plus the margin, as a same-size rewrite in that second would look
 * the same in the listing. Neither takes an answer dated in a later second than the record listed after
 * it (S3-like storage: the listing and Last-Modified name one second), nor one that names no
 * Last-Modified (undatedRead: it may be another bucket's file at the key).
 */
export function sourceReadDecision(read: SourceRead): SourceReadAction {
	const { headers, record } = read;
	const stale = staleAnswer({ size: read.size, lastModified: headers.lastModified }, record);
	if (stale) return { action: 'refuse', proof: 'other-version', why: stale };
	const unproven = (why: string): SourceReadAction => ({ action: 'refuse', proof: 'unproven', why });
	// The record was listed after the answer came: an answer dated later is no version the service stored at the
	// key then, but another bucket's file at it (one CDN location per key, spec §3.9), or a CDN dating by its clock.
	const later = laterThanListed(headers.lastModified, record);
	if (later) {
		return unproven(
			`${later}, which the service's listing, read after the answer, does not show: it may be the file at this key in another bucket of the account (one CDN location per key)`,
		);
	}
	const kept = keptByCache(headers);
	if (kept) return unproven(keptAnswerUnproven(headers, kept));
	const recorded = timeOf(record.last_modified);
	const fetched = fetchedNoEarlierThan(headers, read.serviceDate);
	const settledAt = settledAfter(record.last_modified);
	// Only the answer's Last-Modified second, compared with the record's, ties it to this bucket's file.
	const undated = undatedRead(headers.lastModified, record);
	if (undated) return unproven(undated);
	if (read.verb !== 'Move') return { action: 'copy' };
	// Dated both (undatedRead above): the answer's Last-Modified and the listed time are there.
	const lastModified = timeOf(headers.lastModified)!;
	if (read.isPublic && Math.abs(recorded! - lastModified) > HTTP_DATE_MS) {
		return unproven(`the CDN's answer has a Last-Modified (${headers.lastModified}) that is not the listing's`);
	}
	if (fetched === undefined) {
		return unproven(
			"the CDN's answer has no Date, so it cannot be shown to have been read after the version the service stores was written",
		);
	}
	return fetched >= settledAt! ? { action: 'copy' } : { action: 'read-again', afterMs: settledAt! - fetched };
}

export interface CopyEvidence {
	/** What was read from the source and sent. */
	sent: { bytes: number; md5: string };
	/** The source's Content-Length, when its answer had one. */
	announced?: number;
	/** The size the upload's answer reported. */
	storedSize?: unknown;
	/** The listing's record of the destination, read after the upload. */
	record: StoredRecord;
	/** The CDN's answer to a HEAD of the destination, when there was one. */
	head?: { size: number | null; headers: CdnHeaders };
}

export type CopyCheckAction =
	| { action: 'good'; checked: string[] }
	/** The file at the destination is shown to be this item's faulty copy (the caller re-reads the record first). */
	| { action: 'delete-copy'; why: string }
	| { action: 'keep'; why: string };

/**
 * The MD5 in a HEAD of the destination that can be compared: an answer no cache marks, of the copy's size and not
 * older. `proves`: it is dated in the record's second too, so an MD5 of the bytes sent proves the copy (one CDN
 * location per key in the account, spec §3.9: an answer of another date, or undated, may be another bucket's file,
 * whose other MD5 still shows the copy cannot be proven).
 */
function comparableMd5(evidence: CopyEvidence): { md5: string; proves: boolean } | undefined {
	const { head, sent, record } = evidence;
	if (!head || head.size !== sent.bytes || keptByCache(head.headers) !== undefined) return undefined;
	const { lastModified } = head.headers;
	if (staleAnswer({ size: head.size, lastModified }, record) !== undefined) return undefined;
	const md5 = etagMd5(head.headers.etag);
	const otherDate = laterThanListed(lastModified, record) ?? undatedRead(lastModified, record);
	return md5 === undefined ? undefined : { md5, proves: otherDate === undefined };
}

/**
 * The check of a copy (Copy, Move, before Move deletes its source). The file at the destination is
 * deleted only when shown to be this item's copy and faulty: an MD5 ETag no cache kept is of the
 * bytes sent, while those are not what the source announced. Anything else that disagrees may be
 * a file another writer stored there since (the API has no conditional write; the listing has no
 * hash and dates to the second), even a short copy the service itself reports: it is kept, and
 * the error says what could not be proven.
 */
export function copyCheckDecision(evidence: CopyEvidence): CopyCheckAction {
	const { sent, record, storedSize, announced } = evidence;
	const stored = sizeOf(storedSize) ?? undefined;
	if (record.size !== null && record.size !== sent.bytes) {
		if (stored === record.size) {
			// Most likely this item's faulty copy, but the listing (no hash, whole seconds) cannot tell
			// it from a file of that size another writer stored there in the same second.
			return {
				action: 'keep',
				why: `the service stored ${stored} bytes, but ${sent.bytes} were sent: the copy is faulty, but a file of ${stored} bytes another writer stored there since could not be told apart from it, so it was not deleted`,
			};
		}
		return {
			action: 'keep',
			why: `the file there is ${record.size} bytes, but ${sent.bytes} were sent and the upload stored ${stored ?? 'an unstated number of'}: someone else may have written it since`,
		};
	}
	if (stored !== undefined && stored !== sent.bytes) {
		return {
			action: 'keep',
			why: `the service stored ${stored} bytes, but ${sent.bytes} were sent, and its listing shows ${record.size ?? 'an unstated number of'} bytes: the file there cannot be shown to be this copy`,
		};
	}
	const etag = comparableMd5(evidence);
	const short = announced !== undefined && announced !== sent.bytes;
	const readWords = `${sent.bytes} bytes were read from the source, which announced ${announced ?? 0}`;
	if (etag !== undefined && etag.md5 !== sent.md5) {
		return {
			action: 'keep',
			why: `the CDN's ETag ${evidence.head?.headers.etag ?? ''} is not the MD5 of the bytes sent (${sent.md5}): the file there may be another writer's, or the upload stored other bytes`,
		};
	}
	const proven = etag?.proves === true;
	if (short) return proven ? { action: 'delete-copy', why: readWords } : { action: 'keep', why: readWords };
	return { action: 'good', checked: proven ? ['size', 'etag'] : ['size'] };
}

// What the API's failed answers show (a file absent, nothing cached) is read in one place beside these.
export { existenceOf, purgeFailure, type Existence } from './answerMeaning';

/** Move's delete of its source (and any repeat of a delete decided on a record), by the listing's record now. */
export function sourceDeleteDecision(copied: StoredRecord, now: StoredRecord | undefined): 'delete' | 'gone' | 'keep' {
	if (!now) return 'gone';
	return sameVersion(now, copied) ? 'delete' : 'keep';
}

/**
 * Why the destination, listed just before Move deletes its source, is not shown to still hold the
 * source's bytes, or undefined when its record is the one the copy's check (or comparison) proved:
 * a file written there since is another writer's, and the source stays.
 */
export function copyChangedBeforeDelete(proved: StoredRecord, now: StoredRecord | undefined): string | undefined {
	if (!now) return 'the copy is no longer at the destination';
	if (sameVersion(now, proved)) return undefined;
	return `the file at the destination changed after the copy was checked (the listing said ${proved.size ?? '?'} bytes, ${isoSeconds(proved.last_modified) ?? 'undated'}; now ${now.size ?? '?'} bytes, ${isoSeconds(now.last_modified) ?? 'undated'}): another writer stored it`;
}

/** Move's read of its copy back through the copy's link (when the check had no MD5 to compare). */
export interface ReadBack {
	/** What was read from the source and sent. */
	sent: { bytes: number; md5: string };
	/** The listing's record of the copy, read after its upload (the copy check's). */
	record: StoredRecord;
	/** The answer's Content-Length, its headers, and what its body hashed to; or why it could not be read. */
	answer: { size?: number; headers: CdnHeaders; digest: { bytes: number; md5: string } } | { failed: string };
}

/**
 * Whether the copy read back proves the destination holds the source's bytes: an answer no cache
 * marks (the origin's version when it was read), of the copy's size, whose MD5 is the MD5 of the
 * bytes sent. Anything else is no proof, and Move keeps its source.
 */
export function readBackDecision(read: ReadBack): { action: 'good' } | { action: 'keep'; why: string } {
	const { sent, answer } = read;
	const keep = (why: string) => ({ action: 'keep' as const, why: `read back through its link, ${why}` });
	if ('failed' in answer) return keep(`it could not be read: ${answer.failed}`);
	// A kept answer may be an earlier version of the same size whatever its Date and Age say
	// (fetchedNoEarlierThan): the copy was purged before this read, so it is no proof, and Move keeps its source.
	const kept = keptByCache(answer.headers);
	if (kept) return keep(keptAnswerUnproven(answer.headers, kept));
	const size = answer.size ?? answer.digest.bytes;
	if (size !== sent.bytes || answer.digest.bytes !== sent.bytes) {
		return keep(`it is ${answer.digest.bytes} bytes, but ${sent.bytes} were sent: another writer may have stored it`);
	}
	if (answer.digest.md5 !== sent.md5) {
		return keep(
			`its MD5 is ${answer.digest.md5}, not the MD5 of the bytes sent (${sent.md5}): another writer stored it`,
		);
	}
	// One CDN location serves the key of every bucket of the account (spec §3.9): the bytes sent, dated another
	// second than the copy's record (or undated), may be another bucket's file at the key, not the copy.
	const { lastModified } = answer.headers;
	const otherFile =
		staleAnswer({ lastModified }, read.record) ??
		laterThanListed(lastModified, read.record) ??
		undatedRead(lastModified, read.record);
	if (otherFile) return keep(`${otherFile}: it may be another bucket's file at this key, not the copy`);
	return { action: 'good' };
}
