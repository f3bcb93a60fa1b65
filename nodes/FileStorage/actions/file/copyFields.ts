import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../common';
import { fileKeyField } from './fileKey';
import { storeSourceOptions } from './storeSource';

/** Source, destination and options of Copy and Move (the same fields, shown for `operation`). */
export function copyFields(operation: 'copy' | 'move'): INodeProperties[] {
	const show = { resource: ['file'], operation: [operation] };
	const verb = operation === 'copy' ? 'copy' : 'moved file';
	return [
		fileKeyField([operation]),
		{
			displayName: 'Destination Path',
			name: 'destinationKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. done/report.pdf or done/',
			description: `Path of the ${verb} in the bucket. Ending in "/" puts it in that folder under its current name. Another bucket or region: see Options.`,
			displayOptions: { show },
		},
		optionsCollection(show, [
			{
				displayName: 'Content Type',
				name: 'contentType',
				type: 'string',
				default: '',
				placeholder: 'e.g. application/pdf',
				description: "MIME type of the destination. Leave empty to keep the source's.",
			},
			{
				displayName: 'Destination Bucket Name',
				name: 'destinationBucket',
				type: 'string',
				default: '',
				placeholder: 'e.g. archive-bucket',
				description: 'Bucket to put the file in, with the same credential. Leave empty for the same bucket.',
			},
			{
				displayName: 'Destination Region',
				name: 'destinationRegion',
				type: 'string',
				default: '',
				placeholder: 'e.g. eu-west-1',
				description: "Region of the destination bucket. Leave empty for the source's region.",
			},
			...storeSourceOptions(
				'Files larger than this many MiB are copied in parts, a few MiB at a time; smaller ones in one request that holds the file in memory',
			),
			{
				displayName: 'Replace Existing File',
				name: 'replace',
				type: 'boolean',
				default: false,
				description:
					'Whether a file already at the destination is replaced. Off: the node fails and nothing is copied (or moved).',
			},
			{
				displayName: 'Visibility',
				name: 'visibility',
				type: 'options',
				default: 'keep',
				description: 'Who can read the destination file',
				options: [
					{ name: 'Same as Source', value: 'keep' },
					{ name: 'Private', value: 'private', description: 'Only through signed links or with the API keys' },
					{ name: 'Public', value: 'public', description: 'Anyone who knows its location URL' },
				],
			},
		]),
	];
}

/** The destination path as typed, without leading slashes (copyFile.ts resolves it against the source). */
export function readDestinationPath(ctx: IExecuteFunctions, itemIndex: number): string {
	return String(ctx.getNodeParameter('destinationKey', itemIndex, '') ?? '').replace(/^\/+/, '');
}
