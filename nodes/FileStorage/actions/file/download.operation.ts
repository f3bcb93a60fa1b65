import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { keptFiles } from '../../helpers/binaryMode';
import { downloadToBinary, downloadToFile } from '../../helpers/download';
import { baseNameOf, fileTarget } from '../../helpers/filePath';
import type { BucketRef } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, fileNameOf, readFileKey } from './fileKey';

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
			{
				name: 'File Path',
				value: 'filePath',
				description:
					"A file on the n8n host, streamed to disk and never stored in n8n: for files too large for n8n's binary store",
			},
		],
		displayOptions: { show },
	},
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
	{
		displayName: 'File Path',
		name: 'destinationFilePath',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. /home/node/.n8n-files/video.mp4',
		description:
			'Full path of the file to write on the n8n host (in queue mode, on the worker that runs the execution), in a folder n8n allows (N8N_RESTRICT_FILE_ACCESS_TO). An existing file is replaced once the download is complete.',
		displayOptions: { show: { ...show, destination: ['filePath'] } },
	},
	optionsCollection(show, [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: 'Name to give the downloaded file. Leave empty to use the last part of its path in the bucket.',
			// With Destination File Path, the path names the file.
			displayOptions: { show: { '/destination': ['binary'] } },
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	if (this.getNodeParameter('destination', itemIndex, 'binary') === 'filePath') {
		return await toFilePath(this, itemIndex, where, key);
	}
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
	if (this.getNode().typeVersion >= 2) {
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

async function toFilePath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	where: BucketRef,
	key: string,
): Promise<INodeExecutionData[]> {
	const target = await fileTarget(ctx, itemIndex, String(ctx.getNodeParameter('destinationFilePath', itemIndex, '')));
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(ctx, itemIndex, options);
	const { size, contentType, filePath, sizeConfirmed } = await downloadToFile(
		ctx,
		client,
		where,
		key,
		target,
		itemIndex,
	);
	const json: IDataObject = {
		key,
		bucket: where.bucket,
		region: where.region,
		destination: 'filePath',
		filePath,
		fileName: baseNameOf(filePath),
		content_type: contentType ?? null,
		size,
		sizeConfirmed,
	};
	// Version 2 keeps the incoming item's files, as it does with Destination Binary Field; version 3
	// its JSON too, the download's fields added to it.
	const { typeVersion } = ctx.getNode();
	if (typeVersion < 2) return [{ json, pairedItem: { item: itemIndex } }];
	const incoming = ctx.getInputData()[itemIndex];
	const kept = keptFiles(ctx, incoming);
	const incomingJson = typeVersion >= 3 ? incoming.json : {};
	return [{ ...kept, json: { ...incomingJson, ...json, ...kept.json }, pairedItem: { item: itemIndex } }];
}
