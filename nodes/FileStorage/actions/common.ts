import type { INodeProperties } from 'n8n-workflow';

import { parallelRequestsOptions } from './parallelItems';

export const bucketFields: INodeProperties[] = [
	{
		displayName: 'Bucket Name',
		name: 'bucketName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. my-bucket',
		description: 'Name of the bucket. A bucket is identified by its name together with its region.',
	},
	{
		displayName: 'Region',
		name: 'region',
		type: 'string',
		default: 'us-east-1',
		required: true,
		description: 'Region the bucket is located in, e.g. us-east-1',
	},
];

export const requestOptionFields: INodeProperties[] = [
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'How long to wait for the service to answer a request, or for the next bytes of a download, before failing, in seconds. Sending a part or file gets extra time on top (its size at 1 MiB/s).',
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 3,
		description:
			'How often a request that failed for a temporary reason (rate limit, server error, dropped connection) is sent again, with a growing pause in between',
	},
	...parallelRequestsOptions,
];

/** The Options collection of an operation: its own options and the request settings every operation shares. */
export function optionsCollection(show: Record<string, string[]>, ownOptions: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		// Alphabetical, as the editor's own nodes list their options.
		options: [...ownOptions, ...requestOptionFields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}
