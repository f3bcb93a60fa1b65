import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fileNotFound, readFileInfo } from '../../files/fileInfo';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, readFileKey } from './fileKey';

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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const info = await readFileInfo(client, where, key);
	if (!info && options.errorIfMissing !== false) throw fileNotFound(this, where, key, itemIndex);
	const json: IDataObject = info ?? { key, bucket: where.bucket, region: where.region, exists: false };
	return [{ json, pairedItem: { item: itemIndex } }];
}
