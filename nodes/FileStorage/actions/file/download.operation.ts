import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadToBinary } from '../../helpers/download';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, fileNameOf, readFileKey } from './fileKey';

const show = { resource: ['file'], operation: ['download'] };

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
		throw new NodeOperationError(this.getNode(), "The parameter 'Put Output File in Field' is empty", {
			itemIndex,
			description: "Enter the name of the output binary field that receives the file, usually 'data'.",
		});
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileName = String(options.fileName || fileNameOf(key));
	const client = await clientFor(this, itemIndex, options);
	const { binary, size } = await downloadToBinary(this, client, where, key, fileName, itemIndex);
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
