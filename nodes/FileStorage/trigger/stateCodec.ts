import { KEY_HASH_BYTES, type DownloadFailure, type HeldChange, type WatchState } from './state';
import { checkOf, checkVerdict, keysProven } from './stateCheck';

/**
 * How the state is stored in the node's static data, which n8n saves with the workflow: small
 * enough for folders of many thousands of files.
 *
 * Every watched file costs 12 bytes: the first 8 bytes of the SHA-256 of its key and the first
 * 4 bytes of the SHA-256 of its fingerprint. They are stored sorted by key hash as one base64
 * string: 16 characters per file. Kept keys are sorted and front-coded (each key stores how many
 * leading characters it shares with the previous one, and the rest).
 */

/** The fingerprint hash is an unsigned 32-bit number. */
const FINGERPRINT_BYTES = 4;
const RECORD_BYTES = KEY_HASH_BYTES + FINGERPRINT_BYTES;

export interface StoredState {
	version: 1;
	/** What the state describes (bucket, region, folder, subfolders, filter, deletions): see scopeOf. */
	scope: string;
	count: number;
	files: string;
	keys?: string;
	/** Key hashes, 8 bytes each, base64. */
	missing?: string;
	/**
	 * Key hash → [fingerprint, attempts], then the held change when kept: event, key, name, size, content type, date,
	 * visibility, and ASIDE_MARK for one kept aside (its file out of the watched scope).
	 */
	failures?: Record<string, StoredFailure>;
	/** The bucket and region (see placeOf): a state of other files there may still name some of them. */
	place?: string;
	/** Records of files of the bucket out of the watched scope (outOfScope.ts), as `files`, latest set aside first. */
	aside?: string;
	/**
	 * A short hash of all the above (stateCheck.ts). States saved by earlier releases lack it and are read as they are,
	 * unless they hold what only states with a check held (`place`, `aside`, a held change): then it was removed.
	 */
	check?: string;
}

export function frontCode(sortedKeys: string[]): string {
	let previous = '';
	let out = '';
	for (const key of sortedKeys) {
		let shared = 0;
		const most = Math.min(previous.length, key.length);
		while (shared < most && previous.charCodeAt(shared) === key.charCodeAt(shared)) shared++;
		const rest = key.slice(shared);
		out += `${shared.toString(36)},${rest.length.toString(36)},${rest}`;
		previous = key;
	}
	return out;
}

export function frontDecode(coded: string): string[] {
	const keys: string[] = [];
	let previous = '';
	let at = 0;
	const number = () => {
		const comma = coded.indexOf(',', at);
		if (comma === -1) throw new Error('truncated key list');
		const value = parseInt(coded.slice(at, comma), 36);
		if (!Number.isInteger(value) || value < 0) throw new Error('malformed key list');
		at = comma + 1;
		return value;
	};
	while (at < coded.length) {
		const shared = number();
		const length = number();
		if (shared > previous.length || at + length > coded.length) throw new Error('malformed key list');
		const key = previous.slice(0, shared) + coded.slice(at, at + length);
		at += length;
		keys.push(key);
		previous = key;
	}
	return keys;
}

/** Records (key hash → fingerprint) in the order of `hashes`, 12 bytes each, as base64. */
export function encodeRecords(hashes: string[], records: Map<string, number>): string {
	const buffer = Buffer.alloc(hashes.length * RECORD_BYTES);
	hashes.forEach((hash, i) => {
		buffer.write(hash, i * RECORD_BYTES, KEY_HASH_BYTES, 'hex');
		buffer.writeUInt32BE(records.get(hash)!, i * RECORD_BYTES + KEY_HASH_BYTES);
	});
	return buffer.toString('base64');
}

