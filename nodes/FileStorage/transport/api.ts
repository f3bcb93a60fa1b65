import type { IDataObject } from 'n8n-workflow';

import { failedOnRetryWith } from './errors';
import type { FileForm } from './formData';
import { familyRoutes, type FamilyRoutes } from './pathFamily';
import type { ApiCall, FileStorageClient } from './request';

/**
 * The File Storage API v1, one function per endpoint, with query parameters in the
 * order the service's SDK sends them (the signature covers that order).
 */

export interface BucketRef {
	bucket: string;
	region: string;
}

export type Visibility = 'public' | 'private';

export interface ListEntry extends IDataObject {
	name: string;
	type: 'file' | 'folder' | string;
	path: string;
}

export interface ListPage {
	contents: { name: string; type: string; path: string; children?: ListEntry[] };
	pagination: { current_page: number; total_pages: number; total_items: number; items_per_page: number };
}

export interface StoredFile extends IDataObject {
	message: string;
	key: string;
	location: string;
	bucket: string;
	region: string;
	visibility: Visibility;
	size: number;
	content_type: string;
}

export interface StartedUpload extends IDataObject {
	uploadId: string;
	key: string;
	bucket: string;
	fileId?: string;
}

/** Spelled as the service answers a part upload: lower-case `partNumber`. */
export interface UploadedPart extends IDataObject {
	partNumber: number;
	ETag: string;
}

const FILES = '/api/v1/files';

/** How long a clean-up call may take once the run is failing or stopped. */
export const CLEANUP_BOUND_MS = 30_000;

function describe(value: unknown): string {
	const text = JSON.stringify(value);
	return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/** A whole number the service may spell as a number or as a numeric string. */
function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
	return undefined;
}

function requireObject(client: FileStorageClient, what: string, data: unknown): IDataObject {
	if (!data || typeof data !== 'object' || Array.isArray(data)) {
		throw client.unexpectedAnswer(what, `"data" is ${describe(data)}, not an object`);
	}
	return data as IDataObject;
}

/** The `data` object of a call's answer; anything else is an unexpected answer. */
async function answerOf(client: FileStorageClient, call: ApiCall): Promise<IDataObject> {
	return requireObject(client, call.what, await client.send(call));
}

function requireSameKey(client: FileStorageClient, what: string, data: IDataObject, key: string): void {
	if (data.key !== key) {
		throw client.unexpectedAnswer(
			what,
			`the stored file's key is ${describe(data.key)}, but ${describe(key)} was sent`,
		);
	}
}

function multipartPath(uploadId: string, step: string): string {
	return `${FILES}/multipart/${encodeURIComponent(uploadId)}/${step}`;
}

/** An endpoint the two path families spell differently (pathFamily.ts); the transport picks one. */
function inFamily(routes: FamilyRoutes): Pick<ApiCall, 'method' | 'path' | 'family'> {
	return { ...routes.reference, family: routes };
}

/** Every entry is read by its path and type: one without them cannot be listed, watched or fetched. */
function checkEntry(client: FileStorageClient, what: string, entry: unknown, index: number): void {
	const field = `"contents.children[${index}]"`;
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
		throw client.unexpectedAnswer(what, `${field} is ${describe(entry)}, not an entry object`);
	}
	const { path, type } = entry as IDataObject;
	if (!isNonEmptyString(path)) {
		throw client.unexpectedAnswer(what, `${field}.path is ${describe(path)}, not a non-empty string`);
	}
	if (typeof type !== 'string') {
		throw client.unexpectedAnswer(what, `${field}.type is ${describe(type)}, not a string`);
	}
}

export async function listContents(
	client: FileStorageClient,
	where: BucketRef,
	prefix: string,
	page: number,
	limit: number,
): Promise<ListPage> {
	const what = `List Contents of '${where.bucket}' (page ${page})`;
	const data = await answerOf(client, {
		...inFamily(familyRoutes.list()),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['prefix', prefix],
			['page', page],
			['limit', limit],
		],
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
	if (totalPages === undefined || (totalPages < page && children.length > 0)) {
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

export async function uploadFile(client: FileStorageClient, where: BucketRef, file: FileToStore): Promise<StoredFile> {
	const what = `Upload of '${file.key}'`;
	const data = await answerOf(client, {
		method: 'PUT',
		path: `${FILES}/upload`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['visibility', file.visibility],
			['key', file.key],
		],
		headers: { 'Content-Type': file.form.contentType },
		body: file.form.body,
		what,
		retry: 'idempotent',
	});
	requireSameKey(client, what, data, file.key);
	return data as StoredFile;
}

export interface UploadToStart {
	key: string;
	contentType: string;
	visibility: Visibility;
	totalParts: number;
}

export async function startMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	upload: UploadToStart,
): Promise<StartedUpload> {
	const what = `Start of the multipart upload of '${upload.key}'`;
	const data = await answerOf(client, {
		method: 'POST',
		path: `${FILES}/multipart/start`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', upload.key],
			['mimeType', upload.contentType],
			['visibility', upload.visibility],
			['totalParts', upload.totalParts],
		],
		what,
		retry: 'notProcessed',
	});
	if (!isNonEmptyString(data.uploadId)) {
		throw client.unexpectedAnswer(what, `"uploadId" is ${describe(data.uploadId)}, not a non-empty string`);
	}
	return data as StartedUpload;
}

