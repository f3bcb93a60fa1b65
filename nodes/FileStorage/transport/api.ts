import type { IDataObject } from 'n8n-workflow';

import type { FileForm } from './formData';
import type { FileStorageClient } from './request';

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

function multipartPath(uploadId: string, step: string): string {
	return `${FILES}/multipart/${encodeURIComponent(uploadId)}/${step}`;
}

export async function listContents(
	client: FileStorageClient,
	where: BucketRef,
	prefix: string,
	page: number,
	limit: number,
): Promise<ListPage> {
	return await client.send<ListPage>({
		method: 'GET',
		path: `${FILES}/list`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['prefix', prefix],
			['page', page],
			['limit', limit],
		],
		what: `List Contents of '${where.bucket}' (page ${page})`,
		retry: 'idempotent',
	});
}

export interface FileToStore {
	key: string;
	visibility: Visibility;
	/** The file as a form body (see formEnvelope). */
	form: FileForm;
}

export async function uploadFile(client: FileStorageClient, where: BucketRef, file: FileToStore): Promise<StoredFile> {
	return await client.send<StoredFile>({
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
		what: `Upload of '${file.key}'`,
		retry: 'idempotent',
	});
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
	return await client.send<StartedUpload>({
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
		what: `Start of the multipart upload of '${upload.key}'`,
		retry: 'notProcessed',
	});
}

export interface PartToUpload {
	uploadId: string;
	key: string;
	partNumber: number;
	totalParts: number;
	/** The part as a form body (see formEnvelope and PartBodyPool). */
	form: FileForm;
}

export async function uploadPart(
	client: FileStorageClient,
	where: BucketRef,
	part: PartToUpload,
): Promise<UploadedPart> {
	const { form } = part;
	return await client.send<UploadedPart>({
		method: 'POST',
		path: multipartPath(part.uploadId, 'upload'),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['partNumber', part.partNumber],
			['key', part.key],
			['totalParts', part.totalParts],
		],
		headers: { 'Content-Type': form.contentType },
		body: form.body,
		what: `Upload of part ${part.partNumber} of ${part.totalParts} of '${part.key}'`,
		retry: 'idempotent',
	});
}

export async function completeMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	uploadId: string,
	key: string,
	parts: UploadedPart[],
): Promise<StoredFile> {
	return await client.send<StoredFile>({
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
		what: `Completion of the multipart upload of '${key}'`,
		retry: 'idempotent',
	});
}

export async function cancelMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	uploadId: string,
	key: string,
): Promise<IDataObject> {
	return await client.send<IDataObject>({
		method: 'POST',
		path: multipartPath(uploadId, 'cancel'),
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
		],
		what: `Cancelling the multipart upload of '${key}'`,
		retry: 'idempotent',
	});
}

export async function deleteFile(client: FileStorageClient, where: BucketRef, key: string): Promise<IDataObject> {
	return await client.send<IDataObject>({
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
	return await client.send<SignedUrl>({
		method: 'GET',
		path: `${FILES}/signed-url`,
		query: [
			['bucket_name', where.bucket],
			['region', where.region],
			['key', key],
			['expiresIn', expiresIn],
		],
		what: `Signed URL of '${key}'`,
		retry: 'idempotent',
	});
}
