import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { MAX_PARTS } from '../../upload/multipartUpload';
import { startMultipartUpload, type Visibility } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readKey(this, itemIndex);
	const totalParts = readWholeNumber(this, itemIndex, 'totalParts', 'Total Parts', MAX_PARTS);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const started = await startMultipartUpload(client, where, {
		key,
		totalParts,
		contentType: String(this.getNodeParameter('contentType', itemIndex, '') || 'application/octet-stream'),
		visibility: this.getNodeParameter('visibility', itemIndex, 'private') as Visibility,
	});
	return [{ json: { ...started, region: where.region, totalParts }, pairedItem: { item: itemIndex } }];
}
