import type { INodeProperties } from 'n8n-workflow';

import { bucketFields, requestOptionFields } from '../actions/common';
import { folderPicker } from '../actions/folder';
import { MAX_PARALLEL_REQUESTS } from '../actions/parallelItems';
import { perVersion, TRIGGER_VERSIONS } from '../versions';
import { DEFAULT_MAX_FILES_PER_POLL } from './settings';

const parallelRequestsDescription = `How many files a poll downloads at once (1 to ${MAX_PARALLEL_REQUESTS}). They are emitted in the order of their changes, and only as many as Max Files Per Poll are downloaded. A 429 or 503 from the service pauses them all.`;

/** The node's own Parallel Requests (version 3 of the node) means items; the trigger has its own. */
const transportOptionFields = requestOptionFields.filter((field) => field.name !== 'parallelRequests');

const includeSubfolders: INodeProperties = {
	displayName: 'Include Subfolders',
	name: 'includeSubfolders',
	type: 'boolean',
	default: false,
	description:
		'Whether to watch the files in all folders below the folder too (one listing request per 1000 entries of each folder)',
};

const watchFor: INodeProperties = {
	displayName: 'Watch For',
	name: 'watchFor',
	type: 'multiOptions',
	required: true,
	options: [
		{ name: 'File Created', value: 'created', description: 'A key that was not there before' },
		{
			name: 'File Deleted',
			value: 'deleted',
			description: 'A key that went away (its size, type and date are no longer known)',
		},
		{
			name: 'File Updated',
			value: 'updated',
			description: 'A key whose size, date, content type or visibility changed',
		},
	],
	default: ['created'],
	description: 'Which changes start the workflow; each change gives one item',
};

const triggerOptionFields: INodeProperties[] = [
	{
		displayName: 'Download File',
		name: 'downloadFile',
		type: 'boolean',
		default: false,
		description:
			'Whether to attach each created or updated file as binary data (streamed into n8n storage). A file whose download fails is tried again by the next polls; after 3 failed polls it comes without its file, with the reason in "error".',
	},
	{
		displayName: 'Emit Existing Files',
		name: 'emitExistingFiles',
		type: 'boolean',
		default: false,
		description:
			'Whether the first poll after activation, or after Folder, filter or Include Subfolders changed, emits every file that already exists as created. Off: such a poll only records them. A lost saved state only records them (they were emitted before).',
	},
	{
		displayName: 'File Name Filter',
		name: 'fileNameFilter',
		type: 'string',
		default: '',
		placeholder: 'e.g. *.pdf',
		description:
			'Only files matching this pattern: * any characters but /, ** any folders, ?, [abc], {pdf,csv}. Without a / it is matched against the file name, with a / against the whole key (e.g. invoices/*.csv).',
	},
	{
		displayName: 'Max Files Per Poll',
		name: 'maxFilesPerPoll',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_FILES_PER_POLL,
		description: 'Most changes to emit per poll, oldest first; the rest come with the next polls',
	},
	// Its own default per version: saved version 1 triggers download one file at a time.
	...perVersion(TRIGGER_VERSIONS, ({ downloadParallelRequests }) => [
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: downloadParallelRequests,
			description: parallelRequestsDescription,
			displayOptions: { show: { downloadFile: [true] } },
		},
	]),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'Name of the binary field that receives the file',
		displayOptions: { show: { downloadFile: [true] } },
	},
	...transportOptionFields,
];

/** The trigger's parameters, in the order n8n shows them; options alphabetically, as n8n's lint wants. */
export const triggerProperties: INodeProperties[] = [
	...bucketFields,
	folderPicker('Folder to watch, e.g. invoices/. Leave empty to watch the whole bucket.'),
	includeSubfolders,
	watchFor,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...triggerOptionFields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];
