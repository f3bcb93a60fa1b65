import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getSignedUrl, type BucketRef } from '../transport/api';
import { watchBody } from '../transport/bodyWatch';
import type { FileStorageClient } from '../transport/request';
import { fileContentFrom, type FileTarget } from './filePath';
import { checkedChunks, readFailureReason, type StreamProblem } from './streamChunks';

/** Only needs to outlive the start of the transfer that follows at once. */
const LINK_LIFETIME_SECONDS = 900;

type DownloadContext = IExecuteFunctions | IPollFunctions;
type BinaryBody = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** The body length the server announced, when it did. */
function announcedLength(headers: IDataObject | undefined): number | undefined {
	const length = Number(headers?.['content-length']);
	return Number.isFinite(length) ? length : undefined;
}

/** Whether an error of reading the body is the connection ending, not the store refusing it. */
function connectionEnded(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	return (
		['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET'].includes(String(code)) ||
		/aborted|premature close|socket hang up|terminated/i.test(String(message))
	);
}

function stalledError(
	fault: (problem: string, description: string) => NodeOperationError,
	idleMs: number,
	ofTotal: string,
): NodeOperationError {
	return fault(
		`stalled: no data for ${Math.round(idleMs / 1000)} s after ${ofTotal}`,
		'The CDN or the network stopped sending. Run the node again; on a very slow link raise the Timeout option.',
	);
}

export interface DownloadedFile {
	binary: IBinaryData;
	size: number;
}

/**
 * Streams a file into n8n's binary store through a signed link, and fails when the body stalls
 * or ends short of what the server announced.
 */
