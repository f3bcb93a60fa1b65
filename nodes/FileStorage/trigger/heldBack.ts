import type { INodeExecutionData } from 'n8n-workflow';

import { stillStored } from '../listing/stillStored';
import { outputJson, withoutFile } from './output';
import type { PollRun } from './run';
import { watchesKey, type Scan } from './scan';
import { keyHash, type DownloadFailure, type WatchState } from './state';

/**
 * Changes held back by an earlier poll (their download failed, or its answer was not shown to be the listed
 * version) whose file this poll's scan no longer lists. The change happened (a poll listed it), and nothing would
 * report it any more: the next scan has no file to compare. So it is emitted now, without its file, the reason in
 * `error`, before this poll's changes; with File Deleted, the file's deletion follows (for a held `updated`, the
 * usual deletion; for a held `created`, which the state never recorded, one added after this poll's deletions).
 * A scan that is not complete proves no absence: the service is asked (one request per such change), and a change
 * it cannot confirm gone is kept for the next poll.
 */
export interface HeldGone {
	/** Held changes of files gone, as items: they come first. */
	items: INodeExecutionData[];
	/** Deletions of held `created` files (File Deleted watched): they come last. */
	deletions: INodeExecutionData[];
	/** Held changes not settled this poll (no room left, or the service still has the file or could not say). */
	kept: Map<string, DownloadFailure>;
}

async function gone(run: PollRun, found: Scan, key: string): Promise<boolean> {
	if (found.complete) return true;
	return !(await stillStored(run.client, run.settings.where, key).catch(() => true));
}

/** The held changes of `previous` this poll settles, at most Max Files Per Poll items' worth. */
export async function heldChangesGone(run: PollRun, previous: WatchState, found: Scan): Promise<HeldGone> {
	const out: HeldGone = { items: [], deletions: [], kept: new Map() };
	if (!previous.failures?.size) return out;
	const { settings } = run;
	const listed = new Set(found.files.map((file) => keyHash(file.key)));
	for (const [hash, failure] of previous.failures) {
		const held = failure.held;
		if (!held || listed.has(hash) || !settings.watch.has(held.event) || !watchesKey(settings, held.file.key)) continue;
		const room = out.items.length + out.deletions.length < settings.maxFiles;
		if (!room || !(await gone(run, found, held.file.key))) {
			out.kept.set(hash, failure);
			continue;
		}
		const change = { event: held.event, key: held.file.key, file: held.file };
		const why = `The file was deleted after a poll listed it, while its download was held back (${failure.attempts} failed): its change is emitted without it`;
		out.items.push(withoutFile(settings, change, new Error(why)));
		// A held `created` was never recorded, so no scan reports its deletion.
		if (held.event === 'created' && settings.watch.has('deleted') && previous.keys) {
			out.deletions.push({ json: outputJson(settings, { event: 'deleted', key: held.file.key }) });
		}
	}
	return out;
}
