import { KEY_HASH_BYTES, type DownloadFailure, type WatchState } from './state';

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
	/** Key hash → [fingerprint, attempts]. */
	failures?: Record<string, [number, number]>;
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

export function encodeState(state: WatchState, scope: string): StoredState {
	const hashes = [...state.files.keys()].sort();
	const buffer = Buffer.alloc(hashes.length * RECORD_BYTES);
	hashes.forEach((hash, i) => {
		buffer.write(hash, i * RECORD_BYTES, KEY_HASH_BYTES, 'hex');
		buffer.writeUInt32BE(state.files.get(hash)!, i * RECORD_BYTES + KEY_HASH_BYTES);
	});
	const stored: StoredState = { version: 1, scope, count: hashes.length, files: buffer.toString('base64') };
	if (state.keys) stored.keys = frontCode(state.keys);
	if (state.missing?.size) stored.missing = Buffer.from([...state.missing].sort().join(''), 'hex').toString('base64');
	if (state.failures?.size) {
		stored.failures = {};
		for (const [hash, failure] of state.failures) stored.failures[hash] = [failure.fingerprint, failure.attempts];
	}
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

function decodeFailures(coded: unknown): Map<string, DownloadFailure> | undefined {
	if (!coded || typeof coded !== 'object') return undefined;
	const failures = new Map<string, DownloadFailure>();
	for (const [hash, value] of Object.entries(coded)) {
		if (!Array.isArray(value) || !value.every((n) => Number.isInteger(n) && n >= 0)) continue;
		failures.set(hash, { fingerprint: value[0] as number, attempts: value[1] as number });
	}
	return failures;
}

/**
 * The state saved for `scope`; undefined when there is none, it is for another scope or unreadable.
 * With `keepKeys` (File Deleted watched) every file's key must be there: a state without them would
 * never report a deletion again, and silently.
 */
export function decodeState(stored: unknown, scope: string, keepKeys = false): WatchState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const candidate = stored as Partial<StoredState>;
	if (candidate.version !== 1 || candidate.scope !== scope || typeof candidate.files !== 'string') return undefined;
	const buffer = Buffer.from(candidate.files, 'base64');
	if (buffer.length % RECORD_BYTES !== 0 || buffer.length / RECORD_BYTES !== candidate.count) return undefined;
	const state: WatchState = { files: new Map() };
	for (let at = 0; at < buffer.length; at += RECORD_BYTES) {
		state.files.set(buffer.toString('hex', at, at + KEY_HASH_BYTES), buffer.readUInt32BE(at + KEY_HASH_BYTES));
	}
	if (typeof candidate.keys === 'string') {
		try {
			state.keys = frontDecode(candidate.keys);
		} catch {
			return undefined;
		}
	}
	if (keepKeys && state.keys?.length !== candidate.count) return undefined;
	const missing = decodeMissing(candidate.missing);
	if (missing) state.missing = missing;
	const failures = decodeFailures(candidate.failures);
	if (failures) state.failures = failures;
	return state;
}

/** Saved where a poll after the first could record no baseline: the next poll records one. */
export function pendingBaseline(scope: string): { version: 1; scope: string; pending: true } {
	return { version: 1, scope, pending: true };
}

/**
 * What a poll finds in the static data: nothing (a first poll: `first`), a state of another scope
 * (the watched files changed: afresh), a mark that no baseline could be recorded yet (afresh), the
 * state, or something that is none of these: a state that was lost (edited, truncated, written by
 * an unknown release), named in `lost`.
 */
export function readState(
	stored: unknown,
	scope: string,
	keepKeys = false,
): { state?: WatchState; lost?: string; first?: boolean; otherScope?: boolean } {
	if (stored === undefined || stored === null) return { first: true };
	const candidate = stored as Partial<StoredState> & { pending?: unknown };
	if (candidate.version === 1 && candidate.pending === true) return {};
	const otherScope = typeof stored === 'object' && candidate.version === 1 && typeof candidate.scope === 'string';
	if (otherScope && candidate.scope !== scope) return { otherScope: true };
	const state = decodeState(stored, scope, keepKeys);
	if (state) return { state };
	const version = typeof stored === 'object' ? (candidate.version ?? 'none') : typeof stored;
	return { lost: `the saved state (version ${String(version)}) could not be read` };
}