export async function downloadToBinary(
	ctx: DownloadContext,
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	fileName: string,
	itemIndex: number,
): Promise<DownloadedFile> {
	// A signed link works for private and public files alike, and keeps the transfer off
	// the API host (the CDN serves the bytes).
	const link = await getSignedUrl(client, where, key, LINK_LIFETIME_SECONDS);
	const response = await client.fetchLink(link.url, `Download of '${key}'`);
	const contentType = String(response.headers?.['content-type'] ?? '').split(';')[0] || undefined;
	const announced = announcedLength(response.headers);
	const progress = watchBody(response.body, client.idleTimeoutMs);
	const fault = (problem: string, description: string) =>
		new NodeOperationError(ctx.getNode(), `Download of '${key}' ${problem}`, {
			itemIndex,
			description: `Nothing was stored. ${description}`,
		});
	const ofTotal = () => `${progress.received} of ${announced ?? 'an unknown number of'} bytes`;
	let binary: IBinaryData;
	try {
		// The body is a stream: n8n's binary store writes it to disk as it arrives.
		binary = await ctx.helpers.prepareBinaryData(response.body as BinaryBody, fileName, contentType);
	} catch (error) {
		if (progress.silentForIdleTime) throw stalledError(fault, client.idleTimeoutMs, ofTotal());
		if (connectionEnded(error)) {
			throw fault(
				`was cut short after ${ofTotal()}: ${(error as Error).message}`,
				'The connection ended early. Run the node again.',
			);
		}
		// n8n's binary store refused the file (e.g. over the database mode's size limit): its
		// own words say which setting to change.
		throw fault(
			`could not be stored by n8n: ${(error as Error).message}`,
			"The file arrived, but n8n's binary data store did not take it.",
		);
	} finally {
		progress.stop();
	}
	if (progress.stalled) throw stalledError(fault, client.idleTimeoutMs, ofTotal());
	const size = binary.id
		? (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize
		: Buffer.byteLength(binary.data, 'base64');
	// Fewer bytes than announced is a cut-off body. More can only be a compressed body that
	// n8n's HTTP client unpacked (it drops Content-Encoding then, keeping Content-Length):
	// the link asks for identity, but a CDN may compress anyway, and a cut-off compressed
	// body fails while it is unpacked.
	if (announced !== undefined && size < announced) {
		throw fault(
			`was cut short: received ${size} of ${announced} bytes`,
			'The connection ended early. Run the node again.',
		);
	}
	return { binary, size };
}

export interface FileDownload {
	size: number;
	contentType?: string;
	filePath: string;
}

/**
 * Streams a file to a path on the n8n host. The bytes go to a temporary sibling first and are
 * copied under the final name only once all of them arrived: n8n gives community nodes no
 * rename, so a download cut off midway never touches the final name (an older file there keeps
 * its content). The temporary file is emptied afterwards; it cannot be deleted either.
 */
export async function downloadToFile(
	ctx: IExecuteFunctions,
	client: FileStorageClient,
	where: BucketRef,
	key: string,
	target: FileTarget,
	itemIndex: number,
): Promise<FileDownload> {
	const link = await getSignedUrl(client, where, key, LINK_LIFETIME_SECONDS);
	const response = await client.fetchLink(link.url, `Download of '${key}'`);
	const contentType = String(response.headers?.['content-type'] ?? '').split(';')[0] || undefined;
	const announced = announcedLength(response.headers);
	const untouched = `Nothing was written to '${target.shown}'.`;
	const fault = (problem: string, description: string) =>
		new NodeOperationError(ctx.getNode(), `Download of '${key}' ${problem}`, {
			itemIndex,
			description: `${untouched} ${description}`,
		});
	const fail = (problem: StreamProblem): Error => {
		if (problem.kind === 'stalled') {
			return stalledError(
				fault,
				client.idleTimeoutMs,
				`${problem.received} of ${announced ?? 'an unknown number of'} bytes`,
			);
		}
		if (problem.kind === 'short') {
			return fault(
				`was cut short: received ${problem.received} of ${problem.expected} bytes`,
				'The connection ended early. Run the node again.',
			);
		}
		const received = 'received' in problem ? problem.received : 0;
		const reason = problem.kind === 'broke' ? problem.reason : problem.kind;
		return fault(
			`was cut short after ${received} of ${announced ?? 'an unknown number of'} bytes: ${reason}`,
			'The connection ended early. Run the node again.',
		);
	};
	const emptyTemporary = async () =>
		await ctx.helpers.writeContentToFile(target.temporary, Buffer.alloc(0)).then(
			() => undefined,
			() => undefined,
		);
	const incoming = fileContentFrom(
		checkedChunks(response.body, { expected: announced, longerIsFine: true, idleMs: client.idleTimeoutMs, fail }),
	);
	const downloadFailure = await ctx.helpers.writeContentToFile(target.temporary, incoming.content).then(
		() => undefined,
		(error: unknown) =>
			error instanceof NodeOperationError
				? error
				: fault(
						`could not be written next to '${target.shown}': ${readFailureReason(error)}`,
						'Check that n8n may write in that folder and that the disk has room.',
					),
	);
	if (downloadFailure) {
		// The write may have failed before it read a byte (e.g. a path n8n refused).
		(response.body as { destroy?: () => void } | undefined)?.destroy?.();
		await emptyTemporary();
		throw downloadFailure;
	}
	const size = incoming.written();
	const copyFailure = await copyInto(ctx, key, target, size, itemIndex).then(
		() => undefined,
		(error: unknown) =>
			error instanceof NodeOperationError
				? error
				: new NodeOperationError(ctx.getNode(), `Writing '${target.shown}' failed: ${readFailureReason(error)}`, {
						itemIndex,
						description: `The download of '${key}' was complete; the file at '${target.shown}' may be incomplete. Check that n8n may write it and that the disk has room, then run the node again.`,
					}),
	);
	await emptyTemporary();
	if (copyFailure) throw copyFailure;
	return { size, contentType, filePath: target.resolved };
}

/** The complete download, copied from its temporary file under the final name. */
async function copyInto(
	ctx: IExecuteFunctions,
	key: string,
	target: FileTarget,
	size: number,
	itemIndex: number,
): Promise<void> {
	const stream = await ctx.helpers.createReadStream(target.temporary);
	const copy = fileContentFrom(
		checkedChunks(stream, {
			expected: size,
			fail: (problem) =>
				new NodeOperationError(ctx.getNode(), `Copying the download of '${key}' into '${target.shown}' failed`, {
					itemIndex,
					description: `Reading the temporary file ${target.temporary} gave ${problem.kind === 'broke' ? problem.reason : problem.kind}. The file at '${target.shown}' may be incomplete: run the node again.`,
				}),
		}),
	);
	try {
		await ctx.helpers.writeContentToFile(target.resolved, copy.content);
	} finally {
		// Closes the file also when the write failed before it read a byte (e.g. a symlink at the path).
		stream.destroy();
	}
}
