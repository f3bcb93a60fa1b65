import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PARTS } from '../../upload/multipartUpload';
import { assertValidKey } from '../common';

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

export function readText(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) {
		throw new NodeOperationError(ctx.getNode(), `The parameter '${label}' is empty`, {
			itemIndex,
			description: `Enter the ${label} that Start returned, e.g. with the expression {{ $json.uploadId }}.`,
		});
	}
	return value;
}

export function readKey(ctx: IExecuteFunctions, itemIndex: number): string {
	return assertValidKey(ctx, itemIndex, String(ctx.getNodeParameter('key', itemIndex, '') ?? ''), 'Key');
}

export function readWholeNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	max: number,
): number {
	const value = Number(ctx.getNodeParameter(name, itemIndex, 0));
	if (!Number.isInteger(value) || value < 1 || value > max) {
		throw new NodeOperationError(ctx.getNode(), `${label} must be a whole number from 1 to ${max} (got ${value})`, {
			itemIndex,
			description: `Set ${label} to a whole number from 1 to ${max}; an expression must give a number.`,
		});
	}
	return value;
}
