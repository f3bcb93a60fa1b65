import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { MAX_PARTS } from '../../helpers/multipartUpload';
import { completeMultipartUpload, type UploadedPart } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { keyField, readKey, readText, showFor, uploadIdField } from './fields';

export const description: INodeProperties[] = [
	uploadIdField('complete'),
	keyField('complete'),
	{
		displayName: 'Parts From',
		name: 'partsSource',
		type: 'options',
		default: 'items',
		description: 'Where the list of uploaded parts comes from',
		options: [
			{
				name: 'All Input Items',
				value: 'items',
				description:
					'Each input item is one part with partNumber and ETag (as Upload Part outputs them); runs once for all items',
			},
			{ name: 'JSON List', value: 'json', description: 'A JSON array of parts given in the Parts field' },
		],
		displayOptions: showFor('complete'),
	},
	{
		displayName: 'Parts',
		name: 'partsJson',
		type: 'json',
		default: '[]',
		placeholder: '[{ "partNumber": 1, "ETag": "\\"9b2c…\\"" }]',
		description: 'JSON array of the uploaded parts: objects with partNumber (or PartNumber) and ETag',
		displayOptions: { show: { resource: ['multipartUpload'], operation: ['complete'], partsSource: ['json'] } },
	},
	optionsCollection(showFor('complete').show),
];

function toPart(raw: unknown): UploadedPart | string {
	if (!raw || typeof raw !== 'object') return 'is not an object';
	const entry = raw as IDataObject;
	const partNumber = Number(entry.partNumber ?? entry.PartNumber);
	const etag = entry.ETag ?? entry.etag;
	if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
		return `has no valid partNumber (a whole number from 1 to ${MAX_PARTS})`;
	}
	if (typeof etag !== 'string' || etag === '') return 'has no ETag';
	return { partNumber, ETag: etag };
}

/** Parts in ascending order, one per number: a part uploaded twice counts with its last ETag. */
function collectParts(ctx: IExecuteFunctions, itemIndex: number, raws: unknown[], where: string): UploadedPart[] {
	const byNumber = new Map<number, UploadedPart>();
	raws.forEach((raw, index) => {
		const part = toPart(raw);
		if (typeof part === 'string') {
			throw new NodeOperationError(ctx.getNode(), `Part ${index + 1} of ${where} ${part}`, {
				itemIndex,
				description: 'Each part needs partNumber and ETag exactly as Upload Part returned them.',
			});
		}
		byNumber.set(part.partNumber, part);
	});
	if (byNumber.size === 0) {
		throw new NodeOperationError(ctx.getNode(), `No parts found in ${where}`, {
			itemIndex,
			description: 'Complete needs at least one uploaded part.',
		});
	}
	return [...byNumber.values()].sort((a, b) => a.partNumber - b.partNumber);
}

function partsFromJson(ctx: IExecuteFunctions, itemIndex: number): UploadedPart[] {
	const raw = ctx.getNodeParameter('partsJson', itemIndex, '[]');
	let list: unknown = raw;
	if (typeof raw === 'string') {
		try {
			list = jsonParse(raw);
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The parameter 'Parts' is not valid JSON: ${(error as Error).message}`,
				{
					itemIndex,
					description: 'Enter a JSON array such as [{ "partNumber": 1, "ETag": "\\"…\\"" }].',
				},
			);
		}
	}
	if (!Array.isArray(list)) {
		throw new NodeOperationError(ctx.getNode(), "The parameter 'Parts' must be a JSON array", { itemIndex });
	}
	return collectParts(ctx, itemIndex, list, "the parameter 'Parts'");
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fromItems = this.getNodeParameter('partsSource', itemIndex, 'items') === 'items';
	const items = this.getInputData();
	// With parts from all items the whole input is one completion, done on the first item.
	if (fromItems && itemIndex > 0) return [];
	const where = getBucketRef(this, itemIndex);
	const uploadId = readText(this, itemIndex, 'uploadId', 'Upload ID');
	const key = readKey(this, itemIndex);
	const parts = fromItems
		? collectParts(
				this,
				itemIndex,
				items.map((item) => item.json),
				'the input items',
			)
		: partsFromJson(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const stored = await completeMultipartUpload(client, where, uploadId, key, parts);
	const pairedItem = fromItems ? items.map((_, item) => ({ item })) : { item: itemIndex };
	return [{ json: { ...stored, uploadId, partCount: parts.length }, pairedItem }];
}
