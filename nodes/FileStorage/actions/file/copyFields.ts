import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { folderPrefix } from '../../files/keys';
import { optionsCollection } from '../common';
import { folderPicker } from '../folder';
import { fileKeyField } from './fileKey';
import type { Item } from '../../item';
import type { BucketRef } from '../../transport/api';
import { storeSourceOptions } from './storeSource';

/** The folder picker, reading "empty" as "not used" (Destination Path alone) rather than the top of the bucket. */
function destinationFolderField(verb: string, show: Record<string, string[]>): INodeProperties {
	const picker = folderPicker(
		`Folder to put the ${verb} in, under its current name unless Destination Path gives another. The list shows the folders of the bucket above; for another bucket, type the path. Empty: Destination Path alone says where.`,
		{ show },
	);
	return {
		...picker,
		displayName: 'Destination Folder',
		name: 'destinationFolder',
		modes: picker.modes!.map((mode) =>
			mode.name === 'path'
				? { ...mode, hint: 'The path of the folder in the bucket; / for the top of the bucket' }
				: mode,
		),
	};
}

/** A Destination Folder is set (picked, typed or an expression). */
const FOLDER_SET = { destinationFolder: [{ _cnd: { exists: true as const } }] };

/**
 * Destination Path, in the words of what it means: a path in the bucket, or with a Destination
 * Folder the name inside it. One parameter shown in one of two ways (`hide` for the first, so a
 * Destination Folder from an expression shows only the second).
 */
function destinationPathFields(verb: string, show: Record<string, string[]>): INodeProperties[] {
	const field = { displayName: 'Destination Path', name: 'destinationKey', type: 'string', default: '' } as const;
	return [
		{
			...field,
			placeholder: 'e.g. done/report.pdf or done/',
			description: `Path of the ${verb} in the bucket. Ending in "/" puts it in that folder under its current name. Another bucket or region: see Options.`,
			displayOptions: { show, hide: FOLDER_SET },
		},
		{
			...field,
			placeholder: 'e.g. report.pdf',
			hint: 'The name (or path) inside Destination Folder; empty keeps the current name',
			description: `Name (or path) of the ${verb} inside Destination Folder. Empty: its current name. Another bucket or region: see Options.`,
			displayOptions: { show: { ...show, ...FOLDER_SET } },
		},
	];
}

/** The options that name another bucket, as destinationOptions shows them: a 404 of that bucket names them. */
export const DESTINATION_BUCKET_FIELDS = 'Destination Bucket Name and Destination Region';

/**
 * The destination bucket of File → Copy/Move and Folder → Copy/Move: the options', else the source's. Named by
 * the options when either is set (a missing bucket's error then names them, not the source's Bucket Name and Region).
 */
export function destinationBucketOf(options: IDataObject, source: BucketRef): BucketRef {
	const bucket = String(options.destinationBucket ?? '').trim();
	const region = String(options.destinationRegion ?? '').trim();
	const ref = { bucket: bucket || source.bucket, region: region || source.region };
	return bucket || region ? { ...ref, fields: DESTINATION_BUCKET_FIELDS } : ref;
}

/** Copy's and Folder → Copy/Move's other bucket or region, and how the bytes go (`what`: file or files). */
export function destinationOptions(what: 'file' | 'files'): INodeProperties[] {
	return [
		{
			displayName: 'Destination Bucket Name',
			name: 'destinationBucket',
			type: 'string',
			default: '',
			placeholder: 'e.g. archive-bucket',
			description: `Bucket to put the ${what} in, with the same credential. Leave empty for the same bucket.`,
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
	];
}

export function copyFields(operation: 'copy' | 'move'): INodeProperties[] {
	const show = { resource: ['file'], operation: [operation] };
	const verb = operation === 'copy' ? 'copy' : 'moved file';
	return [
		fileKeyField([operation]),
		destinationFolderField(verb, show),
		...destinationPathFields(verb, show),
		{
			displayName:
				'Before success the copy is checked; the output\'s checked lists what was: "size" always, "etag" when the CDN\'s ETag of the copy is the MD5 of the bytes sent, and for a Move without one "md5" (the copy read back and hashed)',
			name: 'checkedNotice',
			type: 'notice',
			default: '',
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
			...destinationOptions('file'),
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

/**
 * The destination as one path (copyFile.ts resolves it against the source): Destination Path
 * alone, as saved workflows have it, or inside the picked Destination Folder. A path ending in
 * '/' is a folder the file goes into under its current name ('/' alone: the top of the bucket).
 */
export function readDestinationPath(item: Item): string {
	const typed = String(item.param('destinationKey', '') ?? '').replace(/^\/+/, '');
	const folder = String(item.param('destinationFolder', '', true) ?? '');
	if (!folder.trim()) {
		if (typed.trim()) return typed;
		throw item.fail(
			"The parameter 'Destination Path' is empty",
			'Pick a Destination Folder (the file keeps its name there; pick / for the top of the bucket), or enter a Destination Path such as done/report.pdf, or a folder ending in "/" such as done/.',
		);
	}
	const prefix = folderPrefix(folder);
	if (!typed.trim()) return prefix || '/';
	return `${prefix}${typed}`;
}
