import type { IDataObject, IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Item } from '../item';
import { timeOf } from '../listing/listingTime';
import { answerCdnHeaders, existenceOf, type CdnHeaders } from './proof';
import { getSignedUrl, type BucketRef, type Visibility } from '../transport/api';
import { failedAnswer } from '../transport/apiAnswer';
import type { FileStorageClient } from '../transport/request';

/** Only needs to outlive the HEAD that follows at once. */
const INFO_LINK_SECONDS = 60;

export interface FileInfo extends IDataObject {
	key: string;
	bucket: string;
	region: string;
	exists: true;
	size: number | null;
	content_type: string | null;
	last_modified: string | null;
	/** The CDN's ETag header as sent (quotes kept), or null: the API itself reports none [ours]. */
	etag: string | null;
	visibility: Visibility;
	/** The file's location: for a private file, its signed link without the signature. */
	location: string;
}

function header(answer: IN8nHttpFullResponse, name: string): string | undefined {
	const value = answer.headers?.[name];
	return value === undefined || value === null ? undefined : String(value);
}

/** As the listing spells dates: ISO 8601 UTC to whole seconds. */
function isoSeconds(httpDate: string | undefined): string | null {
	const time = timeOf(httpDate);
	return time === undefined ? null : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/** The API's own "not found" of the link: a gateway's or proxy's 404 says nothing of the file. */
function isApiNotFound(error: unknown): boolean {
	return existenceOf(failedAnswer(error)) === 'absent';
}

/**
 * What the CDN says of a file, without its bytes: a signed link (one API call) and a HEAD of it
 * (one CDN request, no body). Constant cost whatever the folder holds, unlike reading the
 * listing of its folder. Undefined when the file does not exist (either step may find that:
 * the file may go in between).
 */
export async function readFileInfo(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
): Promise<FileInfo | undefined> {
	return (await headFile(client, where, key))?.info;
}

/** readFileInfo's answer with the CDN's headers as sent (the copy's check judges them: proof.ts). */
export async function headFile(
	client: FileStorageClient,
	where: BucketRef,
	key: string,
): Promise<{ info: FileInfo; headers: CdnHeaders } | undefined> {
	const link = await getSignedUrl(client, where, key, INFO_LINK_SECONDS).catch((error: unknown) => {
		if (isApiNotFound(error)) return undefined;
		throw error;
	});
	if (!link) return undefined;
	const answer = await client.fetchLink(link.url, `Get Info of '${key}'`, 'HEAD').catch((error: unknown) => {
		if (isNotFound(error)) return undefined;
		throw error;
	});
	if (!answer) return undefined;
	(answer.body as { destroy?: () => void } | undefined)?.destroy?.();
	const length = Number(header(answer, 'content-length'));
	const contentType = (header(answer, 'content-type') ?? '').split(';')[0].trim();
	const info: FileInfo = {
		key,
		bucket: where.bucket,
		region: where.region,
		exists: true,
		size: Number.isFinite(length) && length >= 0 ? length : null,
		content_type: contentType || null,
		last_modified: isoSeconds(header(answer, 'last-modified')),
		etag: header(answer, 'etag') ?? null,
		visibility: link.is_public ? 'public' : 'private',
		location: link.url.split(/[?#]/)[0],
	};
	// With every redirect's headers: one a cache kept makes the HEAD's ETag no evidence (proof.ts).
	return { info, headers: answerCdnHeaders(answer) };
}

/** The error for a file that is not there, named as Download names it. */
export function fileNotFound(item: Item, where: BucketRef, key: string, field = 'File') {
	return new NodeApiError(item.node, { status: 404 } as JsonObject, {
		message: `The file '${key}' was not found in bucket '${where.bucket}' (region ${where.region})`,
		description: `Check the ${field} parameter, and the bucket name and region (a bucket is identified by both).`,
		httpCode: '404',
		itemIndex: item.index,
	});
}
