import { openMark } from './pendingMark';
import type { WatchState } from './state';
import { openState } from './stateCodec';

/** The scopes a saved state is compared with. */
export interface Scopes {
	/** Of the files watched now (see scopeOf). */
	scope: string;
	/** Of the same files with File Deleted added or removed: the state is carried over. */
	carried: string;
	/** Of the bucket and region (see placeOf). */
	place: string;
}

export interface ReadState {
	state?: WatchState;
	/** Why the saved state was lost: the changes since the last good poll are unknown. */
	lost?: string;
	/** Nothing was saved. */
	first?: boolean;
	/** The state is of other files (folder, filter, Include Subfolders, bucket or region). */
	otherScope?: boolean;
	/** With otherScope: the state of other files of the same bucket and region, which may name some of these. */
	earlier?: WatchState;
	/**
	 * A mark for these files (no baseline yet) that carries what a state of other files of the bucket knew: records
	 * aside and held changes (pendingMark.ts), for the baseline to keep.
	 */
	handed?: WatchState;
	/** Saved without keys, now watched with File Deleted: the keys come from a complete scan. */
	needsKeys?: boolean;
}

/** A state saved with File Deleted watched (with keys) or not (without), for the same files. */
function carryOver(state: WatchState, keepKeys: boolean): ReadState {
	if (keepKeys) {
		delete state.keys;
		return { state, needsKeys: true };
	}
	if (!state.keys) return { lost: 'File Deleted was watched, and it has no list of keys' };
	delete state.keys;
	return { state };
}

/**
 * What a poll finds in the static data: nothing (a first poll: `first`), a mark that no baseline could be recorded
 * yet for these files (afresh, with what it hands over: `handed`; for other files: `otherScope`, and what it hands
 * over as `earlier` when of the same bucket), the state (carried over when File Deleted was added or removed), a state
 * of other files (`otherScope`), or something that is none of these: a state that was lost (edited, truncated,
 * altered, written by an unknown release), named in `lost`. The whole state is decoded and checked before its scope
 * is looked at.
 */
export function readState(stored: unknown, scopes: Scopes, keepKeys: boolean): ReadState {
	if (stored === undefined || stored === null) return { first: true };
	if (typeof stored === 'object' && 'pending' in stored) {
		// No baseline was recorded for the mark's files: those watched now start afresh, as any other files would.
		const mark = openMark(stored as Record<string, unknown>);
		if ('lost' in mark) return { lost: mark.lost };
		const { handed } = mark;
		if (mark.scope === scopes.scope || mark.scope === scopes.carried) return handed ? { handed: handed.state } : {};
		return handed?.place === scopes.place ? { otherScope: true, earlier: handed.state } : { otherScope: true };
	}
	const opened = openState(stored);
	if ('lost' in opened) return { lost: opened.lost };
	const { state } = opened;
	if (opened.scope === scopes.carried) return carryOver(state, keepKeys);
	if (opened.scope !== scopes.scope) {
		return opened.place === scopes.place ? { otherScope: true, earlier: state } : { otherScope: true };
	}
	if (!keepKeys) delete state.keys;
	else if (!state.keys) return { lost: 'File Deleted is watched, and it has no list of keys' };
	return { state };
}
