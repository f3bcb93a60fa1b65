import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { MAX_PARTS } from '../../upload/parts';
import { startMultipartUpload, type Visibility } from '../../transport/api';
import { optionsCollection } from '../common';
import { keyField, readKey, readWholeNumber, showFor, totalPartsField } from './fields';

export const description: INodeProperties[] = [
	keyField('start'),
	totalPartsField('start'),
	{
		displayName: 'Content Type',
		name: 'contentType',
		type: 'string',
		default: 'application/octet-stream',
		description: 'MIME type the completed file is stored with',
		displayOptions: showFor('start'),
	},
	{
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		default: 'private',
		description: 'Who can read the completed file',
		options: [
			{ name: 'Private', value: 'private' },
			{ name: 'Public', value: 'public' },
		],
		displayOptions: showFor('start'),
	},
	optionsCollection(showFor('start').show),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = readKey(item);
	const totalParts = readWholeNumber(item, 'totalParts', 'Total Parts', MAX_PARTS);
	const started = await startMultipartUpload(await item.client(), where, {
		key,
		totalParts,
		contentType: String(item.param('contentType', '') || 'application/octet-stream'),
		visibility: item.param('visibility', 'private') as Visibility,
	});
	return item.output({ ...started, region: where.region, totalParts });
}
