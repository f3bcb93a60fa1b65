import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { folderPrefix } from '../../helpers/keys';
import { listContents, type ListEntry } from '../../transport/api';
import { clientFor, getBucketRef, requestOptionFields } from '../common';

const show = { resource: ['bucket'], operation: ['listContents'] };

/** The service refuses pages above 1000 entries. */
const MAX_PAGE_SIZE = 1000;

export const description: INodeProperties[] = [
	{
		displayName: 'Folder',
		name: 'folder',
		type: 'string',
		default: '',
		placeholder: 'reports/2026/',
		description: 'Folder to list, e.g. reports/2026/. Leave empty for the top of the bucket. A missing trailing slash is added.',
		displayOptions: { show },
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...show, returnAll: [false] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Include',
				name: 'include',
				type: 'options',
				default: 'all',
				description: 'Which kinds of entries to return',
				options: [
					{ name: 'Files and Folders', value: 'all' },
					{ name: 'Files Only', value: 'files' },
					{ name: 'Folders Only', value: 'folders' },
				],
			},
			...requestOptionFields,
		],
	},
];

function wanted(include: string, entry: ListEntry): boolean {
	if (include === 'files') return entry.type === 'file';
	if (include === 'folders') return entry.type === 'folder';
	return true;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const prefix = folderPrefix(String(this.getNodeParameter('folder', itemIndex, '')));
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : Number(this.getNodeParameter('limit', itemIndex, 50));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const include = String(options.include ?? 'all');
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw new NodeOperationError(this.getNode(), `Limit must be a whole number of at least 1 (got ${limit})`, {
			itemIndex,
			description: 'Set Limit to how many entries you want, or turn on Return All.',
		});
	}
	const client = await clientFor(this, itemIndex, options);
	const pageSize = Math.min(MAX_PAGE_SIZE, returnAll || include !== 'all' ? MAX_PAGE_SIZE : limit);
	const results: INodeExecutionData[] = [];
	for (let page = 1; results.length < limit; page++) {
		const { contents, pagination } = await listContents(client, where, prefix, page, pageSize);
		const children = contents.children ?? [];
		for (const entry of children) {
			if (results.length >= limit) break;
			if (wanted(include, entry)) {
				results.push({ json: { ...entry, bucket: where.bucket, region: where.region }, pairedItem: { item: itemIndex } });
			}
		}
		if (children.length === 0 || page >= (pagination?.total_pages ?? page)) break;
	}
	return results;
}
