import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { deleteFile } from '../../transport/api';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf } from './fileKey';

export const description: INodeProperties[] = [
	fileKeyField(['delete']),
	optionsCollection({ resource: ['file'], operation: ['delete'] }),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	// After any item of the run writing the key (an Upload with Refuse Existing File, a Copy, a Move).
	await item.takeTurns([{ ...where, key }]);
	const result = await deleteFile(await item.client(), where, key);
	return item.output({
		key,
		bucket: where.bucket,
		region: where.region,
		deleted: true,
		message: result.message,
		doneByEarlierAttempt: result.earlierAttempt,
	});
}
