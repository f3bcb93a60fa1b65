import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { MAX_PARTS } from '../../upload/parts';

export function showFor(operation: string) {
	return { show: { resource: ['multipartUpload'], operation: [operation] } };
}

export function uploadIdField(operation: string): INodeProperties {
	return {
		displayName: 'Upload ID',
		name: 'uploadId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.uploadId }}',
		description: 'The ID that Start returned for this multipart upload',
		displayOptions: showFor(operation),
	};
}

export function keyField(operation: string): INodeProperties {
	return {
		displayName: 'Key',
		name: 'key',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. videos/2026/launch.mp4',
		description: 'Path of the file in the bucket; the same for every step of one upload',
		displayOptions: showFor(operation),
	};
}

export function totalPartsField(operation: string): INodeProperties {
	return {
		displayName: 'Total Parts',
		name: 'totalParts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PARTS },
		default: 1,
		required: true,
		description: `How many parts the file is split into (1 to ${MAX_PARTS})`,
		displayOptions: showFor(operation),
	};
}

/**
 * Upload IDs that would name another call as a path segment (spec §3.4, §3.10): in the SDK path
 * family a part goes to `/multipart/{uploadId}`, so `start` is the start-multipart call's path, and
 * `.`/`..` are resolved away by URL clients and proxies. The service never hands out such an ID.
 */
const NOT_AN_UPLOAD_ID = ['.', '..', 'start'];

/** Whether an Upload ID is one of those, whatever its case (Express routes case-insensitively). */
export function namesAnotherCall(id: string): boolean {
	return NOT_AN_UPLOAD_ID.includes(id.toLowerCase());
}

export function readUploadId(item: Item): string {
	const hint = 'Enter the Upload ID that Start returned, e.g. with the expression {{ $json.uploadId }}.';
	const id = item.requiredText('uploadId', 'Upload ID', hint);
	if (!namesAnotherCall(id)) return id;
	throw item.fail(`The Upload ID "${id}" is refused: in the URL's path it would name another call`, hint);
}

export function readKey(item: Item): string {
	return item.validKey(String(item.param('key', '') ?? ''), 'Key');
}

export function readWholeNumber(item: Item, name: string, label: string, max: number): number {
	const value = Number(item.param(name, 0));
	if (!Number.isInteger(value) || value < 1 || value > max) {
		throw item.fail(
			`${label} must be a whole number from 1 to ${max} (got ${value})`,
			`Set ${label} to a whole number from 1 to ${max}; an expression must give a number.`,
		);
	}
	return value;
}
