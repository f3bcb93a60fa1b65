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
	/** Set when a state was saved but cannot be read: the changes since the last good poll are unknown. */
	lost?: string;
	/** Nothing was ever saved: the very first poll after activation (the only one Emit Existing Files acts on). */
	first: boolean;
	save: (state: WatchState) => void;
	/**
	 * No baseline could be recorded: the next poll records one. After a first poll nothing is left;
	 * otherwise a mark that it is not a first poll, so that Emit Existing Files does not flood.
	 */
	clear: () => void;
}

/** A state saved for another scope is not read: changing what is watched starts afresh, without a flood. */
export function savedState({ ctx, settings }: PollRun): SavedState {
	const keepKeys = settings.watch.has('deleted');
	const scope = scopeOf({
		bucket: settings.where.bucket,
		region: settings.where.region,
		prefix: settings.prefix,
		recursive: settings.recursive,
		filter: settings.filterPattern,
		keepKeys,
	});
	const staticData = ctx.getWorkflowStaticData('node');
	const { state, lost, first } = readState(staticData[STATE_FIELD], scope, keepKeys);
	return {
		keepKeys,
		previous: state,
		lost,
		first: first === true,
		save: (next) => {
			staticData[STATE_FIELD] = encodeState(next, scope) as unknown as IDataObject;
		},
		clear: () => {
			if (first) delete staticData[STATE_FIELD];
			else staticData[STATE_FIELD] = pendingBaseline(scope) as unknown as IDataObject;
		},
	};
}
