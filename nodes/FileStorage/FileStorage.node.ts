import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bucketFields } from './actions/common';
import { operationDescriptions, route } from './actions/router';
import { searchFiles, searchFolders } from './methods/listSearch';

export class FileStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Storage',
		name: 'fileStorage',
		icon: { light: 'file:fileStorage.svg', dark: 'file:fileStorage.dark.svg' },
		group: ['output'],
		// 2: Folder is a picker; Download keeps the incoming item. Version 1 workflows keep their behaviour.
		// 3: items in parallel over one request pool and one memory budget (Parallel Requests, Upload
		// Memory), 16 MiB parts. Version 1 and 2 workflows keep sending their items one by one.
		version: [1, 2, 3],
		defaultVersion: 3,
		// The canvas shows the names the panel shows ("Get Signed URL: File"), not the raw values.
		subtitle:
			'={{ { listContents: "List Contents", delete: "Delete", download: "Download", getSignedUrl: "Get Signed URL", multipartUpload: "Multipart Upload", purge: "Purge CDN Cache", upload: "Upload", cancel: "Cancel", complete: "Complete", start: "Start", uploadPart: "Upload Part" }[$parameter["operation"]] + ": " + { bucket: "Bucket", file: "File", multipartUpload: "Multipart Upload (Step by Step)" }[$parameter["resource"]] }}',
		description:
			'Store files in File Storage API buckets: list, upload (large files in parts, streamed), download, share links, delete, purge from the CDN cache',
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
					{ name: 'Multipart Upload (Step by Step)', value: 'multipartUpload' },
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
						action: 'List the files and folders of a bucket',
						description:
							'List files and folders of a bucket or one of its folders; returns key, size, type and date per entry',
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
						name: 'Delete',
						value: 'delete',
						action: 'Delete a file',
						description: 'Delete a file from a bucket by its key',
					},
					{
						name: 'Download',
						value: 'download',
						action: 'Download a file',
						description: 'Download a file into a binary field of the output item',
					},
					{
						name: 'Get Signed URL',
						value: 'getSignedUrl',
						action: 'Get a link to a file',
						description:
							'Get a link to read a file: a temporary signed link for private files, the plain location for public ones',
					},
					{
						name: 'Multipart Upload',
						value: 'multipartUpload',
						action: 'Upload a large file in parts',
						description: 'Upload the binary file of the input item in parts, several at once; for large files',
					},
					{
						name: 'Purge CDN Cache',
						value: 'purge',
						action: 'Purge a file from the CDN cache',
						description:
							'Clear a file from the CDN cache so its location serves the current version (after it was replaced or deleted); returns the purged URLs',
					},
					{
						name: 'Upload',
						value: 'upload',
						action: 'Upload a file',
						description: 'Upload the binary file of the input item; returns its key, size and location URL',
					},
				],
				default: 'upload',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['multipartUpload'] } },
				options: [
					{
						name: 'Cancel',
						value: 'cancel',
						action: 'Cancel a multipart upload',
						description: 'Cancel a multipart upload and discard its parts',
					},
					{
						name: 'Complete',
						value: 'complete',
						action: 'Complete a multipart upload',
						description: 'Join the uploaded parts into the stored file',
					},
					{
						name: 'Start',
						value: 'start',
						action: 'Start a multipart upload',
						description: 'Start a multipart upload and get its upload ID',
					},
					{
						name: 'Upload Part',
						value: 'uploadPart',
						action: 'Upload one part of a multipart upload',
						description: 'Upload the binary of the input item as one numbered part',
					},
				],
				default: 'start',
			},
			...bucketFields,
			...operationDescriptions,
		],
	};

	methods = { listSearch: { searchFiles, searchFolders } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
