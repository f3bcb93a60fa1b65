import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getSignedUrl } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, fileNameOf, readFileKey } from './fileKey';

const show = { resource: ['file'], operation: ['download'] };
/** Only needs to outlive the start of the transfer that follows at once. */
const LINK_LIFETIME_SECONDS = 900;

type BinaryBody = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

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
	// The body is a stream: n8n's binary store writes it to disk as it arrives.
	const binary = await this.helpers.prepareBinaryData(response.body as BinaryBody, fileName, contentType);
	const size = binary.id
		? (await this.helpers.getBinaryMetadata(binary.id)).fileSize
		: Buffer.byteLength(binary.data, 'base64');
	const announced = Number(response.headers?.['content-length']);
	if (Number.isFinite(announced) && announced !== size) {
		throw new NodeOperationError(
			this.getNode(),
			`Download of '${key}' was cut short: received ${size} of ${announced} bytes`,
			{
				itemIndex,
				description: 'The connection ended early. Run the node again.',
			},
		);
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
