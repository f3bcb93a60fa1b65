import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertNotEmpty, resolveBinarySource, type BinarySource } from '../../helpers/binaryInput';
import { joinKey } from '../../helpers/keys';
import type { BucketRef, Visibility } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { assertValidKey, clientFor, getBucketRef } from '../common';
import { folderFields, readFolder } from '../folder';

/** Fields shared by Upload and Multipart Upload, shown for the given operation. */
export function uploadFields(operation: string): INodeProperties[] {
	const show = { resource: ['file'], operation: [operation] };
	return [
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field containing the file to be uploaded',
			description: 'Name of the binary field of the input item that holds the file, usually data',
			displayOptions: { show },
		},
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '',
			placeholder: 'e.g. reports/2026/q1.pdf',
			description:
				"Path of the file in the bucket. Leave empty to use the input file's name. Any characters are kept as typed (spaces, +, &, unicode).",
			displayOptions: { show },
		},
		...folderFields(show, 'Folder to put the file in; it is prepended to the key. Leave empty for none.'),
		{
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			default: 'private',
			description: 'Who can read the stored file',
			options: [
				{ name: 'Private', value: 'private', description: 'Only through signed links or with the API keys' },
				{ name: 'Public', value: 'public', description: 'Anyone who knows its location URL' },
			],
			displayOptions: { show },
		},
		{
			displayName:
				'Anyone with the file URL can read a public file. Use Private unless the file is meant to be published.',
			name: 'publicNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, visibility: ['public'] } },
		},
	];
}

export interface UploadInputs {
	key: string;
	visibility: Visibility;
	contentType: string;
}

function readUploadInputs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	source: BinarySource,
	options: IDataObject,
): UploadInputs {
	const typedKey = String(ctx.getNodeParameter('key', itemIndex, '') ?? '');
	const folder = readFolder(ctx, itemIndex);
	const name = typedKey || source.fileName || '';
	if (!name) {
		throw new NodeOperationError(
			ctx.getNode(),
			"The parameter 'Key' is empty and the input file has no name to use instead",
			{
				itemIndex,
				description: 'Enter a Key such as reports/q1.pdf.',
			},
		);
	}
	const key = assertValidKey(
		ctx,
		itemIndex,
		joinKey(folder, name),
		typedKey ? 'Key' : 'Key (taken from the file name)',
	);
	const visibility = ctx.getNodeParameter('visibility', itemIndex, 'private') as Visibility;
	const contentType = String(options.contentType || source.mimeType || 'application/octet-stream');
	return { key, visibility, contentType };
}

export const contentTypeOption: INodeProperties = {
	displayName: 'Content Type',
	name: 'contentType',
	type: 'string',
	default: '',
	placeholder: 'e.g. application/pdf',
	description: "MIME type to store the file with. Leave empty to use the input file's type.",
};

export interface PreparedUpload {
	where: BucketRef;
	options: IDataObject;
	source: BinarySource;
	inputs: UploadInputs;
	client: FileStorageClient;
}

/** Everything Upload and Multipart Upload check before the first request. */
export async function prepareUpload(ctx: IExecuteFunctions, itemIndex: number): Promise<PreparedUpload> {
	const where = getBucketRef(ctx, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const field = String(ctx.getNodeParameter('binaryPropertyName', itemIndex));
	const source = await resolveBinarySource(ctx, itemIndex, field);
	assertNotEmpty(ctx, itemIndex, source);
	const inputs = readUploadInputs(ctx, itemIndex, source, options);
	const client = await clientFor(ctx, itemIndex, options);
	return { where, options, source, inputs, client };
}
