import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { copyFields } from './copyFields';
import { copyFile, sourceStays, type Copied } from './copyFile';
import { deleteSourceAfterCopy } from './moveSource';

export const description: INodeProperties[] = copyFields('move');

/** A checked copy, then the source deleted: a failure before the delete leaves the source as it was. */
export async function execute(item: Item): Promise<INodeExecutionData[]> {
	let copied: Copied;
	try {
		copied = await copyFile(item, 'Move');
	} catch (error) {
		throw sourceStays(item, error);
	}
	// A delete an earlier attempt already did (its answer lost) is a done Move too: the output
	// does not tell the two apart, as it has nothing the user could act on.
	await deleteSourceAfterCopy(item, copied);
	return item.output({ ...copied.json, sourceDeleted: true });
}
