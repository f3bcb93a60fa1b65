import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getSignedUrl, type BucketRef } from '../transport/api';
import { watchBody } from '../transport/bodyWatch';
import type { FileStorageClient } from '../transport/request';

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
