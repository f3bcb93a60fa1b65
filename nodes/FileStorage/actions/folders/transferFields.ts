import type { INodeProperties } from 'n8n-workflow';

import { TOP_OF_BUCKET_NAME } from '../../methods/listSearch';
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
			// A run refuses an empty Destination Folder (the top must be chosen, never defaulted to):
			// the empty picker asks for one instead of reading as the top. Not `required`: n8n would
			// then refuse the whole workflow, and a saved one with Continue On Fail would stop running.
			...folderPicker(
				`Folder the files are ${verb} to, keeping their paths below the source folder, e.g. archive/2026-11/. / for the top of the bucket.`,
				{ show },
				{
					placeholder: `Pick a folder, or ${TOP_OF_BUCKET_NAME}`,
					hint: 'Type a folder, e.g. archive/, or / for the top of the bucket',
				},
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
		...runNotices(operation),
		optionsCollection(show, [
			{
				displayName: 'Add Summary Item',
				name: 'summary',
				type: 'boolean',
				default: false,
				description: 'Whether to add one last item with the number of files per status',
			},
			...(operation === 'move'
				? [
						{
							displayName: 'Allow Whole Bucket',
							name: 'allowWholeBucket',
							type: 'boolean' as const,
							default: false,
							description:
								'Whether an empty Folder may move every file of the bucket. Off: an empty Folder fails and nothing is moved.',
						},
					]
				: []),
			...destinationOptions('files'),
		]),
	];
}

/** The notice under Dry Run: what a run of the node as set will change, or that it changes nothing. */
function runNotices(operation: 'copy' | 'move'): INodeProperties[] {
	const show = { resource: ['folder'], operation: [operation] };
	const notice = (displayName: string, when: Record<string, boolean[]>): INodeProperties => ({
		displayName,
		name: 'runNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, ...when } },
	});
	const what =
		operation === 'copy'
			? "to Destination Folder. Each copy is checked (the output's checked, as for File → Copy)."
			: "to Destination Folder: each is deleted from Folder only after its copy is checked (the output's checked, as for File → Move).";
	const verb = operation === 'copy' ? 'copies' : 'moves';
	const tail = 'Turn on Dry Run to list them first.';
	return [
		notice(`A run ${verb} every file under Folder, in all its sub-folders too, ${what} ${tail}`, {
			dryRun: [false],
			includeSubfolders: [true],
		}),
		notice(`A run ${verb} every file directly in Folder (not its sub-folders) ${what} ${tail}`, {
			dryRun: [false],
			includeSubfolders: [false],
		}),
		notice(`Dry Run: a run lists the files a ${operation} would change, and changes nothing.`, { dryRun: [true] }),
	];
}
