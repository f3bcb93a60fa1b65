import { createHash } from 'node:crypto';

import { timeOf } from '../listing/listingTime';
import { setAside } from './outOfScope';

/**
 * What the trigger remembers between polls, and how a scan is compared with it (how it is
 * stored: stateCodec.ts). A file is remembered by two hashes: of its key, and of its fingerprint
 * (size, last_modified, content_type, visibility). Keys are only kept when File Deleted is
 * watched (a deletion must name its key).
 *
 * A scan read over several pages is not a snapshot (a file removed while it runs can make it
 * miss another, and other changes can make the next scan miss it again), so a deletion such a
 * scan finds is only a candidate: the poll asks the service for that file before it reports it.
 * Without kept keys there is nobody to ask about, and nothing is reported: a file is forgotten
 * only when a complete scan (scan.ts) lacks it. `missing` is only read from states saved by
 * 0.x releases, which marked files one scan missed; it is no longer written.
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
	/** The version of the file held last (its newest listing); a new version goes on counting (attempts.ts). */
	fingerprint: number;
	/** Polls the file's change was held back, across its versions. */
	attempts: number;
	/**
	 * The change held back, as listed: emitted without its file if a later scan no longer lists the file
	 * (heldBack.ts). States saved by earlier releases have none.
	 */
	held?: HeldChange;
}

/** A created or updated file whose change a poll held back (its download failed or was not shown to be the listed version). */
export interface HeldChange {
	event: 'created' | 'updated';
	file: ListedFile;
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
	/** Key hash → fingerprint of files of the bucket out of the watched scope, the latest set aside first (outOfScope.ts). */
	aside?: Map<string, number>;
	/** Key hash → held-back change of a file out of the watched scope, kept aside with its record (outOfScope.ts). */
	heldAside?: Map<string, DownloadFailure>;
}

export interface Change {
	event: ChangeEvent;
	key: string;
	/** The file as listed now; undefined for a deletion. */
	file?: ListedFile;
	/** A deletion only a scan over several pages found: the file may still be there (see above). */
	unconfirmed?: boolean;
}

/** Bytes of a key's SHA-256 kept: collisions stay negligible for millions of files. */
export const KEY_HASH_BYTES = 8;

export function keyHash(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest().subarray(0, KEY_HASH_BYTES).toString('hex');
}

function hashOfParts(parts: unknown[]): number {
	return createHash('sha256').update(parts.map(String).join('\n'), 'utf8').digest().readUInt32BE(0);
}

/**
 * The instant a listing date names, spelled one way ("2024-03-20T10:30:00Z", the spec's own spelling, with
 * milliseconds only when there are some): a gateway or a service upgrade that spells the same second another way
 * (no "Z", ".000Z", "+00:00") changes no file. A date that cannot be read is kept as it is.
 */
function instantOf(date: string | null): string | null {
	const time = timeOf(date);
	return time === undefined ? date : new Date(time).toISOString().replace(/\.000Z$/, 'Z');
}

/** Media types and the visibility are case-insensitive words: "Text/Plain " is "text/plain". */
function wordOf(text: string | null): string | null {
	return typeof text === 'string' ? text.trim().toLowerCase() : text;
}

/** The version of a file the listing shows: its size, the instant of its last_modified, its content type and visibility. */
export function fingerprint(file: ListedFile): number {
	return hashOfParts([file.size, instantOf(file.last_modified), wordOf(file.content_type), wordOf(file.visibility)]);
}

/** The fingerprint earlier releases saved: of the fields as the listing spelled them. */
function spelledFingerprint(file: ListedFile): number {
	return hashOfParts([file.size, file.last_modified, file.content_type, file.visibility]);
}

/**
 * Whether a saved fingerprint is of this version of the file. States saved from now on hold `fingerprint`; those
 * of earlier releases hold `spelledFingerprint`, which is the same number wherever the listing spelled the fields
 * as the spec does. For the others it is tried too, so that no unchanged file is reported after an upgrade; the
 * next save writes the new fingerprint.
 */
