import type { INodeExecutionData } from 'n8n-workflow';

import type { PollRun } from './run';
import type { SavedState } from './saved';
import { scan, type Scan } from './scan';
import { heldCarriedOver } from './heldBack';
import { setAside } from './outOfScope';
import { stateOf, type WatchState } from './state';

/**
 * Scans a first poll may make to record a whole baseline. A scan that cannot vouch for what it did
 * not see (files came and went at its page boundaries) would leave old files out of the baseline,
 * and the next poll would report them as created: it is read again, and if no scan of this poll is
 * complete nothing is saved, so the next poll is a first poll again.
 */
export const BASELINE_SCANS = 3;

/**
 * A complete scan, reading again up to BASELINE_SCANS scans in all as a first poll does; undefined
 * when none of them is complete.
 */
export async function completeScan(run: PollRun, first: Scan): Promise<Scan | undefined> {
	let found = first;
	for (let scans = 1; !found.complete && scans < BASELINE_SCANS; scans++) found = await scan(run);
	return found.complete ? found : undefined;
}

/** The item that tells the workflow its saved state was lost, and what that means. */
export function lostStateItem({ settings }: PollRun, reason: string, recorded: boolean): INodeExecutionData {
	const from = recorded
		? 'the files there now were recorded as the new starting point'
		: 'the next poll records a new starting point';
	return {
		json: {
			event: 'stateLost',
			key: null,
			name: null,
			size: null,
			content_type: null,
			last_modified: null,
			visibility: null,
			bucket: settings.where.bucket,
			region: settings.where.region,
			error: `The trigger's saved state could not be read (${reason}): files created, changed or deleted since the last good poll may have been missed. Polling goes on; ${from}. To catch up, list the folder (Bucket → List Contents) and process the files changed since your last processed one.`,
		},
	};
}

/**
 * The starting point a complete scan gives. After a scope change in the same bucket (`earlier`: the state before it,
 * or what a pending mark handed over), the held changes of files watched now are kept (heldCarriedOver), and the old
 * records the baseline does not hold are set aside as recordsStillListed sets them aside (state.ts), so that Emit
 * Existing Files, turned on when the scope widens back, emits none of the files recorded before.
 */
function baselineOf({ settings }: PollRun, saved: SavedState, found: Scan): WatchState {
	const state = stateOf(found.files, saved.keepKeys);
	if (!saved.earlier) return state;
	heldCarriedOver(settings, saved.earlier, state);
	const aside = setAside(saved.earlier, new Set(state.files.keys()));
	if (aside.size > 0) state.aside = aside;
	return state;
}

/**
 * A first poll (or one after the watched files changed, or after a lost state): records what
 * exists and emits nothing, except the notice of a lost state.
 */
export async function recordBaseline(
	run: PollRun,
	saved: SavedState,
	first: Scan,
): Promise<INodeExecutionData[][] | null> {
	const found = await completeScan(run, first);
	if (found) saved.save(baselineOf(run, saved, found));
	else {
		saved.clear();
		run.ctx.logger.warn(
			`File Storage Trigger: '${run.settings.prefix || '(whole bucket)'}' changed during each of ${BASELINE_SCANS} scans; no starting point was recorded, the next poll tries again`,
		);
	}
	if (!saved.lost) return null;
	run.ctx.logger.error(`File Storage Trigger: the saved state could not be read (${saved.lost})`);
	return [[lostStateItem(run, saved.lost, found !== undefined)]];
}
