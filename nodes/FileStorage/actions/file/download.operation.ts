import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getSignedUrl } from '../../transport/api';
import { watchBody } from '../../transport/bodyWatch';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, fileNameOf, readFileKey } from './fileKey';

const show = { resource: ['file'], operation: ['download'] };
/** Only needs to outlive the start of the transfer that follows at once. */
const LINK_LIFETIME_SECONDS = 900;

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

export const description: INodeProperties[] = [
	fileKeyField(['download']),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
		description: 'Name of the binary field of the output item that receives the file, usually data',
		displayOptions: { show },
	},
	optionsCollection(show, [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: 'Name to give the downloaded file. Leave empty to use the last part of its key.',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	const field = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	if (!field) {
		throw new NodeOperationError(this.getNode(), "The parameter 'Put Output File in Field' is empty", { itemIndex });
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileName = String(options.fileName || fileNameOf(key));
	const client = await clientFor(this, itemIndex, options);
	// A signed link works for private and public files alike, and keeps the transfer off
	// the API host (the CDN serves the bytes).
	const link = await getSignedUrl(client, where, key, LINK_LIFETIME_SECONDS);
	const response = await client.fetchLink(link.url, `Download of '${key}'`);
	const contentType = String(response.headers?.['content-type'] ?? '').split(';')[0] || undefined;
	const announced = announcedLength(response.headers);
	const progress = watchBody(response.body, client.idleTimeoutMs);
	const fault = (problem: string, description: string) =>
		new NodeOperationError(this.getNode(), `Download of '${key}' ${problem}`, {
			itemIndex,
			description: `Nothing was stored. ${description}`,
		});
	const ofTotal = () => `${progress.received} of ${announced ?? 'an unknown number of'} bytes`;
	let binary: IBinaryData;
	try {
		// The body is a stream: n8n's binary store writes it to disk as it arrives.
		binary = await this.helpers.prepareBinaryData(response.body as BinaryBody, fileName, contentType);
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
		? (await this.helpers.getBinaryMetadata(binary.id)).fileSize
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
	if (this.getNode().typeVersion >= 2) {
		// As n8n's own download operations: the incoming item goes on, with the file added.
		const incoming = this.getInputData()[itemIndex];
		return [
			{
				json: incoming.json,
				binary: { ...incoming.binary, [field]: binary },
				pairedItem: { item: itemIndex },
			},
		];
	}
	const item: INodeExecutionData = {
		json: {
			key,
			bucket: where.bucket,
			region: where.region,
			fileName,
			content_type: binary.mimeType,
			size,
		},
		binary: { [field]: binary },
		pairedItem: { item: itemIndex },
	};
	return [item];
}
