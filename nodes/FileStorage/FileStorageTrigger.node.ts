import type {
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bucketFields, requestOptionFields } from './actions/common';
import { folderPicker } from './actions/folder';
import { MAX_PARALLEL_REQUESTS } from './actions/parallelItems';
import { searchFolders } from './methods/listSearch';
import { DEFAULT_MAX_FILES_PER_POLL, pollFileStorage } from './trigger/poll';
import { latestOf, perVersion, TRIGGER_VERSIONS, versionsOf } from './versions';

const parallelRequestsDescription = `How many files a poll downloads at once (1 to ${MAX_PARALLEL_REQUESTS}). They are emitted in the order of their changes, and only as many as Max Files Per Poll are downloaded. A 429 or 503 from the service pauses them all.`;

/** The node's own Parallel Requests (version 3 of the node) means items; the trigger has its own. */
const transportOptionFields = requestOptionFields.filter((field) => field.name !== 'parallelRequests');

export class FileStorageTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'File Storage Trigger',
		name: 'fileStorageTrigger',
		icon: { light: 'file:fileStorage.svg', dark: 'file:fileStorage.dark.svg' },
		group: ['trigger'],
		// What each version does is a row of versions.ts. 2: Download File downloads several files at
		// once (Parallel Requests). Version 1 workflows keep downloading one file after another.
		version: versionsOf(TRIGGER_VERSIONS),
		defaultVersion: latestOf(TRIGGER_VERSIONS),
		subtitle:
			'={{ (function (folder) { return "Watch " + $parameter["bucketName"] + (folder ? "/" + folder : ""); })(typeof $parameter["folder"] === "object" && $parameter["folder"] !== null ? $parameter["folder"].value : $parameter["folder"]) }}',
		description: 'Starts the workflow when files are created, updated or deleted in a File Storage API bucket',
		defaults: { name: 'File Storage Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fileStorageApi', required: true }],
		properties: [
			...bucketFields,
			folderPicker('Folder to watch, e.g. invoices/. Leave empty to watch the whole bucket.'),
			{
				displayName: 'Include Subfolders',
				name: 'includeSubfolders',
				type: 'boolean',
				default: false,
				description:
					'Whether to watch the files in all folders below the folder too (one listing request per 1000 entries of each folder)',
			},
			{
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
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: (
					[
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
								'Whether the first poll emits every file that already exists as created. Off: the first poll only records them.',
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
					] as INodeProperties[]
				).sort((a, b) => a.displayName.localeCompare(b.displayName)),
			},
		],
	};

	methods = { listSearch: { searchFolders } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollFileStorage(this);
	}
}