export function encodeState(state: WatchState, scope: string, place?: string): StoredState {
	const hashes = [...state.files.keys()].sort();
	const stored: StoredState = { version: 1, scope, count: hashes.length, files: encodeRecords(hashes, state.files) };
	if (place !== undefined) stored.place = place;
	if (state.aside?.size) stored.aside = encodeRecords([...state.aside.keys()], state.aside);
	if (state.keys) stored.keys = frontCode(state.keys);
	if (state.missing?.size) stored.missing = Buffer.from([...state.missing].sort().join(''), 'hex').toString('base64');
	const failures = encodeFailures(state);
	if (failures) stored.failures = failures;
	stored.check = checkOf(stored);
	return stored;
}

/** Optional parts that do not decode are dropped: at worst a deletion waits a poll or a download is retried. */
function decodeMissing(coded: unknown): Set<string> | undefined {
	if (typeof coded !== 'string') return undefined;
	const buffer = Buffer.from(coded, 'base64');
	if (buffer.length % KEY_HASH_BYTES !== 0) return undefined;
	const missing = new Set<string>();
	for (let at = 0; at < buffer.length; at += KEY_HASH_BYTES) {
		missing.add(buffer.toString('hex', at, at + KEY_HASH_BYTES));
	}
	return missing;
}

export type StoredFailure = [number, number] | [number, number, ...Array<string | number | null>];

/**
 * Ends a held change kept aside. Stored among the others, so that the check of earlier releases still holds and they
 * read it as a count only (a held change they cannot read: dropped by them, as they would drop it).
 */
const ASIDE_MARK = 'aside';

/** The held changes and counts of a state, those aside marked; undefined when there are none. */
function encodeFailures(state: WatchState): Record<string, StoredFailure> | undefined {
	if (!state.failures?.size && !state.heldAside?.size) return undefined;
	const stored: Record<string, StoredFailure> = {};
	for (const [hash, failure] of state.heldAside ?? []) {
		if (failure.held) stored[hash] = [...encodeFailure(failure), ASIDE_MARK] as StoredFailure;
	}
	for (const [hash, failure] of state.failures ?? []) stored[hash] = encodeFailure(failure);
	return stored;
}

export function encodeFailure({ fingerprint, attempts, held }: DownloadFailure): StoredFailure {
	if (!held) return [fingerprint, attempts];
	const { key, name, size, content_type, last_modified, visibility } = held.file;
	return [fingerprint, attempts, held.event, key, name, size, content_type, last_modified, visibility];
}

/** The held change of a stored failure, when it is there and whole (a damaged one is dropped: the counts still hold). */
function decodeHeld(value: unknown[]): HeldChange | undefined {
	const [event, key, name, size, ...words] = value.slice(2, 9);
	const whole = value.length === 9 || (value.length === 10 && value[9] === ASIDE_MARK);
	if (!whole || (event !== 'created' && event !== 'updated')) return undefined;
	if (typeof key !== 'string' || typeof name !== 'string' || (size !== null && typeof size !== 'number'))
		return undefined;
	if (!words.every((word) => word === null || typeof word === 'string')) return undefined;
	const [content_type, last_modified, visibility] = words as Array<string | null>;
	return { event, file: { key, name, size, content_type, last_modified, visibility } };
}

/** Held changes and counts as stored, those aside apart (`aside`, with their held change only). */
export function decodeFailureParts(coded: unknown): Pick<WatchState, 'failures' | 'heldAside'> {
	if (!coded || typeof coded !== 'object') return {};
	const failures = new Map<string, DownloadFailure>();
	const aside = new Map<string, DownloadFailure>();
	for (const [hash, value] of Object.entries(coded)) {
		if (!Array.isArray(value) || !value.slice(0, 2).every((n) => Number.isInteger(n) && n >= 0)) continue;
		if (value.length < 2) continue;
		const failure: DownloadFailure = { fingerprint: value[0] as number, attempts: value[1] as number };
		const held = decodeHeld(value);
		if (held) failure.held = held;
		if (held && value.length === 10) aside.set(hash, failure);
		else failures.set(hash, failure);
	}
	return aside.size > 0 ? { failures, heldAside: aside } : { failures };
}

/** Held changes and counts, those aside among them (a mark hands them all over: the baseline sorts them). */
export function decodeFailures(coded: unknown): Map<string, DownloadFailure> | undefined {
	const { failures, heldAside } = decodeFailureParts(coded);
	return failures && new Map([...(heldAside ?? []), ...failures]);
}

