import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { transferFolder } from './transfer';
import { transferFields } from './transferFields';

export const description: INodeProperties[] = transferFields('move');

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	return await transferFolder(item, 'Move');
}
