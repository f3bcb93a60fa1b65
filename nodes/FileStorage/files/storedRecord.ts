import { NodeApiError } from 'n8n-workflow';

import { listContents, type BucketRef, type ListEntry } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { MAX_PAGE_SIZE } from '../listing/listing';

/** The service's own record of a file: its listing entry (the API's answer, never the CDN's). */
export interface StoredRecord {
	size: number | null;
	/** As the listing spells it (ISO 8601), or null. */
	last_modified: string | null;
}

/** How many pages a folder may grow by while it is searched, beyond what its first page said. */
const EXTRA_PAGES = 10;

function recordOf(entry: ListEntry): StoredRecord {
	const size = typeof entry.size === 'string' && /^\d+$/.test(entry.size) ? Number(entry.size) : entry.size;
	return {
		size: typeof size === 'number' && Number.isFinite(size) ? size : null,
		last_modified: typeof entry.last_modified === 'string' ? entry.last_modified : null,
	};
}

function isFile(entry: ListEntry, key: string): boolean {
	return entry.path === key && entry.type === 'file';
}

/**
 * The key itself as the prefix: on a service that matches prefixes as strings (S3-like, as the
 * emulator) the file is on the first page, one request whatever its folder holds. Undefined when
 * not found this way; the folder listing then decides (a service may treat a prefix as a folder
 * only, answering nothing or a folder's children for it).
 */
async function byKeyPrefix(client: FileStorageClient, where: BucketRef, key: string) {
	for (let page = 1; ; page++) {
		const answer = await listContents(client, where, key, page, MAX_PAGE_SIZE).catch((error: unknown) => {
			// A service that refuses a prefix that is not a folder: the folder listing asks again.
			if (error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '404')) return undefined;
			throw error;
		});
		const children = answer?.contents.children ?? [];
		const found = children.find((entry) => isFile(entry, key));
		if (found) return found;
		// Entries that do not start with the key: the prefix is not matched as a string; stop here.
		if (!answer || children.length === 0 || children.some((entry) => !entry.path.startsWith(key))) return undefined;
		if (page >= answer.pagination.total_pages) return undefined;
	}
}

/** The file's folder, page by page: as many requests as the folder has pages of 1000 entries. */
async function byFolder(client: FileStorageClient, where: BucketRef, key: string) {
	const folder = key.slice(0, key.lastIndexOf('/') + 1);
	let bound = Number.POSITIVE_INFINITY;
	for (let page = 1; page <= bound; page++) {
		const answer = await listContents(client, where, folder, page, MAX_PAGE_SIZE);
		if (page === 1) bound = answer.pagination.total_pages + EXTRA_PAGES;
		const children = answer.contents.children ?? [];
		const found = children.find((entry) => isFile(entry, key));
		if (found) return found;
		if (children.length === 0 || page >= answer.pagination.total_pages) return undefined;
	}
	return undefined;
}

/**
 * What the service itself stores for `key` (spec §3.1 entry: size, last_modified), or undefined
 * when its listing does not show the file. Asked of the API because a CDN may answer from its
 * cache (spec §3.9): a copy, a move or a check after writing must compare with this, not with it.
 */
export async function findStoredRecord(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
): Promise<StoredRecord | undefined> {
	const entry = (await byKeyPrefix(client, where, key)) ?? (await byFolder(client, where, key));
	return entry ? recordOf(entry) : undefined;
}

/** Milliseconds since the epoch of an HTTP or ISO date, or undefined. */
function timeOf(date: string | null | undefined): number | undefined {
	const time = date ? Date.parse(date) : NaN;
	return Number.isFinite(time) ? time : undefined;
}

/** As the listing spells dates: ISO 8601 UTC to whole seconds. */
export function isoSeconds(date: string | null | undefined): string | undefined {
	const time = timeOf(date);
	return time === undefined ? undefined : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What a read through the CDN said of the file: its Content-Length, Last-Modified, and whether a cache served it. */
export interface ReadFacts {
	size?: number;
	lastModified?: string;
	fromCache?: boolean;
}

/**
 * Why an answer of the CDN is not of the version the service records, or undefined when nothing
 * that can be compared disagrees. A Last-Modified more than a second before the record's is an
 * older version (HTTP dates have whole seconds; a later one can be a CDN stamping its own time).
 */
export function staleAnswer(read: ReadFacts, record: StoredRecord): string | undefined {
	if (read.size !== undefined && record.size !== null && read.size !== record.size) {
		return `the CDN answered ${read.size} bytes, the service's listing says ${record.size} bytes`;
	}
	const answered = timeOf(read.lastModified);
	const recorded = timeOf(record.last_modified);
	if (answered !== undefined && recorded !== undefined && recorded - answered > 1000) {
		return `the CDN answered a version last modified ${isoSeconds(read.lastModified)}, the service's listing says ${isoSeconds(record.last_modified)}`;
	}
	return undefined;
}

/** Whether two records of one key are of the same version, as far as the listing tells. */
export function sameVersion(a: StoredRecord, b: StoredRecord): boolean {
	return a.size === b.size && timeOf(a.last_modified) === timeOf(b.last_modified);
}

/**
 * Whether a CDN answer, read after its cache was purged, can be taken for the recorded version
 * (sizes already agree). Its Last-Modified must be the record's (within the second HTTP dates
 * round to): a later one may be a kept answer stamped anew. An answer with no Last-Modified is
 * taken unless it says a cache served it (Age, X-Cache): after the purge a fresh answer comes from
 * the origin, and a minimal CDN need not date what it serves [ours].
 */
export function shownAsRecord(read: ReadFacts, record: StoredRecord): boolean {
	const answered = timeOf(read.lastModified);
	if (answered === undefined) return read.lastModified === undefined && read.fromCache !== true;
	const recorded = timeOf(record.last_modified);
	return recorded !== undefined && Math.abs(recorded - answered) <= 1000;
}

/** How long after a version's listed second another write is sure to be listed with a later one. */
const SETTLED_MS = 2000;

/**
 * How long to wait before a read of a file can be told apart from a later write of the same size
 * (0: it can now). The listing dates a version to the whole second, so a replacement written in
 * the second of the version read looks the same; a read that begins a second or more after that
 * second cannot meet one. `answeredAt` is the read's answer's Date (the serving side's clock,
 * nearer the service's than ours); a margin of a second more covers their clocks' difference.
 */
export function unsettledMs(record: StoredRecord, answeredAt: string | undefined, now = Date.now()): number {
	const recorded = timeOf(record.last_modified);
	if (recorded === undefined) return 0;
	const readAt = timeOf(answeredAt) ?? now;
	return Math.max(0, recorded + SETTLED_MS - readAt);
}
