import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../item';
import { TOP_OF_BUCKET_NAME } from '../methods/listSearch';
import { NODE_VERSIONS, perVersion } from '../versions';

/**
 * The Folder parameter: typed text or a picker (from the bucket's folders, or by path), as the
 * version's row says. Both are read the same way, so an operation does not care which it got.
 */
export function folderFields(show: Record<string, string[]>, description: string): INodeProperties[] {
	return perVersion(NODE_VERSIONS, (row) => [
		row.folderPicker
			? folderPicker(description, { show })
			: {
					displayName: 'Folder',
					name: 'folder',
					type: 'string',
					default: '',
					placeholder: 'e.g. reports/2026/',
					description,
					displayOptions: { show },
				},
	]);
}

/**
 * The Folder picker: the bucket's folders (navigable by typing a path), or a path typed in. Empty
 * is the top of the bucket, so the empty picker says so instead of asking to select a folder.
 */
export function folderPicker(description: string, displayOptions?: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Folder',
		name: 'folder',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description,
		...(displayOptions ? { displayOptions } : {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: TOP_OF_BUCKET_NAME,
				typeOptions: { searchListMethod: 'searchFolders', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By Path',
				name: 'path',
				type: 'string',
				placeholder: 'e.g. reports/2026/',
				hint: 'Empty: the top of the bucket',
			},
		],
	};
}

export function folderOf(item: Item): string {
	return String(item.param('folder', '', true) ?? '');
}
