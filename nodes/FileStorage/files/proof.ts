/**
 * The decisions of every step that deletes or replaces a file, in one place: pure functions from
 * the evidence the API gives (listing records, what the upload reported, a CDN answer's headers,
 * digests of the bytes sent) to an action. The rule: act on proof, otherwise keep the file and
 * say what could not be proven. docs/reliability.md ("Destructive steps act on proof") is the
 * table of these functions, row by row, each row with its test; the evidence is spec §3.12.
 */
import { ageSeconds, keptByCache, ownCacheMarks, ownRevalidationMarks, type CdnHeaders } from '../transport/cacheMarks';
import { etagMd5 } from '../upload/hashedSource';
import { undatedKeptAnswer } from './answerMeaning';
import { isoSeconds, timeOf, type StoredRecord } from './storedRecord';

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
 * The earliest time (ms) the answer's bytes can have been fetched from the storage: its Date for an
 * answer no cache marks; Date − (Age + 1 s), as Age is whole seconds rounded down, for one a cache
 * kept. The CDN's clock need not agree with the storage's (spec §3.12): one running ahead would make
 * an early read look late. So when the service answered a call just before the read (`serviceDate`,
 * the Date of the link's or the purge's answer, the service's clock), the earlier of the two Dates
 * counts: that answer came before the read began, so its Date is no later than the read in the
 * service's clock, and a read counts as late only when both clocks say so. Undefined when nothing
 * bounds it (no Date; a kept answer with no Age: its max-age is no bound, as a CDN keeps answers for
 * its own time to live and serves them stale; a revalidated one, whose Date and Age date the check:
 * revalidatedByCache). Never the n8n host's clock.
 *
 * An answer reached through redirects is as old as its oldest hop, each read by this rule: a
 * redirect chose the URL whose bytes came, and one a cache kept since T can lead to the version
 * stored at T. An unmarked redirect with no Date came from its origin after `serviceDate`.
 */
export function fetchedNoEarlierThan(headers: CdnHeaders, serviceDate?: string): number | undefined {
	const redirects = (headers.redirects ?? []).map((redirect) =>
		ownCacheMarks(redirect).length === 0 && timeOf(redirect.date) === undefined
			? timeOf(serviceDate)
			: hopFetchedNoEarlierThan(redirect, serviceDate),
	);
	const times = [hopFetchedNoEarlierThan(headers, serviceDate), ...redirects];
	return times.includes(undefined) ? undefined : Math.min(...(times as number[]));
}

/** fetchedNoEarlierThan of one answer or one redirect, by its own headers alone. */
function hopFetchedNoEarlierThan(headers: CdnHeaders, serviceDate?: string): number | undefined {
	const answered = timeOf(headers.date);
	if (answered === undefined) return undefined;
	const service = timeOf(serviceDate);
	const date = service === undefined ? answered : Math.min(answered, service);
	if (ownCacheMarks(headers).length === 0) return date;
	if (ownRevalidationMarks(headers).length > 0) return undefined;
	const age = ageSeconds(headers);
	return age === undefined ? undefined : date - (age + 1) * 1000;
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

/** Whether two records of one key are of the same version, as far as the listing tells. */
export function sameVersion(a: StoredRecord, b: StoredRecord): boolean {
	return a.size === b.size && timeOf(a.last_modified) === timeOf(b.last_modified);
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
 * another version, nor one a cache says it kept unless its fetch time (by its Date and Age, that Date
 * bounded by the service's: fetchedNoEarlierThan) is after the listed second plus the CDN clock
 * margin: such an answer may be a version the service no longer stores, and the copy (and its
 * success) would be untrue. Copy takes an answer no cache marks: read from the origin, it is a
 * version stored when it was read. Move deletes the source after, so it also waits until the
 * answer's Date (so bounded) is past the listed second plus the margin, as a same-size rewrite in
 * that second would look the same in the listing. Neither takes an answer dated in a later second
 * than the record listed after it (S3-like storage: the listing and Last-Modified name one second),
 * nor one that names no Last-Modified (undatedRead: it may be another bucket's file at the key).
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
	const recorded = timeOf(record.last_modified);
	const fetched = fetchedNoEarlierThan(headers, read.serviceDate);
	const settledAt = settledAfter(record.last_modified);
	if (kept && !(fetched !== undefined && settledAt !== undefined && fetched >= settledAt)) {
		return unproven(
			fetched === undefined
				? undatedKeptAnswer(headers, kept)
				: `a cache says it kept the CDN's answer (${kept}), from before the version the service stores may have been written`,
		);
	}
	// Only the answer's Last-Modified second, compared with the record's, ties it to this bucket's file.
	const undated = undatedRead(headers.lastModified, record);
	if (undated) return unproven(undated);
	if (kept || read.verb !== 'Move') return { action: 'copy' };
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

/** The MD5 in a HEAD of the destination that can be compared: an answer no cache marks, of the copy's size and not older. */
function comparableMd5(evidence: CopyEvidence): string | undefined {
	const { head, sent, record } = evidence;
	if (!head || head.size !== sent.bytes || keptByCache(head.headers) !== undefined) return undefined;
	if (staleAnswer({ size: head.size, lastModified: head.headers.lastModified }, record) !== undefined) return undefined;
	return etagMd5(head.headers.etag);
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
	const stored = typeof storedSize === 'number' ? storedSize : undefined;
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
	const md5 = comparableMd5(evidence);
	const short = announced !== undefined && announced !== sent.bytes;
	const readWords = `${sent.bytes} bytes were read from the source, which announced ${announced ?? 0}`;
	if (md5 !== undefined && md5 !== sent.md5) {
		return {
			action: 'keep',
			why: `the CDN's ETag ${evidence.head?.headers.etag ?? ''} is not the MD5 of the bytes sent (${sent.md5}): the file there may be another writer's, or the upload stored other bytes`,
		};
	}
	if (short) return md5 === sent.md5 ? { action: 'delete-copy', why: readWords } : { action: 'keep', why: readWords };
	return { action: 'good', checked: md5 === undefined ? ['size'] : ['size', 'etag'] };
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
	/** The listing's time of the copy (the storage's clock), and the API's Date just before the read. */
	written?: string;
	serviceDate?: string;
	/** The answer's Content-Length, its headers, and what its body hashed to; or why it could not be read. */
	answer: { size?: number; headers: CdnHeaders; digest: { bytes: number; md5: string } } | { failed: string };
}

/**
 * Whether the copy read back proves the destination holds the source's bytes: an answer no cache
 * marks (the origin's version when it was read), of the copy's size, whose MD5 is the MD5 of the
 * bytes sent. Anything else is no proof, and Move keeps its source.
 */
export function readBackDecision(
	read: ReadBack,
): { action: 'good' } | { action: 'keep'; why: string } | { action: 'read-again'; afterMs: number } {
	const { sent, answer } = read;
	const keep = (why: string) => ({ action: 'keep' as const, why: `read back through its link, ${why}` });
	if ('failed' in answer) return keep(`it could not be read: ${answer.failed}`);
	const kept = keptByCache(answer.headers);
	// A kept answer fetched after the copy's listed second ended (plus the clocks' margin, as for the
	// source's read) is of the copy or a later version (some CDNs mark every answer, `Age: 0` on a
	// miss); one fetched before may be an earlier one.
	const fetched = kept ? fetchedNoEarlierThan(answer.headers, read.serviceDate) : undefined;
	const settledAt = settledAfter(read.written);
	if (kept && (fetched === undefined || settledAt === undefined)) {
		return keep(undatedKeptAnswer(answer.headers, kept));
	}
	if (kept && fetched! < settledAt!) return { action: 'read-again', afterMs: settledAt! - fetched! };
	const size = answer.size ?? answer.digest.bytes;
	if (size !== sent.bytes || answer.digest.bytes !== sent.bytes) {
		return keep(`it is ${answer.digest.bytes} bytes, but ${sent.bytes} were sent: another writer may have stored it`);
	}
	if (answer.digest.md5 !== sent.md5) {
		return keep(
			`its MD5 is ${answer.digest.md5}, not the MD5 of the bytes sent (${sent.md5}): another writer stored it`,
		);
	}
	return { action: 'good' };
}
