import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { folderPrefix } from '../../files/keys';
import { isFolderMarker, MAX_PAGE_SIZE, walkEntries } from '../../listing/listing';
import type { ListEntry } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { folderFields, readFolder } from '../folder';

const show = { resource: ['bucket'], operation: ['listContents'] };

/**
 * Where Include Subfolders was before it moved next to Folder: kept so that a saved workflow that
 * turned it on here still descends (either place on descends). Its name says where it went.
 */
const subfolderOption: INodeProperties = {
	displayName: 'Include Subfolders (Old Place)',
	name: 'recursive',
	type: 'boolean',
	default: false,
	description:
		'Whether to descend into sub-folders, as the Include Subfolders parameter above does (use that one). Kept for workflows saved when it was here; either being on descends.',
};

export const description: INodeProperties[] = [
	...folderFields(
		show,
		'Folder to list, e.g. reports/2026/. Leave empty for the top of the bucket. A missing trailing slash is added.',
	),
	// Next to Folder, as in Folder → Delete and the trigger. It was under Options: see subfolderOption.
	{
		displayName: 'Include Subfolders',
		name: 'includeSubfolders',
		type: 'boolean',
		default: false,
		description:
			'Whether to descend into every sub-folder and return its entries too (one request per folder and page). Off: only what is directly in the folder, its sub-folders as entries.',
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
	optionsCollection(show, [
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
		subfolderOption,
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			default: MAX_PAGE_SIZE,
			description: `How many entries to ask the service for per request (1 to ${MAX_PAGE_SIZE}). Fewer entries per request means more requests.`,
		},
	]),
];

function wanted(include: string, entry: ListEntry): boolean {
	// A folder's marker (a stored object whose key is the folder's own path) is listed as the
	// object it is, so it can be seen and deleted; it is no folder of its own.
	if (include === 'files') return entry.type === 'file';
	if (include === 'folders') return entry.type === 'folder';
	return true;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const prefix = folderPrefix(readFolder(this, itemIndex));
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : Number(this.getNodeParameter('limit', itemIndex, 50));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const include = String(options.include ?? 'all');
	const recursive = this.getNodeParameter('includeSubfolders', itemIndex, false) === true || options.recursive === true;
	const pageSize = Number(options.pageSize ?? MAX_PAGE_SIZE);
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw new NodeOperationError(this.getNode(), `Limit must be a whole number of at least 1 (got ${limit})`, {
			itemIndex,
			description: 'Set Limit to how many entries you want, or turn on Return All.',
		});
	}
	if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
		throw new NodeOperationError(
			this.getNode(),
			`Page Size must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${pageSize})`,
			{
				itemIndex,
				description: `Set Page Size to at most ${MAX_PAGE_SIZE}, or remove the option to use ${MAX_PAGE_SIZE}.`,
			},
		);
	}
	const client = await clientFor(this, itemIndex, options);
	const results: INodeExecutionData[] = [];
	for await (const entry of walkEntries(client, where, prefix, Math.min(pageSize, limit), recursive)) {
		if (!wanted(include, entry)) continue;
		const marker = isFolderMarker(entry) ? { folderMarker: true } : {};
		results.push({
			json: { ...entry, ...marker, bucket: where.bucket, region: where.region },
			pairedItem: { item: itemIndex },
		});
		if (results.length >= limit) break;
	}
	return results;
}