export function sameVersion(saved: number, file: ListedFile): boolean {
	return saved === fingerprint(file) || saved === spelledFingerprint(file);
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

/** Which bucket a state is of: a state of other files there may still name some of the files watched now. */
export function placeOf(bucket: string, region: string): string {
	return createHash('sha256')
		.update(JSON.stringify([bucket, region]), 'utf8')
		.digest('hex')
		.slice(0, 16);
}

/** Keys sort by UTF-16 code units, the same on every machine (no locale). */
export function byCodeUnits(a: string, b: string): number {
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

/**
 * A saved state taken over by a poll that watches with other settings, using a complete scan: a
 * state saved without keys when File Deleted was added (the keys come from the scan), or, with Emit
 * Existing Files, a state of other files of the same bucket (`otherScope`: a folder or filter changed;
 * the files it recorded, and those it kept aside, are not new). It keeps the record of each file the
 * scan shows, and the key when `keepKeys`. A file the scan lacks went away while deletions were not
 * watched (it is forgotten), or, for another scope, is no longer watched (its record is set aside:
 * outOfScope.ts); nobody is owed a deletion. But a key the old state kept (File Deleted watched then
 * and now) that the new scope still watches (`inScope`) and the scan lacks is a file watched before
 * and after the change that went away: its record and key stay, so that the poll reports its deletion
 * (checked with the service as any deletion a scan over several pages found). Only a complete scan
 * may be used: one that is not would drop a file it missed, and the next poll would report it created.
 */
export function recordsStillListed(
	saved: WatchState,
	complete: ListedFile[],
	keepKeys = true,
	otherScope = false,
	inScope?: (key: string) => boolean,
): WatchState {
	const state: WatchState = { ...saved, files: new Map(), keys: [] };
	const listed = new Set<string>();
	for (const file of complete) {
		const hash = keyHash(file.key);
		listed.add(hash);
		const known = saved.files.get(hash) ?? (otherScope ? saved.aside?.get(hash) : undefined);
		if (known === undefined) continue;
		state.files.set(hash, known);
		state.keys!.push(file.key);
	}
	if (keepKeys && otherScope && inScope) {
		for (const key of saved.keys ?? []) {
			const hash = keyHash(key);
			const known = saved.files.get(hash);
			if (listed.has(hash) || known === undefined || !inScope(key)) continue;
			// Watched in both scopes and gone: a deletion to report, not a record to set aside.
			listed.add(hash);
			state.files.set(hash, known);
			state.keys!.push(key);
		}
	}
	if (keepKeys) state.keys!.sort(byCodeUnits);
	else delete state.keys;
	delete state.missing;
	if (otherScope) state.aside = setAside(saved, listed);
	return state;
}

function timeOfFile(file: ListedFile | undefined): number {
	return timeOf(file?.last_modified) ?? Number.POSITIVE_INFINITY;
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
		else if (!sameVersion(known, file)) changes.push({ event: 'updated', key: file.key, file });
	}
	changes.sort((a, b) => timeOfFile(a.file) - timeOfFile(b.file) || byCodeUnits(a.key, b.key));
	if (previous.keys) {
		const present = new Set(current.map((file) => file.key));
		for (const key of previous.keys) {
			// Keys the settings do not watch were set aside before (heldBack.ts setAsideUnwatched): never deleted here.
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
 * kept keys, a file is forgotten only when a complete scan lacks it (it went away during that
 * scan); one an incomplete scan did not list is kept as it was, however many such scans miss it.
 * Changes of kinds nobody watches are taken in silently.
 */
export function advance(previous: WatchState, current: ListedFile[], withheld: Change[], complete = true): WatchState {
	const next = stateOf(current, previous.keys !== undefined);
	const keys = next.keys ? new Set(next.keys) : undefined;
	if (!complete && !keys) {
		for (const [hash, known] of previous.files) if (!next.files.has(hash)) next.files.set(hash, known);
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
	return next;
}
