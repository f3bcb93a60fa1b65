import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { fileNotFound, readFileInfo } from '../../files/fileInfo';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf } from './fileKey';

const show = { resource: ['file'], operation: ['getInfo'] };

export const description: INodeProperties[] = [
	fileKeyField(['getInfo']),
	optionsCollection(show, [
		{
			displayName: 'Error If Missing',
			name: 'errorIfMissing',
			type: 'boolean',
			default: true,
			description:
				'Whether a file that does not exist fails the node. Off: the output says exists: false instead, e.g. for an If node.',
		},
	]),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	const info = await readFileInfo(await item.client(), where, key);
	if (!info && item.options().errorIfMissing !== false) throw fileNotFound(item, where, key);
	return item.output(info ?? { key, bucket: where.bucket, region: where.region, exists: false });
}
