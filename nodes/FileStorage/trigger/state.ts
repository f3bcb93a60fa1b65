import { createHash } from 'node:crypto';

/**
 * What the trigger remembers between polls, and how a scan is compared with it.
 *
 * Every watched file costs 12 bytes: the first 8 bytes of the SHA-256 of its key and the first
 * 4 bytes of the SHA-256 of its fingerprint (size, last_modified, content_type, visibility).
 * They are stored sorted by key hash as one base64 string: 16 characters per file. Keys are
 * only kept when File Deleted is watched (a deletion must name its key): sorted and
 * front-coded (each key stores how many leading characters it shares with the previous one,
 * and the rest).
 *
 * A scan read over several pages is not a snapshot (a file removed while it runs can make it
 * miss another, and other changes can make the next scan miss it again), so a deletion such a
 * scan finds is only a candidate: the poll asks the service for that file before it reports it.
 * Without kept keys there is nobody to ask about, and nothing is reported: a file one such scan
 * misses is kept, marked `missing`, and only forgotten when the next scan misses it too.
 * Download failures are counted per file so that a file the CDN keeps refusing is given up after
 * a few polls instead of blocking the others. Both are optional fields: a state saved before
 * them loads as it is.
 */

export type ChangeEvent = 'created' | 'updated' | 'deleted';

export const CHANGE_EVENTS: readonly ChangeEvent[] = ['created', 'updated', 'deleted'];

/** A file as the listing shows it. */
export interface ListedFile {
	key: string;
	name: string;
	size: number | null;
	content_type: string | null;
	last_modified: string | null;
	visibility: string | null;
}

export interface DownloadFailure {
	/** The version of the file that failed; a new version starts counting afresh. */
	fingerprint: number;
	attempts: number;
}

export interface WatchState {
	/** Key hash (16 hex digits) → fingerprint hash (unsigned 32-bit). */
	files: Map<string, number>;
	/** Sorted keys; only when deletions are watched. */
	keys?: string[];
	/** Key hashes of files the last scan missed but could not vouch for (see above). */
	missing?: Set<string>;
	/** Key hash → failed downloads of a change not emitted yet. */
	failures?: Map<string, DownloadFailure>;
}

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

export interface Change {
	event: ChangeEvent;
	key: string;
	/** The file as listed now; undefined for a deletion. */
	file?: ListedFile;
	/** A deletion only a scan over several pages found: the file may still be there (see above). */
	unconfirmed?: boolean;
}

const KEY_HASH_BYTES = 8;
const FINGERPRINT_BYTES = 4;
const RECORD_BYTES = KEY_HASH_BYTES + FINGERPRINT_BYTES;

export function keyHash(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest().subarray(0, KEY_HASH_BYTES).toString('hex');
}

export function fingerprint(file: ListedFile): number {
	const text = [file.size, file.last_modified, file.content_type, file.visibility].map(String).join('\n');
	return createHash('sha256').update(text, 'utf8').digest().readUInt32BE(0);
}

/** A state can only be compared with a scan of the same files: another scope starts afresh. */
export function scopeOf(parts: {
	bucket: string;
	region: string;
	prefix: string;
	recursive: boolean;
	filter: string;
	keepKeys: boolean;
}): string {
	const text = JSON.stringify([
		parts.bucket,
		parts.region,
		parts.prefix,
		parts.recursive,
		parts.filter.trim(),
		parts.keepKeys,
	]);
	return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function byCodeUnits(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The state a scan describes. */
export function stateOf(files: ListedFile[], keepKeys: boolean): WatchState {
	const state: WatchState = { files: new Map() };
	for (const file of files) state.files.set(keyHash(file.key), fingerprint(file));
	if (keepKeys) state.keys = files.map((file) => file.key).sort(byCodeUnits);
	return state;
}

export function emptyState(keepKeys: boolean): WatchState {
	return keepKeys ? { files: new Map(), keys: [] } : { files: new Map() };
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

/** The state saved for `scope`; undefined when there is none, it is for another scope or unreadable. */
export function decodeState(stored: unknown, scope: string): WatchState | undefined {
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
	const missing = decodeMissing(candidate.missing);
	if (missing) state.missing = missing;
	const failures = decodeFailures(candidate.failures);
	if (failures) state.failures = failures;
	return state;
}

function timeOf(file: ListedFile | undefined): number {
	const time = Date.parse(String(file?.last_modified ?? ''));
	return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
}

/**
 * Whether a state without keys may forget a file absent from the scan: `settled` says the scan
 * was a snapshot (each folder answered in one request); otherwise only a second scan in a row
 * without it counts. Forgetting only decides whether the file is new should it come back.
 */
function forgotten(previous: WatchState, hash: string, settled: boolean): boolean {
	return settled || previous.missing?.has(hash) === true;
}

/**
 * Every difference between the previous state and a complete scan, oldest first: created and
 * updated files by last_modified, then key; then deletions (the listing cannot say when a file
 * went away) by key. Deletions can only be named when the previous state kept keys; those of a
 * scan that was not a snapshot are marked `unconfirmed`, for the caller to check.
 */
export function diff(previous: WatchState, current: ListedFile[], settled = true): Change[] {
	const changes: Change[] = [];
	for (const file of current) {
		const known = previous.files.get(keyHash(file.key));
		if (known === undefined) changes.push({ event: 'created', key: file.key, file });
		else if (known !== fingerprint(file)) changes.push({ event: 'updated', key: file.key, file });
	}
	changes.sort((a, b) => timeOf(a.file) - timeOf(b.file) || byCodeUnits(a.key, b.key));
	if (previous.keys) {
		const present = new Set(current.map((file) => file.key));
		for (const key of previous.keys) {
			if (present.has(key)) continue;
			changes.push(settled ? { event: 'deleted', key } : { event: 'deleted', key, unconfirmed: true });
		}
	}
	return changes;
}

/**
 * The state after a poll: the scan, except that changes the poll found but did not emit
 * (beyond Max Files Per Poll, out of poll time, a download that failed, or a deletion the
 * service said is not one) are left as they were, so the next poll finds them again. Without
 * kept keys, files an unsettled scan missed for the first time are kept (marked missing).
 * Changes of kinds nobody watches are taken in silently.
 */
export function advance(previous: WatchState, current: ListedFile[], withheld: Change[], settled = true): WatchState {
	const next = stateOf(current, previous.keys !== undefined);
	const keys = next.keys ? new Set(next.keys) : undefined;
	const missing = new Set<string>();
	if (!settled && !keys) {
		for (const [hash, known] of previous.files) {
			if (next.files.has(hash) || forgotten(previous, hash, settled)) continue;
			next.files.set(hash, known);
			missing.add(hash);
		}
	}
	for (const change of withheld) {
		const hash = keyHash(change.key);
		const before = previous.files.get(hash);
		if (change.event === 'created') {
			next.files.delete(hash);
			keys?.delete(change.key);
		} else if (before !== undefined) {
			next.files.set(hash, before);
			keys?.add(change.key);
		}
	}
	if (keys) next.keys = [...keys].sort(byCodeUnits);
	if (missing.size > 0) next.missing = missing;
	return next;
}
