import { NodeApiError } from 'n8n-workflow';

import { listContents, type BucketRef, type ListEntry } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { MAX_PAGE_SIZE, walkEntries } from '../listing/listing';
import { countedEntries, entryBound, listingEnds, looksLast } from '../listing/pageEnd';
import { stillStored } from '../listing/stillStored';
import { namesSecond, timeOf } from '../listing/listingTime';

/** The service's own record of a file: its listing entry (the API's answer, never the CDN's). */
export interface StoredRecord {
	size: number | null;
	/** As the listing spells it (ISO 8601), or null. */
	last_modified: string | null;
	/** The content type the service stores, whole (its parameters too), when the listing gives it. */
	content_type?: string | null;
	/** `public` or `private`, when the listing gives it: another writer's file may differ only in it. */
	visibility?: string | null;
}

/**
 * A size as the service spells it (a listing entry's, an upload's answer): a number, or a string of
 * digits (some gateways send numbers as strings); anything else is no size. The one reading of both.
 */
export function sizeOf(value: unknown): number | null {
	const size = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
	return typeof size === 'number' && Number.isFinite(size) ? size : null;
}

function recordOf(entry: ListEntry): StoredRecord {
	return {
		size: sizeOf(entry.size),
		// A date to the minute or the day dates no version: kept as none, so nothing is proven by it.
		last_modified:
			typeof entry.last_modified === 'string' && namesSecond(entry.last_modified) ? entry.last_modified : null,
		content_type:
			typeof entry.content_type === 'string' && entry.content_type.trim() ? entry.content_type.trim() : null,
		visibility: typeof entry.visibility === 'string' ? entry.visibility : null,
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
	let received = 0;
	let largest = 0;
	let bound = Number.POSITIVE_INFINITY;
	const named: ListEntry[] = [];
	const found = () => (named.length > 0 ? oneRecord(client, where, key, named) : undefined);
	for (let page = 1; ; page++) {
		const answer = await listContents(client, where, key, page, MAX_PAGE_SIZE).catch((error: unknown) => {
			// A service that refuses a prefix that is not a folder: the folder listing asks again.
			if (error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '404')) return undefined;
			throw error;
		});
		const children = answer?.contents.children ?? [];
		named.push(...children.filter((entry) => isFile(entry, key)));
		// Found, and the page goes on past the key: entries come in key order, so no later page adds one of it. A page
		// that ends on the key, where more is counted or it is full, may go on with the key on the next: read too.
		const endsOnKey = children.length > 0 && isFile(children[children.length - 1], key);
		const read = {
			page,
			entries: children.length,
			asked: MAX_PAGE_SIZE,
			receivedBefore: received,
			largestEarlier: largest,
		};
		if (named.length > 0 && (!endsOnKey || !answer || looksLast({ ...read, pagination: answer.pagination })))
			return found();
		// The one end rule of every walk (pageEnd.ts): only an empty page ends it (a short page may be a silent cap).
		if (!answer || listingEnds(children.length)) return found();
		// Entries that do not start with the key: the prefix is not matched as a string; stop here.
		if (children.some((entry) => !entry.path.startsWith(key))) return found();
		// Pages that never end past what page 1 counted: the folder's walk decides (and stops a runaway).
		if (page === 1) bound = entryBound(countedEntries(answer.pagination, MAX_PAGE_SIZE), MAX_PAGE_SIZE);
		if (received + children.length >= bound) return found();
		received += children.length;
		largest = Math.max(largest, children.length);
	}
}

/** The file's folder, page by page, ended by the one rule of every walk (listing.ts: a count may lag). */
async function byFolder(client: FileStorageClient, where: BucketRef, key: string) {
	const prefix = folderOf(key);
	const walk = { where, prefix, pageSize: MAX_PAGE_SIZE, recursive: false };
	const named: ListEntry[] = [];
	for await (const entry of walkEntries(client, walk)) {
		if (isFile(entry, key)) named.push(entry);
		// Entries come in key order: the key's entries are side by side, and the next key ends them.
		else if (named.length > 0) break;
	}
	return named.length > 0 ? oneRecord(client, where, key, named) : undefined;
}

/**
 * The one entry of `key`, when its listing names it more than once: only while every entry is of one version. Entries
 * of two versions contradict each other, and neither is the service's word on the file: refused.
 */
function oneRecord(client: FileStorageClient, where: BucketRef, key: string, named: ListEntry[]): ListEntry {
	const [first, ...others] = named;
	const same = (entry: ListEntry) =>
		entry.size === first.size &&
		entry.last_modified === first.last_modified &&
		entry.content_type === first.content_type &&
		entry.visibility === first.visibility;
	if (others.every(same)) return first;
	throw client.unexpectedAnswer(
		`List Contents of '${where.bucket}'`,
		`the listing names '${key}' ${named.length} times, as different files, so which one is stored cannot be told`,
	);
}

function folderOf(key: string): string {
	return key.slice(0, key.lastIndexOf('/') + 1);
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
	if (entry) return recordOf(entry);
	// A listing that lacks the file is not the service's word that it is gone (entries slide between
	// pages while files come and go; a listing may lag): asked directly, only its own 404 says gone.
	if (!(await stillStored(client, where, key))) return undefined;
	const folder = folderOf(key);
	throw client.unexpectedAnswer(
		`List Contents of '${where.bucket}'`,
		`the listing of ${folder ? `'${folder}'` : 'the root'} does not show '${key}', which the service says it stores, so its record could not be read`,
	);
}

export { timeOf } from '../listing/listingTime';

/** As the listing spells dates: ISO 8601 UTC to whole seconds. */
export function isoSeconds(date: string | null | undefined): string | undefined {
	const time = timeOf(date);
	return time === undefined ? undefined : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
