import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { deleteFile } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, readFileKey } from './fileKey';

export const description: INodeProperties[] = [
	fileKeyField(['delete']),
	optionsCollection({ resource: ['file'], operation: ['delete'] }),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const result = await deleteFile(client, where, key);
	return [
		{
			json: {
				key,
				bucket: where.bucket,
				region: where.region,
				deleted: true,
				message: result.message,
				doneByEarlierAttempt: result.earlierAttempt,
			},
			pairedItem: { item: itemIndex },
		},
	];
}
