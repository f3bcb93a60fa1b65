import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { copyFields } from './copyFields';
import { copyFile } from './copyFile';

export const description: INodeProperties[] = copyFields('copy');

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const copied = await copyFile(this, itemIndex, 'Copy');
	return [{ json: copied.json, pairedItem: { item: itemIndex } }];
}
