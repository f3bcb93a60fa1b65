import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../common';
import { folderFields, folderPicker } from '../folder';
import { destinationOptions } from '../file/copyFields';

/** Folder → Copy and Folder → Move: the same fields, shown for `operation`. */
export function transferFields(operation: 'copy' | 'move'): INodeProperties[] {
	const show = { resource: ['folder'], operation: [operation] };
	const verb = operation === 'copy' ? 'copied' : 'moved';
	return [
		...folderFields(show, `Folder whose files are ${verb}, e.g. inbox/2026-11/`),
		{
			...folderPicker(
				`Folder the files are ${verb} to, keeping their paths below the source folder, e.g. archive/2026-11/. / for the top of the bucket.`,
				{ show },
			),
			displayName: 'Destination Folder',
			name: 'destinationFolder',
		},
		{
			displayName: 'Include Subfolders',
			name: 'includeSubfolders',
			type: 'boolean',
			default: true,
			description: `Whether the files of every sub-folder are ${verb} too. Off: only the files directly in the folder.`,
			displayOptions: { show },
		},
		{
			displayName: 'Replace Existing Files',
			name: 'replace',
			type: 'boolean',
			default: false,
			description:
				"Whether a file already at the destination with other bytes is replaced. Off: it is reported (status 'exists') and kept, and its source too. A file already holding the source's bytes is never copied again.",
			displayOptions: { show },
		},
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: `Whether to only list the files that would be ${verb}, and change nothing`,
			displayOptions: { show },
		},
		optionsCollection(show, [
			{
				displayName: 'Add Summary Item',
				name: 'summary',
				type: 'boolean',
				default: false,
				description: 'Whether to add one last item with the number of files per status',
			},
			...destinationOptions('files'),
		]),
	];
}
