import type { INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { timeOf } from '../listing/listingTime';
import { toItem } from './output';
import type { PollRun } from './run';
import type { ListedFile } from './state';

/** The most recently modified file; a file without a date counts as oldest, ties go to the last key. */
function newest(files: ListedFile[]): ListedFile | undefined {
	let best: ListedFile | undefined;
	let bestTime = Number.NEGATIVE_INFINITY;
	for (const file of files) {
		const at = timeOf(file.last_modified) ?? Number.NEGATIVE_INFINITY;
		if (!best || at > bestTime || (at === bestTime && file.key > best.key)) {
			best = file;
			bestTime = at;
		}
	}
	return best;
}

/**
 * Fetch Test Event: the newest file as if it had just been created, so the user sees a real
 * item. The saved state is left alone, so a test never hides a change from the active trigger.
 */
export async function sampleItem(run: PollRun, files: ListedFile[]): Promise<INodeExecutionData> {
	const { ctx, settings } = run;
	const sample = newest(files);
	if (!sample) {
		const where = `${settings.where.bucket}/${settings.prefix}`;
		const filter = settings.filterPattern.trim();
		throw new NodeOperationError(
			ctx.getNode(),
			`No file matches in '${where}'${filter ? ` for the filter "${filter}"` : ''}`,
			{
				description:
					'Upload a matching file (or change Folder, Include Subfolders or File Name Filter) and fetch again.',
			},
		);
	}
	return await toItem(run, { event: 'created', key: sample.key, file: sample });
}
