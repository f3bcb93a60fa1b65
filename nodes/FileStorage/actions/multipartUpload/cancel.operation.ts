import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { cancelMultipartUpload } from '../../transport/api';
import { optionsCollection } from '../common';
import { keyField, readKey, readUploadId, showFor, uploadIdField } from './fields';

export const description: INodeProperties[] = [
	uploadIdField('cancel'),
	keyField('cancel'),
	optionsCollection(showFor('cancel').show),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const uploadId = readUploadId(item);
	const key = readKey(item);
	const result = await cancelMultipartUpload(await item.client(), where, uploadId, key);
	return item.output({
		uploadId,
		key,
		bucket: where.bucket,
		region: where.region,
		cancelled: true,
		message: result.message,
		doneByEarlierAttempt: result.earlierAttempt,
	});
}
