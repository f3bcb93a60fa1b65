import type { WatchState } from './state';
import { checkOf, checkVerdict } from './stateCheck';
import {
	decodeFailures,
	decodeRecords,
	encodeFailure,
	encodeRecords,
	SCOPE_PATTERN,
	type StoredFailure,
	type StoredState,
} from './stateCodec';

/**
 * The mark saved where a poll after the first could record no baseline (the files changed during each scan): the
 * next poll records one. After a change of scope in the same bucket it carries what the state before it knew
 * (outOfScope.ts handOver): the records it kept, all set aside, and its held-back changes, so that no file recorded
 * before is emitted again and no held change is dropped however many polls the new scope takes to settle.
 */
export interface PendingMark {
	version: 1;
	scope: string;
	pending: true;
	/** The bucket and region (see placeOf), with records only: they are handed over within one. */
	place?: string;
	/** Records set aside, as a state's `aside` (latest first). */
	aside?: string;
	/** Held-back changes, as a state's `failures`. */
	failures?: Record<string, StoredFailure>;
	/**
	 * As a state's (checkOf), over all the above. Marks saved by earlier releases lack it and are read as they are; they
	 * never held `place`, `aside` or `failures`, so a mark holding one without a check is a lost state.
	 */
	check?: string;
}

/** What a mark hands over: records aside and held changes, never a watched file (there is no baseline). */
export interface HandedOver {
	place: string;
	state: WatchState;
}

export function pendingBaseline(scope: string, handed?: HandedOver): PendingMark {
	const mark: PendingMark = { version: 1, scope, pending: true };
	const { aside, failures } = handed?.state ?? {};
	if (handed && (aside?.size || failures?.size)) {
		mark.place = handed.place;
		if (aside?.size) mark.aside = encodeRecords([...aside.keys()], aside);
		if (failures?.size) {
			mark.failures = {};
			for (const [hash, failure] of failures) mark.failures[hash] = encodeFailure(failure);
		}
	}
	mark.check = checkOf(mark as Partial<StoredState>);
	return mark;
}

const MARK_FIELDS: ReadonlySet<string> = new Set([
	'version',
	'scope',
	'pending',
	'place',
	'aside',
	'failures',
	'check',
]);

/** A mark opened: its scope, and what it hands over (with the place it is of). */
export type OpenedMark = { scope: string; handed?: HandedOver } | { lost: string };

/** What a mark hands over, decoded; undefined when it names none, a `lost` reason when it is damaged. */
function handedOf(stored: Record<string, unknown>): HandedOver | undefined | { lost: string } {
	if (stored.aside === undefined && stored.failures === undefined) return undefined;
	if (typeof stored.place !== 'string' || !SCOPE_PATTERN.test(stored.place)) return { lost: 'its place is damaged' };
	const state: WatchState = { files: new Map() };
	if (stored.aside !== undefined) {
		const aside = decodeRecords(stored.aside);
		if (!aside) return { lost: 'its records of files out of the watched scope are damaged' };
		state.aside = aside;
	}
	const failures = decodeFailures(stored.failures);
	if (failures?.size) state.failures = failures;
	return { place: stored.place, state };
}

/** A mark checked whole, or why it cannot be trusted: a mark records no watched file, so anything more is damage. */
export function openMark(stored: Record<string, unknown>): OpenedMark {
	if (stored.pending !== true || Object.keys(stored).some((field) => !MARK_FIELDS.has(field))) {
		return { lost: 'it is marked as waiting for a starting point, and holds what such a mark never does' };
	}
	if (stored.version !== 1) return { lost: `version ${String(stored.version ?? 'none')} is unknown to this release` };
	if (typeof stored.scope !== 'string' || !SCOPE_PATTERN.test(stored.scope)) return { lost: 'its scope is damaged' };
	// A mark holds no keys: a check of an earlier release either holds or it does not.
	if (checkVerdict(stored as Partial<StoredState>, 'mark') !== 'holds') {
		return { lost: 'it was altered after it was saved (its check does not match, or was removed)' };
	}
	const handed = handedOf(stored);
	if (handed && 'lost' in handed) return handed;
	return handed ? { scope: stored.scope, handed } : { scope: stored.scope };
}
