import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { downloadToBinary } from '../download/download';
import type { PollRun } from './run';
import type { TriggerSettings } from './settings';
import type { Change } from './state';

/**
 * One change as an item's JSON. Every field is always there (null when unknown, e.g. for a
 * deletion), so that a workflow can rely on the item's shape whatever the event.
 */
export function outputJson(settings: TriggerSettings, change: Change): IDataObject {
	const file = change.file;
	return {
		event: change.event,
		key: change.key,
		name: file?.name ?? change.key.slice(change.key.lastIndexOf('/') + 1),
		size: file?.size ?? null,
		content_type: file?.content_type ?? null,
		last_modified: file?.last_modified ?? null,
		visibility: file?.visibility ?? null,
		bucket: settings.where.bucket,
		region: settings.where.region,
	};
}

/**
 * A change's item, with its file when Download File is on; throws when the download fails, or when
 * its answer cannot be shown to be the listed version (a CDN's kept copy): the file is then held back.
 */
export async function toItem({ ctx, client, settings }: PollRun, change: Change): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: outputJson(settings, change) };
	if (settings.download && change.file) {
		const { binary } = await downloadToBinary({
			ctx,
			client,
			where: settings.where,
			key: change.key,
			fileName: change.file.name,
			itemIndex: 0,
			expectedSize: change.file.size ?? undefined,
			// The version the listing recorded: an answer not shown to be it is not attached (download/storedVersion.ts).
			listed: { size: change.file.size, last_modified: change.file.last_modified },
		});
		item.binary = { [settings.binaryField]: binary };
	}
	return item;
}

/** A file given up on after DOWNLOAD_ATTEMPTS failed polls: its change, with the error instead of the file. */
export function withoutFile(settings: TriggerSettings, change: Change, error: unknown): INodeExecutionData {
	return { json: { ...outputJson(settings, change), error: (error as Error).message } };
}
