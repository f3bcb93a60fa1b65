import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { downloadToBinary } from '../download/download';
import { goneByService } from '../listing/stillStored';
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
 * Whether a download failed because the file went after the poll listed it: a "not found" (of the
 * signed link or the CDN) that the service itself confirms (its own 404). The change the listing
 * showed then happened: it is emitted at once without its file (the next poll reports the deletion),
 * never held back, which would drop it (the next scan no longer lists the file). Anything else, or
 * a failure to ask, is an ordinary failed download.
 */
async function goneSinceListed({ client, settings }: PollRun, change: Change, error: unknown): Promise<boolean> {
	if ((error as { httpCode?: unknown } | undefined)?.httpCode !== '404') return false;
	return await goneByService(client, settings.where, change.key);
}

/**
 * A change's item, with its file when Download File is on; throws when the download fails, or when
 * its answer cannot be shown to be the listed version (a CDN's kept copy): the file is then held back.
 * A file deleted since the listing is emitted without its file, saying so (goneSinceListed).
 */
export async function toItem(run: PollRun, change: Change): Promise<INodeExecutionData> {
	const { ctx, client, settings } = run;
	const item: INodeExecutionData = { json: outputJson(settings, change) };
	if (!settings.download || !change.file) return item;
	const download = await downloadToBinary({
		ctx,
		client,
		where: settings.where,
		key: change.key,
		fileName: change.file.name,
		itemIndex: 0,
		expectedSize: change.file.size ?? undefined,
		// The version the listing recorded: an answer not shown to be it is not attached (download/storedVersion.ts).
		listed: { size: change.file.size, last_modified: change.file.last_modified },
	}).then(
		({ binary }) => ({ binary }),
		(error: unknown) => ({ error }),
	);
	if ('binary' in download) {
		item.binary = { [settings.binaryField]: download.binary };
		return item;
	}
	if (!(await goneSinceListed(run, change, download.error))) throw download.error;
	const why = `The file was deleted after the poll listed it, before its download: ${(download.error as Error).message}`;
	return withoutFile(settings, change, new Error(why));
}

/** A file given up on after DOWNLOAD_ATTEMPTS failed polls: its change, with the error instead of the file. */
export function withoutFile(settings: TriggerSettings, change: Change, error: unknown): INodeExecutionData {
	return { json: { ...outputJson(settings, change), error: (error as Error).message } };
}
