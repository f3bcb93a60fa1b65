import { createHash } from 'node:crypto';

import { keyHash } from './state';
import type { StoredState } from './stateCodec';

/**
 * The integrity check of a stored state or pending mark: a short hash over everything it says, so that a state
 * altered in the database (a hand edit, a damaged row) whose fields still decode is not read as changes.
 *
 * Text is hashed by its UTF-16 code units, exactly as it is kept. Kept keys are front-coded by code units, so a key
 * that shares the first half of an emoji with the key before it stores a lone surrogate; read as UTF-8, every lone
 * surrogate is the same replacement character, and one altered into another went unseen. Releases before this one
 * hashed UTF-8 (`'utf8'` below): see checkVerdict for how their states are still read.
 */
type Reading = 'utf16le' | 'utf8';

/** Bytes of SHA-256 kept as the integrity check: an accidental change goes unseen once in 2^64. */
const CHECK_BYTES = 8;

/** The one place text enters the hash: every part of a state, key list, records aside, mark and held changes. */
function digestOf(stored: Partial<StoredState>, reading: Reading): string {
	const hash = createHash('sha256');
	const feed = (text: string) => hash.update(text, reading);
	// Failures are hashed in key order: a database that reorders an object's keys changes nothing.
	const failures = Object.entries(stored.failures ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	const parts = [stored.version, stored.scope, stored.place, stored.count, stored.missing, failures];
	feed(JSON.stringify(parts.map((part) => part ?? null)));
	// The two large strings are hashed as they are (no copy of them is made).
	for (const text of [stored.files, stored.keys]) {
		feed(typeof text === 'string' ? `\n${text.length}:` : '\n-');
		if (typeof text === 'string') feed(text);
	}
	// Fields added since the check was introduced count only when present, so that earlier checks still match.
	for (const [name, value] of Object.entries(addedFields(stored))) {
		if (value === undefined) continue;
		const text = typeof value === 'string' ? value : JSON.stringify(value);
		feed(`\n${name} ${text.length}:`);
		feed(text);
	}
	return hash.digest().subarray(0, CHECK_BYTES).toString('hex');
}

function addedFields(stored: Partial<StoredState>): { aside: unknown; pending: unknown } {
	return { aside: stored.aside, pending: (stored as { pending?: unknown }).pending };
}

/** What is checked: a state, or the mark a poll saves where it could record no baseline (pendingMark.ts). */
export type Stored = 'state' | 'mark';

/**
 * Whether what is stored holds a field that only releases saving a check ever wrote, so that without its check it can
 * only have lost it by hand (a lost state, never read as it is). `place` came with the check, `aside` after it; a
 * state's `failures` held only [fingerprint, attempts] before it (a held change, or anything else, came after); a
 * mark carried no `failures` at all before it. States and marks of releases before the check hold none of these.
 */
function writtenWithCheck(stored: Partial<StoredState>, kind: Stored): boolean {
	if (stored.place !== undefined || stored.aside !== undefined) return true;
	const { failures } = stored;
	if (failures === undefined) return false;
	if (kind === 'mark' || !failures || typeof failures !== 'object' || Array.isArray(failures)) return true;
	return Object.values(failures as object).some((value) => !Array.isArray(value) || value.length !== 2);
}

/** The check this release saves. */
export function checkOf(stored: Partial<StoredState>): string {
	return digestOf(stored, 'utf16le');
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (compared by code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(text: string): boolean {
	return LONE_SURROGATE.test(text);
}

/**
 * Whether the check vouches for what is stored: `holds`; `altered`; or `keysToProve`, a check of an earlier release
 * over a key list holding lone surrogates, which that check cannot tell apart (the caller proves the keys with
 * keysProven, or the state is lost). A check of an earlier release (UTF-8) is as strict as this one wherever no lone
 * surrogate is read; the check of this release never matches it, so a state saved now and altered is never taken for
 * a state of an earlier release. No check at all (releases before it) is read as it is, unless what is stored holds
 * what only releases that save a check ever wrote (writtenWithCheck): its check was removed.
 */
export function checkVerdict(
	stored: Partial<StoredState>,
	kind: Stored = 'state',
): 'holds' | 'altered' | 'keysToProve' {
	if (stored.check === undefined) return writtenWithCheck(stored, kind) ? 'altered' : 'holds';
	if (stored.check === checkOf(stored)) return 'holds';
	if (stored.check !== digestOf(stored, 'utf8')) return 'altered';
	const { aside, pending } = addedFields(stored);
	for (const text of [stored.files, aside, pending])
		if (typeof text === 'string' && hasLoneSurrogate(text)) return 'altered';
	return typeof stored.keys === 'string' && hasLoneSurrogate(stored.keys) ? 'keysToProve' : 'holds';
}

/**
 * Whether the files' records vouch for the decoded keys, one record each: the records were hashed exactly (base64)
 * and name each file by the SHA-256 of its key. A lone surrogate altered into another changes the key it is part of
 * (and those after it that share it) into a key that is not well formed, or whose hash is no record.
 */
export function keysProven(keys: string[], files: Map<string, number>): boolean {
	if (keys.length !== files.size || keys.some(hasLoneSurrogate)) return false;
	const hashes = new Set(keys.map(keyHash));
	return hashes.size === files.size && [...hashes].every((hash) => files.has(hash));
}
