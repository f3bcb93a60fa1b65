import type { IDataObject, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { Item } from '../../item';
import { MAX_PARTS } from '../../upload/parts';
import { completeMultipartUpload, type UploadedPart } from '../../transport/api';
import { writeMayStillLand } from '../../transport/outcome';
import { optionsCollection } from '../common';
import { failureItem } from '../parallelItems';
import { keyField, readKey, readUploadId, showFor, uploadIdField } from './fields';

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
function collectParts(item: Item, raws: unknown[], where: string): UploadedPart[] {
	const byNumber = new Map<number, UploadedPart>();
	raws.forEach((raw, index) => {
		const part = toPart(raw);
		if (typeof part === 'string') {
			throw item.fail(
				`Part ${index + 1} of ${where} ${part}`,
				'Each part needs partNumber and ETag exactly as Upload Part returned them.',
			);
		}
		byNumber.set(part.partNumber, part);
	});
	if (byNumber.size === 0) throw item.fail(`No parts found in ${where}`, 'Complete needs at least one uploaded part.');
	return [...byNumber.values()].sort((a, b) => a.partNumber - b.partNumber);
}

function partsFromJson(item: Item): UploadedPart[] {
	const raw = item.param('partsJson', '[]');
	let list: unknown = raw;
	if (typeof raw === 'string') {
		try {
			list = jsonParse(raw);
		} catch (error) {
			throw item.fail(`The parameter 'Parts' is not valid JSON: ${(error as Error).message}`, PARTS_JSON_HINT);
		}
	}
	if (!Array.isArray(list)) throw item.fail("The parameter 'Parts' must be a JSON array", PARTS_JSON_HINT);
	return collectParts(item, list, "the parameter 'Parts'");
}

interface Completion {
	/** The first item of the upload: its parameters and its errors. */
	first: Item;
	itemIndexes: number[];
	parts: unknown[];
}

/**
 * Input items grouped by the upload they belong to (bucket, region, Upload ID and Key as each
 * item's parameters give them), so parts of two uploads are never completed as one file.
 */
function completionsFromItems({ ctx, run }: Item): Completion[] {
	const groups = new Map<string, Completion>();
	ctx.getInputData().forEach((input, index) => {
		const item = new Item(ctx, index, run);
		const { bucket, region } = item.bucket();
		const upload = [bucket, region, readUploadId(item), readKey(item)];
		const id = JSON.stringify(upload);
		const group = groups.get(id) ?? { first: item, itemIndexes: [], parts: [] };
		group.itemIndexes.push(index);
		group.parts.push(input.json);
		groups.set(id, group);
	});
	return [...groups.values()];
}

async function complete(
	item: Item,
	parts: UploadedPart[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData> {
	const where = item.bucket();
	const uploadId = readUploadId(item);
	const key = readKey(item);
	// After any other item of the run writing the key, and refused when one's write may still land
	// on it (a Complete answered 504): it would replace the file this Complete reports stored.
	await item.takeTurns([{ ...where, key }]);
	const client = await item.client();
	const stored = await completeMultipartUpload(client, where, { uploadId, key, parts }).catch((error) => {
		// A Complete whose outcome is unknown may still store the file: later items of the run leave the key alone.
		if (writeMayStillLand(error)) item.writeMayStillLand({ ...where, key });
		throw error;
	});
	return { json: { ...stored, uploadId, partCount: parts.length }, pairedItem };
}

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	if (item.param('partsSource', 'items') !== 'items') {
		return [await complete(item, partsFromJson(item), { item: item.index })];
	}
	// With parts from the items, the whole input is handled with the first item: one
	// completion per upload the items belong to.
	if (item.index > 0) return [];
	const results: INodeExecutionData[] = [];
	for (const { first, itemIndexes, parts } of completionsFromItems(item)) {
		const where =
			itemIndexes.length === item.ctx.getInputData().length
				? 'the input items'
				: `input items ${itemIndexes.map((i) => i + 1).join(', ')}`;
		try {
			const checked = collectParts(first, parts, where);
			results.push(
				await complete(
					first,
					checked,
					itemIndexes.map((index) => ({ item: index })),
				),
			);
		} catch (error) {
			// With Continue On Fail one upload's failure is its own items' output, and the other uploads go on.
			if (!item.ctx.continueOnFail()) throw error as NodeOperationError;
			const failed = failureItem(item.ctx, error, itemIndexes[0]);
			results.push({
				...failed,
				pairedItem: itemIndexes.length === 1 ? failed.pairedItem : itemIndexes.map((i) => ({ item: i })),
			});
		} finally {
			// Each upload's turn is given back before the next one's (the router finishes `item` only).
			first.finish();
		}
	}
	return results;
}
