import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as listContents from './actions/bucket/listContents.operation';
import { bucketFields } from './actions/common';
import * as multipartUpload from './actions/file/multipartUpload.operation';
import * as upload from './actions/file/upload.operation';
import { route } from './actions/router';

export class FileStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Storage',
		name: 'fileStorage',
		icon: { light: 'file:fileStorage.svg', dark: 'file:fileStorage.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'List buckets and upload files, including very large files in parts, with the File Storage API',
		defaults: { name: 'File Storage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fileStorageApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Bucket', value: 'bucket' },
					{ name: 'File', value: 'file' },
				],
				default: 'file',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['bucket'] } },
				options: [
					{
						name: 'List Contents',
						value: 'listContents',
						action: 'List the contents of a bucket folder',
						description: 'List the files and folders in a bucket, optionally under a folder',
					},
				],
				default: 'listContents',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['file'] } },
				options: [
					{
						name: 'Multipart Upload',
						value: 'multipartUpload',
						action: 'Upload a large file in parts',
						description: 'Upload a file of any size in parts, streamed with bounded memory',
					},
					{
						name: 'Upload',
						value: 'upload',
						action: 'Upload a file',
						description: 'Upload a file in one request (files above a threshold go in parts automatically)',
					},
				],
				default: 'upload',
			},
			...bucketFields,
			...listContents.description,
			...upload.description,
			...multipartUpload.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
