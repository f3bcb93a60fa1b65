import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fileNotFound } from '../../files/fileInfo';
import { Item, transportSettings } from '../../item';
import { linkRewritesKey, rewrittenLinkWords } from '../../files/keys';
import { findStoredRecord, staleAnswer, type StoredRecord } from '../../helpers/storedRecord';
import type { UploadSource } from '../../upload/uploadSource';
import { openUrlSource } from '../../upload/urlSource';
import { getSignedUrl, purgeFile, type BucketRef, type SignedUrl } from '../../transport/api';
import { isApiErrorAnswer } from '../../transport/apiAnswer';
import type { FileStorageClient } from '../../transport/request';

/** The source's link only needs to outlive the start of the transfer (its retries included). */
const SOURCE_LINK_SECONDS = 900;

type Ref = BucketRef & { key: string };

/** The "not found" errors of a source that is not there: a Move then has no source to keep. */
const missingSources = new WeakSet<object>();

export function isMissingSource(error: unknown): boolean {
	return typeof error === 'object' && error !== null && missingSources.has(error);
}

function where(ref: Ref): string {
	return `'${ref.key}' in bucket '${ref.bucket}' (region ${ref.region})`;
}

export interface StoredSource {
	link: SignedUrl;
	/** The bytes, through the source's link, not read yet. */
	opened: UploadSource;
	/** The service's record of the source, which the bytes' answer agreed with. */
	record: StoredRecord;
}

/** The "not found" of a source, marked so that Move says there is no source to keep. */
export function missingSource(ctx: IExecuteFunctions, itemIndex: number, from: Ref, more = '') {
	const missing = fileNotFound(ctx, from, from.key, itemIndex);
	if (more) missing.description = `${more} ${missing.description ?? ''}`.trim();
	missingSources.add(missing);
	return missing;
}

/** Whether the API itself says the file is not there (its own 404); any failure to ask says no. */
async function isGone(client: FileStorageClient, from: Ref): Promise<boolean> {
	return await getSignedUrl(client, from, from.key, 60).then(
		() => false,
		(error: unknown) =>
			error instanceof NodeApiError && error.httpCode === '404' && isApiErrorAnswer(error.errorResponse),
	);
}

async function sourceLink(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	from: Ref,
	verb: string,
) {
	const link = await getSignedUrl(client, from, from.key, SOURCE_LINK_SECONDS).catch((error: unknown) => {
		if (!(error instanceof NodeApiError && error.httpCode === '404')) throw error;
		throw missingSource(ctx, itemIndex, from);
	});
	// The link as the service spelled it (another encoding of a '.' segment included) must still
	// name the source once parsed: else the copy would be of another file.
	const rewrite = linkRewritesKey(link.url);
	if (rewrite) {
		const words = rewrittenLinkWords(`${verb} of '${from.key}'`, rewrite);
		throw new NodeOperationError(ctx.getNode(), words.message, { itemIndex, description: words.description });
	}
	return link;
}

/**
 * A public source's plain location is answered by a CDN that may still hold an earlier version
 * (spec §3.9): its cache is purged first, the purge call existing for exactly this. A purge that
 * fails (other than the API's 404) leaves the read unsure, so nothing is copied.
 */
async function purgeSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	from: Ref,
	none: string,
) {
	await purgeFile(client, from, from.key).catch((error: unknown) => {
		// The API's own "not found": nothing of the key is cached (or the file went, which the
		// read and the record find out). Anything else leaves the cache as it was.
		if (error instanceof NodeApiError && error.httpCode === '404' && isApiErrorAnswer(error.errorResponse)) return;
		const words = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(
			ctx.getNode(),
			`Clearing the CDN cache of the public source ${where(from)} failed: ${words}`,
			{
				itemIndex,
				description: `A public file is read through the CDN, which can answer an earlier version until its cache is cleared, so the source is not read without it. ${none} Run the node again later.`,
			},
		);
	});
}

/**
 * Opens the source as the service stores it: its link (public: its cache purged first), then
 * its record in the listing (the API's, not the CDN's), which the CDN's answer must agree with
 * (size, and Last-Modified where sent). A disagreement means the CDN answered another version:
 * nothing is copied. Read after the answer came, so a file replaced since is caught too.
 */
export async function openStoredSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	from: Ref,
	verb: 'Copy' | 'Move',
	options: IDataObject,
): Promise<StoredSource> {
	const none = `Nothing was copied${verb === 'Move' ? ' or deleted' : ''}.`;
	const link = await sourceLink(ctx, itemIndex, client, from, verb);
	if (link.is_public) await purgeSource(ctx, itemIndex, client, from, none);
	const opened = await openUrlSource(
		new Item(ctx, itemIndex),
		new URL(link.url),
		{},
		{
			...transportSettings(options),
			withoutLengthHint: `The CDN stated no length for the source file, so the copy could not be checked against it. ${none} Run the node again later; if the CDN keeps leaving out Content-Length, download the file and upload it instead.`,
		},
	).catch(async (error: unknown) => {
		// Another item or workflow may have moved it away between its link and its read.
		if (await isGone(client, from)) {
			throw missingSource(ctx, itemIndex, from, 'It was deleted (or moved) while it was being read.');
		}
		throw error;
	});
	const record = await findStoredRecord(client, from, from.key).catch((error: unknown) => {
		opened.discard();
		throw error;
	});
	const stale = record ? staleAnswer({ size: opened.size, lastModified: opened.lastModified }, record) : undefined;
	if (record && stale === undefined) return { link, opened, record };
	opened.discard();
	if (!record) {
		throw new NodeOperationError(ctx.getNode(), `${verb}: the source ${where(from)} is no longer there`, {
			itemIndex,
			description: `The service's listing does not show it any more: it was deleted (or moved) while it was being read. ${none}`,
		});
	}
	throw new NodeOperationError(
		ctx.getNode(),
		`${verb}: the source ${where(from)} read through the CDN is not the version the service stores: ${stale}`,
		{
			itemIndex,
			description: `The CDN answered an earlier version from its cache${link.is_public ? ', even after its cache was cleared' : ''}, or the file was replaced while it was read. ${none} Run the node again in a few minutes.`,
		},
	);
}
