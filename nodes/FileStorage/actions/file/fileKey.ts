import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { assertValidKey } from '../common';

/** The key of an existing file: picked from the bucket listing, or typed. */
export function fileKeyField(operations: string[]): INodeProperties {
	return {
		displayName: 'File',
		name: 'fileKey',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The file, by its key (its path in the bucket)',
		displayOptions: { show: { resource: ['file'], operation: operations } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a file...',
				typeOptions: { searchListMethod: 'searchFiles', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By Key',
				name: 'key',
				type: 'string',
				placeholder: 'reports/2026/q1.pdf',
				hint: 'The full path of the file in the bucket, e.g. reports/2026/q1.pdf',
			},
		],
	};
}

export function readFileKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const key = String(ctx.getNodeParameter('fileKey', itemIndex, '', { extractValue: true }) ?? '');
	return assertValidKey(ctx, itemIndex, key, 'File');
}

/** Last path segment of a key: the natural file name of a download. */
export function fileNameOf(key: string): string {
	const segments = key.split('/').filter(Boolean);
	return segments[segments.length - 1] ?? key;
}
