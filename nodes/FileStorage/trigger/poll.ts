import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { BASELINE_SCANS, completeScan, lostStateItem, recordBaseline } from './baseline';
import { checkFailed, emitChanges, type Emission } from './emit';
import { heldCount } from './attempts';
import { heldCarriedOver, heldChangesGone, setAsideUnwatched, withGoneCreations, type HeldGone } from './heldBack';
import { keptAside } from './outOfScope';
import { alone } from './overlap';
import { startRun, type PollRun } from './run';
import { sampleItem } from './sample';
import { savedState } from './saved';
import { scan, watchesKey } from './scan';
import { advance, diff, emptyState, keyHash, recordsStillListed, type Change } from './state';

/**
 * Nothing came of this poll but a deletion it could not check, and there is no failure count to
 * keep: fail it, so the reason shows in n8n (nothing is lost: the next poll finds the same).
 */
function failIfOnlyUncheckable(run: PollRun, { items, uncheckable, warnings }: Emission): void {
	if (items.length === 0 && uncheckable && warnings.length === 0) {
		throw checkFailed(run, uncheckable.key, uncheckable.error);
	}
}

/**
 * A poll that throws saves nothing under n8n's durable scheduler, so the failure counts would
 * never advance: held-back downloads are logged, and the poll returns what it has.
 */
function logWarnings(run: PollRun, { uncheckable, warnings }: Emission): void {
	if (uncheckable) warnings.push(checkFailed(run, uncheckable.key, uncheckable.error).message);
	for (const warning of warnings) run.ctx.logger.warn(warning);
}

/** A state saved with other settings (File Deleted added, a widened scope) stays as it is until a scan is complete. */
function waitForCompleteScan(run: PollRun): null {
	run.ctx.logger.warn(
		`File Storage Trigger: '${run.settings.prefix || '(whole bucket)'}' changed during each of ${BASELINE_SCANS} scans; the state saved with other settings is carried over by the next complete scan`,
	);
	return null;
}

/** The run of this poll's changes, with the items of held changes already counted against Max Files Per Poll. */
function withRoomTaken(run: PollRun, held: HeldGone): PollRun {
	const taken = held.items.length;
	if (taken === 0) return run;
	return { ...run, settings: { ...run.settings, maxFiles: Math.max(0, run.settings.maxFiles - taken) } };
}

/**
 * One poll: a complete scan of the folder compared with the saved state. The state moves
 * forward only after the scan succeeded, and only past what is emitted: a file whose download
 * fails stays a change for the next poll (until DOWNLOAD_ATTEMPTS polls gave up on it), and a
 * deletion a scan over several pages found is only emitted once the service says it is gone.
 */
async function pollOnce(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const run = await startRun(ctx);
	let found = await scan(run);
	// Fetch Test Event: a sample, and the saved state is left alone.
	if (ctx.getMode() === 'manual') return [[await sampleItem(run, found.files)]];

	const saved = savedState(run);
	// No state to compare with: what exists now is the baseline. Emit Existing Files compares with
	// an empty state instead on the first poll, or when other files are watched now (never emitted;
	// those the old state recorded keep their record): never after a lost state, which would emit
	// again what was emitted before.
	const fromEmpty = run.settings.emitExisting && (saved.first || saved.otherScope);
	if (!saved.previous && !fromEmpty) return await recordBaseline(run, saved, found);
	if (saved.previous && saved.needsScan) {
		// File Deleted was added, or the scope changed: the saved state is carried over by a complete scan.
		const whole = await completeScan(run, found);
		if (!whole) return waitForCompleteScan(run);
		found = whole;
		const earlier = saved.previous;
		const watches = (key: string) => watchesKey(run.settings, key);
		saved.previous = recordsStillListed(earlier, found.files, saved.keepKeys, saved.otherScope, watches);
		// Held changes of files left out go aside, those of files watched again come back (heldBack.ts).
		if (saved.otherScope) heldCarriedOver(run.settings, earlier, saved.previous);
	}
	const { files, settled, complete } = found;
	// Changes held back before whose file is gone come first, and take their room of Max Files Per Poll.
	const before = setAsideUnwatched(saved.previous ?? emptyState(saved.keepKeys), run.settings);
	const held = await heldChangesGone(run, before, found);
	const previous = withGoneCreations(before, held);
	const changes = diff(previous, files, settled).filter((change) => run.settings.watch.has(change.event));
	// A file whose held change waits for a later poll (no room, or out of time): its deletion waits with it, so the
	// held change comes first and the deletion after it (heldBack.ts).
	const waiting = (change: Change) => change.event === 'deleted' && held.kept.has(keyHash(change.key));
	const watched = changes.filter((change) => !waiting(change));
	// Held changes kept besides this poll's own count against the bound of them (attempts.ts).
	const heldBefore = heldCount(held.kept) + (previous.heldAside?.size ?? 0);
	const emission = await emitChanges(withRoomTaken(run, held), { previous, watched, heldBefore });
	emission.items.unshift(...held.items);
	failIfOnlyUncheckable(run, emission);
	if (saved.lost) emission.items.unshift(lostStateItem(run, saved.lost, true));
	const state = advance(previous, files, [...emission.withheld, ...changes.filter(waiting)], complete);
	state.failures = new Map([...held.kept, ...emission.failures]);
	state.aside = keptAside(previous, state);
	if (previous.heldAside?.size) state.heldAside = previous.heldAside;
	saved.save(state);
	logWarnings(run, emission);
	return emission.items.length > 0 ? [emission.items] : null;
}

/** Fetch Test Event saves nothing and runs beside the active trigger; polls of the trigger never overlap. */
export async function pollFileStorage(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') return await pollOnce(ctx);
	return await alone(ctx, async () => await pollOnce(ctx));
}
