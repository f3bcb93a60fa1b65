import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { assertNotEmpty, readAsForm, resolveBinarySource } from '../../upload/binaryInput';
import { MAX_PARTS } from '../../upload/parts';
import { learnPathFamily, uploadPart } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { withBodyMemory } from '../../transport/pool';
import { optionsCollection } from '../common';
import { uploadMemoryOptions } from '../parallelItems';
import { keyField, readKey, readUploadId, readWholeNumber, showFor, totalPartsField, uploadIdField } from './fields';

export const description: INodeProperties[] = [
	uploadIdField('uploadPart'),
	keyField('uploadPart'),
	{
		displayName: 'Part Number',
		name: 'partNumber',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PARTS },
		default: 1,
		required: true,
		description: 'Position of this part in the file, from 1. Every part but the last must be at least 5 MiB.',
		displayOptions: showFor('uploadPart'),
	},
	totalPartsField('uploadPart'),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the bytes of this part',
		description:
			'Name of the binary field of the input item that holds this part, usually data. The part is held in memory while it is sent.',
		displayOptions: showFor('uploadPart'),
	},
	optionsCollection(showFor('uploadPart').show, uploadMemoryOptions),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const uploadId = readUploadId(item);
	const key = readKey(item);
	const partNumber = readWholeNumber(item, 'partNumber', 'Part Number', MAX_PARTS);
	const totalParts = readWholeNumber(item, 'totalParts', 'Total Parts', MAX_PARTS);
	const source = await resolveBinarySource(item, item.param('binaryPropertyName'));
	assertNotEmpty(item, source);
	const client = await item.client();
	// Version 3 sends parts given as items at once: the path family is learned with a small
	// request first, not by one part while the others wait holding their memory.
	if (item.pool) await learnPathFamily(client, where, key);
	// Version 3: the part counts against the run's Upload Memory while it is read and sent.
	const part = await withBodyMemory(item.pool, source.size, async () => {
		const form = await readAsForm(item, source, formEnvelope(key, 'application/octet-stream'));
		return await uploadPart(client, where, { uploadId, key, partNumber, totalParts, form });
	});
	return item.output({ partNumber: part.partNumber, ETag: part.ETag, uploadId, key, size: source.size });
}
