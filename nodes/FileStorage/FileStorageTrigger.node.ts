import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchFolders } from './methods/listSearch';
import { triggerProperties } from './trigger/description';
import { pollFileStorage } from './trigger/poll';
import { latestOf, TRIGGER_VERSIONS, versionsOf } from './versions';

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
		// A copy per instance: n8n's loader adds Poll Times to this array in place (unshift).
		properties: [...triggerProperties],
	};

	methods = { listSearch: { searchFolders } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollFileStorage(this);
	}
}
