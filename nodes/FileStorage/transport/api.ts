import type { IDataObject } from 'n8n-workflow';

import { keyFromLocation } from '../files/keys';

import {
	answerOf,
	checkEntry,
	datedAnswerOf,
	describe,
	FILES,
	inFamily,
	removal,
	requireSameKey,
	wholeNumber,
	type Removal,
} from './answerChecks';
import type { BucketRef, ListEntry, ListPage, StoredFile, Visibility } from './apiTypes';
import { onBucket } from './call';
import type { FileForm } from './formData';
import { familyRoutes } from './pathFamily';
import type { FileStorageClient, ResendCheck } from './request';

export type * from './apiTypes';
export type { Removal } from './answerChecks';
export type { ResendCheck } from './request';
export { withheldResend } from './callFailures';
export * from './multipartApi';

/**
 * The File Storage API v1, one function per endpoint, with query parameters in the
 * order the service's SDK sends them (the signature covers that order).
 */

/**
 * A listing request in words: the folder it lists (a Folder's walk lists its sub-folders too, and a failure
 * names the one that failed), in its bucket; the top of the bucket by the bucket alone. `page`: e.g. "page 2".
 */
export function listingWhat(where: BucketRef, folder: string, page: string): string {
	return folder
		? `List Contents of '${folder}' in '${where.bucket}' (${page})`
		: `List Contents of '${where.bucket}' (${page})`;
}

export async function listContents(
	client: FileStorageClient,
	where: BucketRef,
	prefix: string,
	page: number,
	limit: number,
): Promise<ListPage> {
	const what = listingWhat(where, prefix, `page ${page}`);
	const data = await answerOf(client, {
		...inFamily(familyRoutes.list()),
		...onBucket(where, [
			['prefix', prefix],
			['page', page],
			['limit', limit],
		]),
		what,
		retry: 'idempotent',
	});
	const contents = (data.contents ?? {}) as IDataObject;
	const children = contents.children ?? [];
	if (!Array.isArray(children)) {
		throw client.unexpectedAnswer(what, `"contents.children" is ${describe(children)}, not a list`);
	}
	children.forEach((entry, index) => checkEntry(client, what, entry, index));
	const pagination = (data.pagination ?? {}) as IDataObject;
	const currentPage = wholeNumber(pagination.current_page);
	const totalPages = wholeNumber(pagination.total_pages);
	if (currentPage !== page) {
		// A service that ignores the page number would otherwise be walked forever.
		throw client.unexpectedAnswer(
			what,
			`"pagination.current_page" is ${describe(pagination.current_page)}, but page ${page} was asked for`,
		);
	}
	// A count below the page asked for, on a page with entries, is a count that lags behind the rows
	// (a cached count): the walks read on past a full last page for that. None at all is no count.
	if (totalPages === undefined || (totalPages < 1 && children.length > 0)) {
		throw client.unexpectedAnswer(
			what,
			`"pagination.total_pages" is ${describe(pagination.total_pages)} on page ${page}, which has entries`,
		);
	}
	return {
		contents: { ...(contents as ListPage['contents']), children: children as ListEntry[] },
		pagination: { ...(pagination as ListPage['pagination']), current_page: currentPage, total_pages: totalPages },
	};
}

export interface FileToStore {
	key: string;
	visibility: Visibility;
	/** The file as a form body (see formEnvelope). */
	form: FileForm;
}

/** `resendCheck`: a write that must not replace a file is sent again only onto a key still free (see ResendCheck). */
export async function uploadFile(
	client: FileStorageClient,
	where: BucketRef,
	file: FileToStore,
	resendCheck?: ResendCheck,
): Promise<StoredFile> {
	const what = `Upload of '${file.key}'`;
	const data = await answerOf(client, {
		method: 'PUT',
		path: `${FILES}/upload`,
		...onBucket(where, [
			['visibility', file.visibility],
			['key', file.key],
		]),
		headers: { 'Content-Type': file.form.contentType },
		body: file.form.body,
		what,
		retry: 'idempotent',
		...(resendCheck ? { resendCheck } : {}),
		// An attempt without a known outcome may still store these bytes later (see ApiCall.writes).
		writes: { bucket: where.bucket, region: where.region, key: file.key },
	});
	requireSameKey(client, what, data, file.key);
	return data as StoredFile;
}

/** `resendCheck`: a delete decided on evidence is sent again only while it holds (see ResendCheck). */
export async function deleteFile(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	resendCheck?: ResendCheck,
): Promise<Removal> {
	return await removal(client, {
		method: 'DELETE',
		path: `${FILES}/delete`,
		...onBucket(where, [['key', key]]),
		what: `Delete of '${key}'`,
		retry: 'idempotent',
		...(resendCheck ? { resendCheck } : {}),
		// An attempt without a known outcome may still remove what is stored there later.
		writes: { bucket: where.bucket, region: where.region, key },
	});
}

export interface SignedUrl extends IDataObject {
	url: string;
	expires_in?: number;
	is_public: boolean;
}

export async function getSignedUrl(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	expiresIn: number,
): Promise<SignedUrl> {
	return (await datedSignedUrl(client, where, key, expiresIn)).link;
}

/**
 * The signed URL, with its answer's HTTP Date (the service's clock, as sent; undefined when none):
 * answered before the link is read, it bounds from below when that read happened (files/proof.ts).
 */
export async function datedSignedUrl(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	expiresIn: number,
): Promise<{ link: SignedUrl; date?: string }> {
	const what = `Signed URL of '${key}'`;
	const { data, date } = await datedAnswerOf(client, {
		method: 'GET',
		path: `${FILES}/signed-url`,
		...onBucket(where, [
			['key', key],
			['expiresIn', expiresIn],
		]),
		what,
		retry: 'idempotent',
	});
	if (!isHttpUrl(data.url)) {
		throw client.unexpectedAnswer(what, `"url" is ${describe(data.url)}, not an http(s) URL`);
	}
	// A link to another file would be read as this one (every read of a stored version goes through one).
	const named = keyFromLocation(data.url as string);
	if (named !== undefined && named !== key) {
		throw client.unexpectedAnswer(what, `the link names the file '${named}', not '${key}'`);
	}
	return { link: data as SignedUrl, ...(date === undefined ? {} : { date }) };
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}

export interface Purge extends IDataObject {
	message: string;
	urls: string[];
}

/** Clears a file from the CDN cache (the SDK's `files.purge`); the same path in both families. */
export async function purgeFile(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	what = `Purge of the CDN cache for '${key}'`,
): Promise<Purge> {
	return (await datedPurge(client, where, key, what)).purge;
}

/** The purge, with its answer's HTTP Date (the service's clock, as sent; undefined when none), as datedSignedUrl. */
export async function datedPurge(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	what = `Purge of the CDN cache for '${key}'`,
): Promise<{ purge: Purge; date?: string }> {
	const { data, date } = await datedAnswerOf(client, {
		method: 'POST',
		path: `${FILES}/purge`,
		...onBucket(where, [['key', key]]),
		what,
		retry: 'idempotent',
	});
	// [ours] The field names of the answer are not published: a missing list is an empty one.
	const urls = data.urls ?? [];
	if (!Array.isArray(urls) || !urls.every((url) => typeof url === 'string')) {
		throw client.unexpectedAnswer(what, `"urls" is ${describe(data.urls)}, not a list of URLs`);
	}
	const purge = { ...data, message: typeof data.message === 'string' ? data.message : '', urls: urls as string[] };
	return { purge, ...(date === undefined ? {} : { date }) };
}
