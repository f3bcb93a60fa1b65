import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { downloadToBinary } from '../../download/download';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf, fileNameOf } from './fileKey';
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

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	refuseFilePath(item, 'destination');
	const field = String(item.param('binaryPropertyName', 'data')).trim();
	if (!field) {
		throw item.fail(
			"The parameter 'Put Output File in Field' is empty",
			"Enter the name of the output binary field that receives the file, usually 'data'.",
		);
	}
	const fileName = String(item.options().fileName || fileNameOf(key));
	const client = await item.client();
	const { ctx, index: itemIndex } = item;
	const { binary, size, sizeConfirmed } = await downloadToBinary({ ctx, client, where, key, fileName, itemIndex });
	if (item.version.downloadKeepsItem) {
		// As n8n's own download operations: the incoming item goes on, with the file added. Its
		// JSON gets one field only when nothing stated the file's size: it may be incomplete.
		const incoming = item.input();
		const json = sizeConfirmed ? incoming.json : { ...incoming.json, sizeConfirmed };
		return item.output(json, { ...incoming.binary, [field]: binary });
	}
	const json = { key, bucket: where.bucket, region: where.region, fileName, content_type: binary.mimeType };
	return item.output({ ...json, size, sizeConfirmed }, { [field]: binary });
}
