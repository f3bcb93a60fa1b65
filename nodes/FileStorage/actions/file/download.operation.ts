import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadToBinary } from '../../download/download';
import { versionOf } from '../../versions';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, fileNameOf, readFileKey } from './fileKey';
import { refuseFilePath, removedFilePathNotice, removedFilePathOption } from './removedFilePath';

const show = { resource: ['file'], operation: ['download'] };

export const description: INodeProperties[] = [
	fileKeyField(['download']),
	{
		displayName: 'Destination',
		name: 'destination',
		type: 'options',
		default: 'binary',
		description: 'Where the downloaded file goes',
		options: [
			{
				name: 'Binary Field',
				value: 'binary',
				description: "A binary field of the output item, in n8n's binary store",
			},
			removedFilePathOption('destination'),
		],
		displayOptions: { show },
	},
	removedFilePathNotice('destination', show),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
		description: 'Name of the binary field of the output item that receives the file, usually data',
		displayOptions: { show: { ...show, destination: ['binary'] } },
	},
	optionsCollection(show, [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: 'Name to give the downloaded file. Leave empty to use the last part of its path in the bucket.',
			displayOptions: { show: { '/destination': ['binary'] } },
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	refuseFilePath(this, itemIndex, 'destination');
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
	const { binary, size, sizeConfirmed } = await downloadToBinary(this, client, where, key, fileName, itemIndex);
	if (versionOf(this).downloadKeepsItem) {
		// As n8n's own download operations: the incoming item goes on, with the file added. Its
		// JSON gets one field only when nothing stated the file's size: it may be incomplete.
		const incoming = this.getInputData()[itemIndex];
		return [
			{
				json: sizeConfirmed ? incoming.json : { ...incoming.json, sizeConfirmed },
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
			sizeConfirmed,
		},
		binary: { [field]: binary },
		pairedItem: { item: itemIndex },
	};
	return [item];
}
