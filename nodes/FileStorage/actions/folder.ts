import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../item';
import { TOP_OF_BUCKET_NAME } from '../methods/listSearch';
import { NODE_VERSIONS, perVersion } from '../versions';

/**
 * The Folder parameter: typed text or a picker (from the bucket's folders, or by path), as the
 * version's row says. Both are read the same way, so an operation does not care which it got.
 */
export function folderFields(
	show: Record<string, string[]>,
	description: string,
	empty?: EmptyFolderWords,
): INodeProperties[] {
	return perVersion(NODE_VERSIONS, (row) => [
		row.folderPicker
			? folderPicker(description, { show }, empty)
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

/** What an empty picker shows (From List) and says under a typed path (By Path). */
export interface EmptyFolderWords {
	placeholder: string;
	hint: string;
}

/** Empty is the top of the bucket for most folder parameters. */
const EMPTY_IS_TOP: EmptyFolderWords = { placeholder: TOP_OF_BUCKET_NAME, hint: 'Empty: the top of the bucket' };

/**
 * The Folder picker: the bucket's folders (navigable by typing a path), or a path typed in. Empty
 * is the top of the bucket, so the empty picker says so instead of asking to select a folder;
 * where a run refuses an empty one, `empty` says what to pick instead.
 */
export function folderPicker(
	description: string,
	displayOptions?: INodeProperties['displayOptions'],
	empty: EmptyFolderWords = EMPTY_IS_TOP,
): INodeProperties {
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
				placeholder: empty.placeholder,
				typeOptions: { searchListMethod: 'searchFolders', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By Path',
				name: 'path',
				type: 'string',
				placeholder: 'e.g. reports/2026/',
				hint: empty.hint,
			},
		],
	};
}

export function folderOf(item: Item): string {
	return String(item.param('folder', '', true) ?? '');
}