export interface PartToUpload {
	uploadId: string;
	key: string;
	partNumber: number;
	totalParts: number;
	/** The part as a form body (see formEnvelope and PartBodyPool). */
	form: FileForm;
}

const FAMILY_LISTING_TIMEOUT_MS = 10_000;

/**
 * A one-entry listing next to the key, sent only to learn the service's path family before the
 * parts of an upload go out in parallel (FileStorageClient.learnFamilyWith).
 */
export async function learnPathFamily(client: FileStorageClient, where: BucketRef, key: string): Promise<void> {
	await client.learnFamilyWith({
		...inFamily(familyRoutes.list()),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['prefix', key],
			['page', 1],
			['limit', 1],
		],
		what: `Learning the API's paths at the Base URL`,
		// The parts wait for it: a listing that hangs must not hold them for the whole Timeout.
		// It is only a hint, so it is not retried either; without it part 1 finds out.
		retry: 'never',
		timeoutMs: FAMILY_LISTING_TIMEOUT_MS,
	});
}

export async function uploadPart(
	client: FileStorageClient,
	where: BucketRef,
	part: PartToUpload,
): Promise<UploadedPart> {
	const { form } = part;
	const what = `Upload of part ${part.partNumber} of ${part.totalParts} of '${part.key}'`;
	const data = await answerOf(client, {
		...inFamily(familyRoutes.uploadPart(part.uploadId)),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['partNumber', part.partNumber],
			['key', part.key],
			['totalParts', part.totalParts],
		],
		headers: { 'Content-Type': form.contentType },
		body: form.body,
		what,
		retry: 'idempotent',
	});
	// The part is the one that was sent: an echo of another number means the service
	// stored something else, and completing with it would assemble a wrong file.
	if (data.partNumber !== undefined && wholeNumber(data.partNumber) !== part.partNumber) {
		throw client.unexpectedAnswer(
			what,
			`"partNumber" is ${describe(data.partNumber)}, but part ${part.partNumber} was sent`,
		);
	}
	if (!isNonEmptyString(data.ETag)) {
		throw client.unexpectedAnswer(what, `"ETag" is ${describe(data.ETag)}, not a non-empty string`);
	}
	return { partNumber: part.partNumber, ETag: data.ETag };
}

export async function completeMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	uploadId: string,
	key: string,
	parts: UploadedPart[],
): Promise<StoredFile> {
	const what = `Completion of the multipart upload of '${key}'`;
	const data = await answerOf(client, {
		method: 'POST',
		path: multipartPath(uploadId, 'complete'),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
		],
		headers: { 'Content-Type': 'application/json' },
		// The completion request spells it `PartNumber`, unlike the part result.
		body: { parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.ETag })) },
		what,
		retry: 'idempotent',
	});
	requireSameKey(client, what, data, key);
	return data as StoredFile;
}

/** What a Delete or Cancel reports; `earlierAttempt` when a retry found the work already done. */
export interface Removal {
	message: string;
	earlierAttempt: boolean;
}

/**
 * Delete and Cancel are sent again when an answer is lost; the repeat then finds nothing to
 * remove (404). After a retry that means an earlier attempt did the work, not a failure.
 */
async function removal(client: FileStorageClient, call: ApiCall): Promise<Removal> {
	return await client.send<IDataObject>(call).then(
		(data) => ({ message: typeof data?.message === 'string' ? data.message : '', earlierAttempt: false }),
		(error: unknown) => {
			if (!failedOnRetryWith(error, 404)) throw error;
			return {
				message: 'Done by an earlier attempt: its answer was lost, and the retry found nothing left to remove.',
				earlierAttempt: true,
			};
		},
	);
}

export async function cancelMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	uploadId: string,
	key: string,
	options: { cleanup?: boolean } = {},
): Promise<Removal> {
	return await removal(client, {
		...inFamily(familyRoutes.cancel(uploadId)),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
		],
		what: `Cancelling the multipart upload of '${key}'`,
		retry: 'idempotent',
		detachedForMs: options.cleanup ? CLEANUP_BOUND_MS : undefined,
	});
}

export async function deleteFile(client: FileStorageClient, where: BucketRef, key: string): Promise<Removal> {
	return await removal(client, {
		method: 'DELETE',
		path: `${FILES}/delete`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
		],
		what: `Delete of '${key}'`,
		retry: 'idempotent',
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
	const what = `Signed URL of '${key}'`;
	const data = await answerOf(client, {
		method: 'GET',
		path: `${FILES}/signed-url`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
			['expiresIn', expiresIn],
		],
		what,
		retry: 'idempotent',
	});
	if (!isHttpUrl(data.url)) {
		throw client.unexpectedAnswer(what, `"url" is ${describe(data.url)}, not an http(s) URL`);
	}
	return data as SignedUrl;
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
	const data = await answerOf(client, {
		method: 'POST',
		path: `${FILES}/purge`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
		],
		what,
		retry: 'idempotent',
	});
	// [ours] The field names of the answer are not published: a missing list is an empty one.
	const urls = data.urls ?? [];
	if (!Array.isArray(urls) || !urls.every((url) => typeof url === 'string')) {
		throw client.unexpectedAnswer(what, `"urls" is ${describe(data.urls)}, not a list of URLs`);
	}
	return { ...data, message: typeof data.message === 'string' ? data.message : '', urls: urls as string[] };
}
