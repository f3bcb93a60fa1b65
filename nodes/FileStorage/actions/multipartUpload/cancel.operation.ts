import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { cancelMultipartUpload } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { keyField, readKey, readText, showFor, uploadIdField } from './fields';

export const description: INodeProperties[] = [
	uploadIdField('cancel'),
	keyField('cancel'),
	optionsCollection(showFor('cancel').show),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const uploadId = readText(this, itemIndex, 'uploadId', 'Upload ID');
	const key = readKey(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const result = await cancelMultipartUpload(client, where, uploadId, key);
	return [
		{
			json: {
				uploadId,
				key,
				bucket: where.bucket,
				region: where.region,
				cancelled: true,
				message: result.message,
				doneByEarlierAttempt: result.earlierAttempt,
			},
			pairedItem: { item: itemIndex },
		},
	];
}
