import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { copyFields } from './copyFields';
import { copyFile } from './copyFile';

export const description: INodeProperties[] = copyFields('copy');

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const copied = await copyFile(item, 'Copy');
	return item.output(copied.json);
}
