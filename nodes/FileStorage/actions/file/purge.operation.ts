import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { purgeFile } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, readFileKey } from './fileKey';

export const description: INodeProperties[] = [
	fileKeyField(['purge']),
	optionsCollection({ resource: ['file'], operation: ['purge'] }),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const result = await purgeFile(client, where, key);
	return [
		{
			json: {
				// Whatever else the service reports is kept: its answer's fields are not published.
				...result,
				key,
				bucket: where.bucket,
				region: where.region,
				purged: true,
			},
			pairedItem: { item: itemIndex },
		},
	];
}