/** The records, when `files` is exactly what encodeRecords writes (for `count` files, when given). */
export function decodeRecords(files: unknown, count?: unknown): Map<string, number> | undefined {
	if (typeof files !== 'string') return undefined;
	if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count))) return undefined;
	const buffer = Buffer.from(files, 'base64');
	// Base64 decoding skips what is not base64: a changed character must not pass unseen.
	if (buffer.toString('base64') !== files || buffer.length % RECORD_BYTES !== 0) return undefined;
	if (count !== undefined && buffer.length !== (count as number) * RECORD_BYTES) return undefined;
	const records = new Map<string, number>();
	for (let at = 0; at < buffer.length; at += RECORD_BYTES) {
		records.set(buffer.toString('hex', at, at + KEY_HASH_BYTES), buffer.readUInt32BE(at + KEY_HASH_BYTES));
	}
	return records;
}

function decodeKeys(coded: unknown, count: unknown): string[] | undefined {
	if (typeof coded !== 'string') return undefined;
	try {
		const keys = frontDecode(coded);
		return keys.length === count ? keys : undefined;
	} catch {
		return undefined;
	}
}

/** What a stored state holds, or why it cannot be trusted. */
export type OpenedState = { state: WatchState; scope: string; place?: string } | { lost: string };

export const SCOPE_PATTERN = /^[0-9a-f]{16}$/;

/**
 * A stored state decoded and checked whole, before what it describes is looked at: a damaged
 * state is lost, never taken for a state of other files.
 */
export function openState(stored: unknown): OpenedState {
	if (!stored || typeof stored !== 'object' || Array.isArray(stored)) {
		return { lost: `what is saved is not a state (${Array.isArray(stored) ? 'a list' : typeof stored})` };
	}
	const candidate = stored as Partial<StoredState>;
	if (candidate.version !== 1)
		return { lost: `version ${String(candidate.version ?? 'none')} is unknown to this release` };
	if (typeof candidate.scope !== 'string' || !SCOPE_PATTERN.test(candidate.scope))
		return { lost: 'its scope is damaged' };
	const verdict = checkVerdict(candidate);
	if (verdict === 'altered')
		return { lost: 'it was altered after it was saved (its check does not match, or was removed)' };
	const files = decodeRecords(candidate.files, candidate.count ?? null);
	if (!files) return { lost: 'its list of files is cut short or damaged' };
	const state: WatchState = { files };
	if (candidate.aside !== undefined) {
		const aside = decodeRecords(candidate.aside);
		if (!aside) return { lost: 'its records of files out of the watched scope are damaged' };
		state.aside = aside;
	}
	if (candidate.keys !== undefined) {
		const keys = decodeKeys(candidate.keys, candidate.count);
		if (!keys) return { lost: 'its list of keys is cut short or damaged' };
		if (verdict === 'keysToProve' && !keysProven(keys, files)) {
			return { lost: 'it was altered after it was saved (its list of keys does not match its files)' };
		}
		state.keys = keys;
	}
	const missing = decodeMissing(candidate.missing);
	if (missing) state.missing = missing;
	const { failures, heldAside } = decodeFailureParts(candidate.failures);
	if (failures) state.failures = failures;
	if (heldAside) state.heldAside = heldAside;
	return typeof candidate.place === 'string'
		? { state, scope: candidate.scope, place: candidate.place }
		: { state, scope: candidate.scope };
}

/**
 * The state saved for `scope`; undefined when there is none, it is for another scope or unreadable.
 * With `keepKeys` (File Deleted watched) every file's key must be there: a state without them would
 * never report a deletion again, and silently.
 */
export function decodeState(stored: unknown, scope: string, keepKeys = false): WatchState | undefined {
	const opened = openState(stored);
	if ('lost' in opened || opened.scope !== scope || (keepKeys && !opened.state.keys)) return undefined;
	return opened.state;
}
