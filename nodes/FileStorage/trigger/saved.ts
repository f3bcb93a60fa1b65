import type { IDataObject } from 'n8n-workflow';

import type { PollRun } from './run';
import { handOver } from './outOfScope';
import { pendingBaseline } from './pendingMark';
import { readState } from './readState';
import { placeOf, scopeOf, type WatchState } from './state';
import { encodeState } from './stateCodec';

/** Where the trigger keeps its state in the node's static data. */
export const STATE_FIELD = 'fileStorageTrigger';

/** The state n8n saved for this trigger, and how to save the next one in its place. */
export interface SavedState {
	/** Whether the state names its keys: only when deletions are watched (they must name the key). */
	keepKeys: boolean;
	/** Undefined on the first poll, or when the watched files changed (another scope; with Emit Existing Files, see needsScan). */
	previous?: WatchState;
	/**
	 * The state was saved with other settings (without keys, File Deleted since added; or, with Emit
	 * Existing Files, for other files of the bucket): it keeps what a complete scan shows (see
	 * recordsStillListed).
	 */
	needsScan: boolean;
	/** Set when a state was saved but cannot be read: the changes since the last good poll are unknown. */
	lost?: string;
	/** Nothing was ever saved: the very first poll after activation. */
	first: boolean;
	/**
	 * The state saved was of other files (another folder, filter or Include Subfolders): what is
	 * watched now and the old state did not record was never emitted, so Emit Existing Files emits it.
	 */
	otherScope: boolean;
	/**
	 * With otherScope, the readable state of other files of the same bucket and region, whatever Emit Existing Files
	 * says (or what a pending mark hands over, for these files or others): a baseline keeps its records aside
	 * (outOfScope.ts) and its held changes of files watched now (heldBack.ts), so that turning Emit Existing Files on
	 * later emits none of the files it recorded, and no held change is dropped.
	 */
	earlier?: WatchState;
	save: (state: WatchState) => void;
	/**
	 * No baseline could be recorded: the next poll records one. After a first poll nothing is left;
	 * otherwise a mark that it is not a first poll, so that Emit Existing Files does not flood, carrying
	 * what `earlier` knew (pendingMark.ts); after a lost state, nothing more.
	 */
	clear: () => void;
}

/**
 * A state saved for other files starts afresh; with Emit Existing Files, the files of the same bucket
 * it recorded keep their record (a widened folder or filter emits only the files it adds). Adding
 * or removing File Deleted carries the state over.
 */
export function savedState({ ctx, settings }: PollRun): SavedState {
	const keepKeys = settings.watch.has('deleted');
	const scopeFor = (keys: boolean) =>
		scopeOf({
			bucket: settings.where.bucket,
			region: settings.where.region,
			prefix: settings.prefix,
			recursive: settings.recursive,
			filter: settings.filterPattern,
			keepKeys: keys,
		});
	const scope = scopeFor(keepKeys);
	const place = placeOf(settings.where.bucket, settings.where.region);
	const staticData = ctx.getWorkflowStaticData('node');
	const read = readState(staticData[STATE_FIELD], { scope, carried: scopeFor(!keepKeys), place }, keepKeys);
	const { lost, first } = read;
	const earlier = settings.emitExisting ? read.earlier : undefined;
	return {
		keepKeys,
		needsScan: read.needsKeys === true || earlier !== undefined,
		previous: read.state ?? earlier,
		lost,
		first: first === true,
		otherScope: read.otherScope === true,
		earlier: read.earlier ?? read.handed,
		save: (next) => {
			staticData[STATE_FIELD] = encodeState(next, scope, place) as unknown as IDataObject;
		},
		clear: () => {
			if (first) {
				delete staticData[STATE_FIELD];
				return;
			}
			const handed = read.earlier ?? read.handed;
			const mark = pendingBaseline(scope, handed && { place, state: handOver(handed) });
			staticData[STATE_FIELD] = mark as unknown as IDataObject;
		},
	};
}
