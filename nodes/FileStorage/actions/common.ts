import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { keyProblem } from '../files/keys';
import type { BucketRef } from '../transport/api';
import { DEFAULT_SETTINGS, FileStorageClient, type TransportSettings } from '../transport/request';
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

function requiredText(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string, hint: string): string {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) {
		throw new NodeOperationError(ctx.getNode(), `The parameter '${label}' is empty`, { itemIndex, description: hint });
	}
	return value;
}

export function getBucketRef(ctx: IExecuteFunctions, itemIndex: number): BucketRef {
	return {
		bucket: requiredText(ctx, itemIndex, 'bucketName', 'Bucket Name', 'Enter the name of the bucket, e.g. my-bucket.'),
		region: requiredText(ctx, itemIndex, 'region', 'Region', 'Enter the region of the bucket, e.g. us-east-1.'),
	};
}

export function transportSettings(options: IDataObject): TransportSettings {
	const timeoutSeconds = Number(options.timeout ?? DEFAULT_SETTINGS.timeoutMs / 1000);
	const maxRetries = Number(options.maxRetries ?? DEFAULT_SETTINGS.maxRetries);
	return {
		timeoutMs: Math.max(1, timeoutSeconds) * 1000,
		maxRetries: Math.min(Math.max(0, Math.floor(maxRetries)), 10),
	};
}

export async function clientFor(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject = {}) {
	return await FileStorageClient.create(ctx, itemIndex, transportSettings(options));
}

export function assertValidKey(ctx: IExecuteFunctions, itemIndex: number, key: string, field = 'Key'): string {
	const problem = keyProblem(key);
	if (problem) {
		const shown = key.length > 80 ? `${key.slice(0, 60)}…${key.slice(-10)}` : key;
		throw new NodeOperationError(ctx.getNode(), `The key "${shown}" is not valid: ${problem} (parameter '${field}')`, {
			itemIndex,
			description: 'Keys are 1–1024 bytes of UTF-8 without a leading "/", a ".." segment or a NUL character.',
		});
	}
	return key;
}
