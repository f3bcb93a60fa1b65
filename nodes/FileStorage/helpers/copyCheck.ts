import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deleteFile, type BucketRef } from '../transport/api';
import type { FileStorageClient } from '../transport/request';
import { readFileInfo } from './fileInfo';
import { etagMd5 } from './hashedSource';

export interface CopyFacts {
	to: BucketRef & { key: string };
	/** The source's Content-Length, when its CDN answer had one. */
	announced?: number;
	/** What was read from the source and sent. */
	digest: { bytes: number; md5: string };
	/** The size the upload's answer reported. */
	storedSize?: unknown;
}

export interface CopyCheck {
	size: number;
	md5: string;
	/** What the copy was compared on: always size; etag when the CDN gives an MD5 ETag. */
	checked: string[];
}

/** Why the copy is not the source, or undefined when everything that can be compared agrees. */
function mismatch(facts: CopyFacts, info: Awaited<ReturnType<typeof readFileInfo>>): string | undefined {
	const { bytes, md5 } = facts.digest;
	if (facts.announced !== undefined && bytes !== facts.announced) {
		return `${bytes} bytes were read from the source, which announced ${facts.announced}`;
	}
	if (typeof facts.storedSize === 'number' && facts.storedSize !== bytes) {
		return `the service stored ${facts.storedSize} bytes, but ${bytes} were sent`;
	}
	if (!info) return 'the copy is not there when looked up after the upload';
	if (info.size !== null && info.size !== bytes) return `the copy is ${info.size} bytes, but ${bytes} were sent`;
	const etag = etagMd5(info.etag);
	if (etag !== undefined && etag !== md5)
		return `the copy's ETag ${info.etag} is not the MD5 of the bytes sent (${md5})`;
	return undefined;
}

/**
 * Checks a copy before it is reported (and before Move deletes its source): the bytes read are
 * what the source announced, the service stored as many, and a HEAD of the copy through its
 * signed link says the same size, and the same MD5 where its ETag is one [ours: the API reports
 * no ETag of a stored file; S3-like CDNs send one]. A copy that fails the check is deleted.
 */
export async function fileInfoAfterCopy(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	facts: CopyFacts,
): Promise<CopyCheck> {
	const info = await readFileInfo(client, facts.to, facts.to.key);
	const problem = mismatch(facts, info);
	if (problem === undefined) {
		const checked = etagMd5(info?.etag) === undefined ? ['size'] : ['size', 'etag'];
		return { size: facts.digest.bytes, md5: facts.digest.md5, checked };
	}
	let after = `The faulty copy '${facts.to.key}' was deleted.`;
	if (info) {
		await deleteFile(client, facts.to, facts.to.key).catch((error: Error) => {
			after = `Deleting the faulty copy '${facts.to.key}' failed as well (${error.message}): delete it yourself.`;
		});
	}
	throw new NodeOperationError(ctx.getNode(), `The copy of the file failed its check: ${problem}`, {
		itemIndex,
		description: `${after} Run the node again.`,
	});
}
