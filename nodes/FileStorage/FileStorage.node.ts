import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bucketFields } from './actions/common';
import { operationDescriptions, route } from './actions/router';
import { searchFiles, searchFolders } from './methods/listSearch';
import { latestOf, NODE_VERSIONS, versionsOf } from './versions';

export class FileStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Storage',
		name: 'fileStorage',
		icon: { light: 'file:fileStorage.svg', dark: 'file:fileStorage.dark.svg' },
		group: ['output'],
		// What each version does is a row of versions.ts. 2: Folder is a picker; Download keeps the
		// incoming item. 3: items in parallel over one request pool and one memory budget (Parallel
		// Requests, Upload Memory), its own defaults. Saved workflows keep their version's behaviour.
		version: versionsOf(NODE_VERSIONS),
		defaultVersion: latestOf(NODE_VERSIONS),
		// The canvas shows the names the panel shows ("Get Signed URL: File"), not the raw values.
		subtitle:
			'={{ { listContents: "List Contents", copy: "Copy", delete: "Delete", download: "Download", getInfo: "Get Info", getSignedUrl: "Get Signed URL", signedOperationUrl: "Get Browser Upload URL", transform: "Transform", move: "Move", multipartUpload: "Multipart Upload", purge: "Purge CDN Cache", upload: "Upload", cancel: "Cancel", complete: "Complete", start: "Start", uploadPart: "Upload Part" }[$parameter["operation"]] + ": " + { bucket: "Bucket", file: "File", folder: "Folder", multipartUpload: "Multipart Upload (Step by Step)" }[$parameter["resource"]] }}',
		description:
			'Store files in File Storage API buckets: list, upload (from a URL, a binary field or a text; large files in parts, streamed), download, get info, copy, move, share links, sign browser uploads, transform images and documents on the CDN, delete files and folders, purge from the CDN cache',
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
					{ name: 'Folder', value: 'folder' },
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
						name: 'Copy',
						value: 'copy',
						action: 'Copy a file',
						description:
							"Copy a file to another path, folder, bucket or region of the same account, streamed and checked; returns the copy's key, size and location",
					},
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
						name: 'Get Browser Upload URL',
						value: 'signedOperationUrl',
						action: 'Get a signed URL for a browser upload',
						description:
							'Sign one request of the browser SDK (upload, multipart steps, delete) as a URL the browser sends without the secret; returns method, URL and timestamp',
					},
					{
						name: 'Get Info',
						value: 'getInfo',
						action: 'Get info about a file',
						description:
							'Get the size, content type, last modified date, ETag, visibility and location of a file by its path, without downloading it',
					},
					{
						name: 'Get Signed URL',
						value: 'getSignedUrl',
						action: 'Get signed URL of a file',
						description:
							'Get a link to read a file: a temporary signed link for private files, the plain location for public ones',
					},
					{
						name: 'Move',
						value: 'move',
						action: 'Move or rename a file',
						description:
							'Move or rename a file: a checked copy to the new path (or bucket), then the original is deleted; a failed copy never deletes it',
					},
					{
						name: 'Multipart Upload',
						value: 'multipartUpload',
						action: 'Multipart upload of a large file',
						description: 'Upload a large file in parts, several at once, from a URL or a binary field',
					},
					{
						name: 'Purge CDN Cache',
						value: 'purge',
						action: 'Purge a file from the CDN cache',
						description:
							'Clear a file from the CDN cache so its location serves the current version (after it was replaced or deleted); returns the purged URLs',
					},
					{
						name: 'Transform',
						value: 'transform',
						action: 'Transform a file',
						description:
							'Get the CDN URL of a public file resized, cropped, converted or as a thumbnail (or download it); returns the URL',
					},
					{
						name: 'Upload',
						value: 'upload',
						action: 'Upload a file',
						description: 'Upload a file from a URL, a binary field or a text; returns its key, size and location URL',
					},
				],
				default: 'upload',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				// An equality condition rather than a listed value: the node creator makes actions only of
				// the operations a resource lists plainly, so these four advanced steps stay out of its
				// list (13 actions, not 17) and are one Resource away in the panel; saved workflows are
				// unchanged, as the panel shows the field the same way.
				displayOptions: { show: { resource: [{ _cnd: { eq: 'multipartUpload' } }] } },
				// In the order the steps are taken (n8n's lint asks for alphabetical order from five options on).
				options: [
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
						description: 'Upload one numbered part from a binary field of the input item',
					},
					{
						name: 'Complete',
						value: 'complete',
						action: 'Complete a multipart upload',
						description: 'Join the uploaded parts into the stored file',
					},
					{
						name: 'Cancel',
						value: 'cancel',
						action: 'Cancel a multipart upload',
						description: 'Cancel a multipart upload and discard its parts',
					},
				],
				default: 'start',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['folder'] } },
				options: [
					{
						name: 'Copy',
						value: 'copy',
						action: 'Copy a folder',
						description:
							'Copy every file under a folder to another folder, each checked; a file already there with the same bytes is skipped; Dry Run lists them instead; returns one item per file',
					},
					{
						name: 'Delete',
						value: 'delete',
						action: 'Delete a folder',
						description:
							'Delete every file under a folder (with its sub-folders unless turned off); Dry Run lists them instead; returns one item per file',
					},
					{
						name: 'Move',
						value: 'move',
						action: 'Move a folder',
						description:
							'Move every file under a folder to another folder: each a checked copy, its source deleted only then; run again after a stop to finish; returns one item per file',
					},
				],
				default: 'delete',
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
