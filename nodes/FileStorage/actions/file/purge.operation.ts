import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { purgeFile } from '../../transport/api';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf } from './fileKey';

export const description: INodeProperties[] = [
	fileKeyField(['purge']),
	optionsCollection({ resource: ['file'], operation: ['purge'] }),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	const result = await purgeFile(await item.client(), where, key);
	return item.output({
		// Whatever else the service reports is kept: its answer's fields are not published.
		...result,
		key,
		bucket: where.bucket,
		region: where.region,
		purged: true,
	});
}
