import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { copyFields } from './copyFields';
import { copyFile, deleteSourceAfterCopy, sourceStays, type Copied } from './copyFile';

export const description: INodeProperties[] = copyFields('move');

/** A checked copy, then the source deleted: a failure before the delete leaves the source as it was. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	let copied: Copied;
	try {
		copied = await copyFile(this, itemIndex, 'Move');
	} catch (error) {
		throw sourceStays(this, itemIndex, error);
	}
	const removal = await deleteSourceAfterCopy(this, itemIndex, copied);
	return [
		{
			json: { ...copied.json, sourceDeleted: true, doneByEarlierAttempt: removal.earlierAttempt },
			pairedItem: { item: itemIndex },
		},
	];
}
