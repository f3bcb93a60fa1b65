import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { folderPrefix } from '../../files/keys';
import { isFolderMarker, MAX_PAGE_SIZE, walkEntries } from '../../listing/listing';
import type { ListEntry } from '../../transport/api';
import { optionsCollection } from '../common';
import { folderFields, folderOf } from '../folder';

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

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const prefix = folderPrefix(folderOf(item));
	const returnAll = item.param('returnAll', false) as boolean;
	const limit = returnAll ? Infinity : Number(item.param('limit', 50));
	const options = item.options();
	const include = String(options.include ?? 'all');
	const recursive = item.param('includeSubfolders', false) === true || options.recursive === true;
	const pageSize = Number(options.pageSize ?? MAX_PAGE_SIZE);
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw item.fail(
			`Limit must be a whole number of at least 1 (got ${limit})`,
			'Set Limit to how many entries you want, or turn on Return All.',
		);
	}
	if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
		throw item.fail(
			`Page Size must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${pageSize})`,
			`Set Page Size to at most ${MAX_PAGE_SIZE}, or remove the option to use ${MAX_PAGE_SIZE}.`,
		);
	}
	const walk = { where, prefix, pageSize: Math.min(pageSize, limit), recursive };
	const results: INodeExecutionData[] = [];
	for await (const entry of walkEntries(await item.client(), walk)) {
		if (!wanted(include, entry)) continue;
		const marker = isFolderMarker(entry) ? { folderMarker: true } : {};
		results.push(...item.output({ ...entry, ...marker, bucket: where.bucket, region: where.region }));
		if (results.length >= limit) break;
	}
	return results;
}
