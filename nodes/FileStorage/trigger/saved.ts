import type { IDataObject } from 'n8n-workflow';

import type { PollRun } from './run';
import { scopeOf, type WatchState } from './state';
import { encodeState, pendingBaseline, readState } from './stateCodec';

/** Where the trigger keeps its state in the node's static data. */
export const STATE_FIELD = 'fileStorageTrigger';

/** The state n8n saved for this trigger, and how to save the next one in its place. */
export interface SavedState {
	/** Whether the state names its keys: only when deletions are watched (they must name the key). */
	keepKeys: boolean;
	/** Undefined on the first poll, or when the watched files changed (another scope). */
	previous?: WatchState;
	/** The state was saved without keys (File Deleted since added): they come from a complete scan. */
	needsKeys: boolean;
	/** Set when a state was saved but cannot be read: the changes since the last good poll are unknown. */
	lost?: string;
	/** Nothing was ever saved: the very first poll after activation. */
	first: boolean;
	/**
	 * The state saved was of other files (another folder, filter or Include Subfolders): what is
	 * watched now was never emitted, so Emit Existing Files acts as on a first poll.
	 */
	otherScope: boolean;
	save: (state: WatchState) => void;
	/**
	 * No baseline could be recorded: the next poll records one. After a first poll nothing is left;
	 * otherwise a mark that it is not a first poll, so that Emit Existing Files does not flood.
	 */
	clear: () => void;
}

/**
 * A state saved while File Deleted was watched (with keys) or not (without), for the same files:
 * adding or removing File Deleted carries it over. Without keys it is ready; with them it still
 * needs the keys of a complete scan (`needsKeys`, see withKeysFrom).
 */
function carriedOver(stored: unknown, scopeFor: (keepKeys: boolean) => string, keepKeys: boolean) {
	const otherScope = (stored as { scope?: unknown } | null)?.scope === scopeFor(!keepKeys);
	if (!otherScope) return undefined;
	const { state } = readState(stored, scopeFor(!keepKeys), !keepKeys);
	if (!state) return undefined;
	if (!keepKeys) delete state.keys;
	return { state, needsKeys: keepKeys };
}

/** A state saved for other files is not read: changing what is watched starts afresh (Emit Existing Files: as a first poll). */
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
	const staticData = ctx.getWorkflowStaticData('node');
	const carried = carriedOver(staticData[STATE_FIELD], scopeFor, keepKeys);
	const read: ReturnType<typeof readState> = carried ?? readState(staticData[STATE_FIELD], scope, keepKeys);
	const { state, lost, first } = read;
	return {
		keepKeys,
		needsKeys: carried?.needsKeys === true,
		previous: state,
		lost,
		first: first === true,
		otherScope: 'otherScope' in read && read.otherScope === true,
		save: (next) => {
			staticData[STATE_FIELD] = encodeState(next, scope) as unknown as IDataObject;
		},
		clear: () => {
			if (first) delete staticData[STATE_FIELD];
			else staticData[STATE_FIELD] = pendingBaseline(scope) as unknown as IDataObject;
		},
	};
}
