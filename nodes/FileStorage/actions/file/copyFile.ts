import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fileInfoAfterCopy, type CopyCheck } from '../../helpers/copyCheck';
import { fileNotFound } from '../../helpers/fileInfo';
import { hashedSource } from '../../helpers/hashedSource';
import { hasDotSegment, joinKey, linkRewritesKey, rewrittenLinkWords } from '../../helpers/keys';
import { openUrlSource } from '../../helpers/urlSource';
import { deleteFile, getSignedUrl, type BucketRef, type Visibility } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { assertValidKey, clientFor, getBucketRef, transportSettings } from '../common';
import { readDestinationPath } from './copyFields';
import { fileNameOf, readFileKey } from './fileKey';
import { storeSource } from './storeSource';

/** The source's link only needs to outlive the start of the transfer (its retries included). */
const SOURCE_LINK_SECONDS = 900;

export interface FileRef extends BucketRef {
	key: string;
}

function destinationOf(ctx: IExecuteFunctions, itemIndex: number, from: FileRef, options: IDataObject): FileRef {
	const typed = readDestinationPath(ctx, itemIndex);
	if (!typed.trim()) {
		throw new NodeOperationError(ctx.getNode(), "The parameter 'Destination Path' is empty", {
			itemIndex,
			description: 'Enter where the file should go, e.g. done/report.pdf, or a folder ending in "/" such as done/.',
		});
	}
	const key = typed.endsWith('/') ? joinKey(typed, fileNameOf(from.key)) : typed;
	return {
		bucket: String(options.destinationBucket ?? '').trim() || from.bucket,
		region: String(options.destinationRegion ?? '').trim() || from.region,
		key: assertValidKey(ctx, itemIndex, key, 'Destination Path'),
	};
}

export function describeRef(ref: FileRef): string {
	return `'${ref.key}' in bucket '${ref.bucket}' (region ${ref.region})`;
}

async function exists(client: FileStorageClient, ref: FileRef): Promise<boolean> {
	return await getSignedUrl(client, ref, ref.key, 1).then(
		() => true,
		(error: unknown) => {
			// A missing bucket is a 404 too: the upload then says so in its own words.
			if (error instanceof NodeApiError && error.httpCode === '404') return false;
			throw error;
		},
	);
}

export interface Copied {
	from: FileRef;
	to: FileRef;
	client: FileStorageClient;
	json: IDataObject;
}

/**
 * A Move's failure before its delete, saying that the source stays. A failure before the source
 * was even named (a parameter) is given as it is.
 */
export function sourceStays(
	ctx: IExecuteFunctions,
	itemIndex: number,
	error: unknown,
): NodeApiError | NodeOperationError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	let from: FileRef;
	try {
		from = { ...getBucketRef(ctx, itemIndex), key: readFileKey(ctx, itemIndex) };
	} catch {
		return failure;
	}
	const before = failure.description ? `${failure.description} ` : '';
	failure.description = `${before}The source ${describeRef(from)} was not deleted.`;
	return failure;
}

/**
 * Copies a file by streaming its signed link (a plain GET: the CDN gets no credential and no
 * signature of ours) into an upload with the bounded part pool, then checks the copy (see
 * copyCheck.ts). Nothing here deletes the source: Move does that only after this returned.
 */
export async function copyFile(ctx: IExecuteFunctions, itemIndex: number, verb: 'Copy' | 'Move'): Promise<Copied> {
	const where = getBucketRef(ctx, itemIndex);
	const from: FileRef = { ...where, key: readFileKey(ctx, itemIndex) };
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const to = destinationOf(ctx, itemIndex, from, options);
	if (to.key === from.key && to.bucket === from.bucket && to.region === from.region) {
		throw new NodeOperationError(ctx.getNode(), `${verb}: the source and the destination are the same file`, {
			itemIndex,
			description: `Both are ${describeRef(from)}. Set Destination Path to another path, or another bucket or region in the options. Nothing was changed.`,
		});
	}
	// Both files are read through their links (the source's bytes, the copy's check); a link of
	// a key with a '.' segment reaches another file (see linkRewritesKey).
	for (const [role, ref] of [
		['source', from],
		['destination', to],
	] as const) {
		if (!hasDotSegment(ref.key)) continue;
		throw new NodeOperationError(
			ctx.getNode(),
			`${verb}: the ${role} '${ref.key}' has a '.' segment, which its link cannot carry`,
			{
				itemIndex,
				description: `A URL client resolves '.' segments in a link, so the ${role}'s link would reach another file and the copy could not be made or checked. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Use a key without a '.' segment.`,
			},
		);
	}
	const client = await clientFor(ctx, itemIndex, options);
	if (options.replace !== true && (await exists(client, to))) {
		throw new NodeOperationError(ctx.getNode(), `${verb}: the destination ${describeRef(to)} already exists`, {
			itemIndex,
			description: `Turn on the Replace Existing File option to overwrite it. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}.`,
		});
	}
	const link = await getSignedUrl(client, from, from.key, SOURCE_LINK_SECONDS).catch((error: unknown) => {
		if (error instanceof NodeApiError && error.httpCode === '404') throw fileNotFound(ctx, from, from.key, itemIndex);
		throw error;
	});
	// The link as the service spelled it (another encoding of a '.' segment included) must still
	// name the source once parsed: else the copy would be of another file.
	const rewrite = linkRewritesKey(link.url);
	if (rewrite) {
		const words = rewrittenLinkWords(`${verb} of '${from.key}'`, rewrite);
		throw new NodeOperationError(ctx.getNode(), words.message, { itemIndex, description: words.description });
	}
	const opened = await openUrlSource(
		ctx,
		itemIndex,
		new URL(link.url),
		{},
		{
			...transportSettings(options),
			withoutLengthHint: `The CDN stated no length for the source file, so the copy could not be checked against it. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Run the node again later; if the CDN keeps leaving out Content-Length, download the file and upload it instead.`,
		},
	);
	const source = hashedSource({ ...opened, label: `the source file '${from.key}'` });
	const visibility: Visibility =
		options.visibility === 'public' || options.visibility === 'private'
			? options.visibility
			: link.is_public
				? 'public'
				: 'private';
	const contentType = String(options.contentType || opened.mimeType || 'application/octet-stream');
	const stored = await storeSource(ctx, itemIndex, client, { ...to, visibility, contentType }, source, options);
	const check: CopyCheck = await fileInfoAfterCopy(ctx, itemIndex, client, {
		to,
		announced: opened.size,
		digest: source.digest(),
		storedSize: stored.size,
	});
	return {
		from,
		to,
		client,
		json: {
			key: to.key,
			bucket: to.bucket,
			region: to.region,
			size: check.size,
			content_type: stored.content_type ?? contentType,
			visibility,
			location: stored.location,
			md5: check.md5,
			checked: check.checked,
			source: { key: from.key, bucket: from.bucket, region: from.region },
		},
	};
}

/** Move's last step: the source goes only after a checked copy; a failed delete says both exist. */
export async function deleteSourceAfterCopy(ctx: IExecuteFunctions, itemIndex: number, copied: Copied) {
	try {
		return await deleteFile(copied.client, copied.from, copied.from.key);
	} catch (error) {
		const words = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(
			ctx.getNode(),
			`Move: the copy is complete and checked, but deleting the source failed: ${words}`,
			{
				itemIndex,
				description: `Both files exist now: the source ${describeRef(copied.from)} and the copy ${describeRef(copied.to)}. Delete the source yourself, or run File → Delete on it.`,
			},
		);
	}
}
