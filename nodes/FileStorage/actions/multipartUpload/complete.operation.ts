import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { MAX_PARTS } from '../../upload/multipartUpload';
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
		placeholder: 'e.g. [{ "partNumber": 1, "ETag": "\\"9b2c…\\"" }]',
		description: 'JSON array of the uploaded parts: objects with partNumber (or PartNumber) and ETag',
		displayOptions: { show: { resource: ['multipartUpload'], operation: ['complete'], partsSource: ['json'] } },
	},
	optionsCollection(showFor('complete').show),
];

const PARTS_JSON_HINT = 'Enter a JSON array such as [{ "partNumber": 1, "ETag": "\\"…\\"" }].';

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
					description: PARTS_JSON_HINT,
				},
			);
		}
	}
	if (!Array.isArray(list)) {
		throw new NodeOperationError(ctx.getNode(), "The parameter 'Parts' must be a JSON array", {
			itemIndex,
			description: PARTS_JSON_HINT,
		});
	}
	return collectParts(ctx, itemIndex, list, "the parameter 'Parts'");
}

interface Completion {
	itemIndexes: number[];
	parts: unknown[];
}

/**
 * Input items grouped by the upload they belong to (bucket, region, Upload ID and Key as each
 * item's parameters give them), so parts of two uploads are never completed as one file.
 */
function completionsFromItems(ctx: IExecuteFunctions): Completion[] {
	const groups = new Map<string, Completion>();
	ctx.getInputData().forEach((item, itemIndex) => {
		const { bucket, region } = getBucketRef(ctx, itemIndex);
		const upload = [bucket, region, readText(ctx, itemIndex, 'uploadId', 'Upload ID'), readKey(ctx, itemIndex)];
		const id = JSON.stringify(upload);
		const group = groups.get(id) ?? { itemIndexes: [], parts: [] };
		group.itemIndexes.push(itemIndex);
		group.parts.push(item.json);
		groups.set(id, group);
	});
	return [...groups.values()];
}

async function complete(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parts: UploadedPart[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData> {
	const where = getBucketRef(ctx, itemIndex);
	const uploadId = readText(ctx, itemIndex, 'uploadId', 'Upload ID');
	const key = readKey(ctx, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(ctx, itemIndex, options);
	const stored = await completeMultipartUpload(client, where, uploadId, key, parts);
	return { json: { ...stored, uploadId, partCount: parts.length }, pairedItem };
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	if (this.getNodeParameter('partsSource', itemIndex, 'items') !== 'items') {
		return [await complete(this, itemIndex, partsFromJson(this, itemIndex), { item: itemIndex })];
	}
	// With parts from the items, the whole input is handled with the first item: one
	// completion per upload the items belong to.
	if (itemIndex > 0) return [];
	const results: INodeExecutionData[] = [];
	for (const { itemIndexes, parts } of completionsFromItems(this)) {
		const first = itemIndexes[0];
		const where =
			itemIndexes.length === this.getInputData().length
				? 'the input items'
				: `input items ${itemIndexes.map((i) => i + 1).join(', ')}`;
		const checked = collectParts(this, first, parts, where);
		results.push(
			await complete(
				this,
				first,
				checked,
				itemIndexes.map((item) => ({ item })),
			),
		);
	}
	return results;
}
