import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * The Folder parameter: typed text in version 1, a picker (from the bucket's folders, or by path)
 * from version 2 on. Both are read the same way, so an operation does not care which it got.
 */
export function folderFields(show: Record<string, string[]>, description: string): INodeProperties[] {
	return [
		{
			displayName: 'Folder',
			name: 'folder',
			type: 'string',
			default: '',
			placeholder: 'e.g. reports/2026/',
			description,
			displayOptions: { show: { ...show, '@version': [1] } },
		},
		folderPicker(description, { show: { ...show, '@version': [{ _cnd: { gte: 2 } }] } }),
	];
}

/** The Folder picker: the bucket's folders (navigable by typing a path), or a path typed in. */
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
				placeholder: 'Select a folder...',
				typeOptions: { searchListMethod: 'searchFolders', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By Path',
				name: 'path',
				type: 'string',
				placeholder: 'e.g. reports/2026/',
				hint: 'The path of the folder in the bucket; empty for the top of the bucket',
			},
		],
	};
}

export function readFolder(ctx: IExecuteFunctions, itemIndex: number): string {
	return String(ctx.getNodeParameter('folder', itemIndex, '', { extractValue: true }) ?? '');
}
