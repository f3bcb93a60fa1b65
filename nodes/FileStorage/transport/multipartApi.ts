import { onBucket } from './call';
import type { FileForm } from './formData';
import {
	answerOf,
	describe,
	inFamily,
	isNonEmptyString,
	multipartPath,
	removal,
	requireSameKey,
	wholeNumber,
	FILES,
	type Removal,
} from './answerChecks';
import type { BucketRef, StartedUpload, StoredFile, UploadedPart, Visibility } from './apiTypes';
import { familyRoutes } from './pathFamily';
import type { FileStorageClient, ResendCheck } from './request';

/** The multipart upload endpoints of the File Storage API v1 (see api.ts for the order of query parameters). */

/** How long a clean-up call may take once the run is failing or stopped. */
export const CLEANUP_BOUND_MS = 30_000;

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
		...onBucket(where, [
			['key', upload.key],
			['mimeType', upload.contentType],
			['visibility', upload.visibility],
			['totalParts', upload.totalParts],
		]),
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
		...onBucket(where, [
			['prefix', key],
			['page', 1],
			['limit', 1],
		]),
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
		...onBucket(where, [
			['partNumber', part.partNumber],
			['key', part.key],
			['totalParts', part.totalParts],
		]),
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

export interface UploadToComplete {
	uploadId: string;
	key: string;
	parts: UploadedPart[];
	/** A Complete that must not replace a file is sent again only onto a key still free (see ResendCheck). */
	resendCheck?: ResendCheck;
}

export async function completeMultipartUpload(
	client: FileStorageClient,
	where: BucketRef,
	{ uploadId, key, parts, resendCheck }: UploadToComplete,
): Promise<StoredFile> {
	const what = `Completion of the multipart upload of '${key}'`;
	const data = await answerOf(client, {
		method: 'POST',
		path: multipartPath(uploadId, 'complete'),
		...onBucket(where, [['key', key]]),
		headers: { 'Content-Type': 'application/json' },
		// The completion request spells it `PartNumber`, unlike the part result.
		body: { parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.ETag })) },
		what,
		retry: 'idempotent',
		...(resendCheck ? { resendCheck } : {}),
	});
	requireSameKey(client, what, data, key);
	return data as StoredFile;
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
		...onBucket(where, [['key', key]]),
		what: `Cancelling the multipart upload of '${key}'`,
		retry: 'idempotent',
		detachedForMs: options.cleanup ? CLEANUP_BOUND_MS : undefined,
	});
}
