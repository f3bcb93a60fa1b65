import { fingerprint, keyHash, type Change, type DownloadFailure } from './state';

/**
 * Failed downloads are counted per file across polls, so that a file the CDN keeps refusing is
 * given up on (emitted without its file) instead of holding itself back for ever.
 */

/** Polls in which a file's download may fail before it is emitted without its file. */
export const DOWNLOAD_ATTEMPTS = 3;

/**
 * Polls in which the change of this file was held back so far, whichever versions they listed: a file another writer
 * rewrites between every poll's listing and its download (each download refused as a later version than listed) is
 * still given up on, never held back for ever. The count ends only when the change is emitted (its download succeeds,
 * or it is given up on). A count saved by an earlier release (per version) is at most this one: it is read as it is.
 */
export function attemptsBefore(failures: Map<string, DownloadFailure> | undefined, change: Change): number {
	const failure = change.file ? failures?.get(keyHash(change.key)) : undefined;
	return failure?.attempts ?? 0;
}

/**
 * Held changes whose listing is kept at most (about 1.5 MB stored), those kept aside (outOfScope.ts) included: a CDN
 * refusing every download of a large folder keeps the state bounded. A change beyond them is still held back (the
 * state stays as it was for it, so every poll finds it again) and tried again, and its listing is kept once there is
 * room; but it is not emitted if its file goes away before (heldBack.ts).
 */
export const HELD_CHANGES = 10_000;

/**
 * Counts against the file's key, with the version held last (its newest listing): a new version does not start
 * afresh. The change itself is kept too (heldBack.ts) while fewer than HELD_CHANGES are, counting `heldBefore`: those
 * this poll keeps beside `failures` (earlier ones not settled yet, and those aside).
 */
export function recordAttempts(
	failures: Map<string, DownloadFailure>,
	change: Change,
	attempts: number,
	heldBefore = 0,
): void {
	const failure: DownloadFailure = { fingerprint: fingerprint(change.file!), attempts };
	const { event, file } = change;
	if (event !== 'deleted' && file && failures.size + heldBefore < HELD_CHANGES) failure.held = { event, file };
	failures.set(keyHash(change.key), failure);
}

/** Held changes (with their listing) among `failures`. */
export function heldCount(failures: Map<string, DownloadFailure> | undefined): number {
	let count = 0;
	for (const failure of failures?.values() ?? []) if (failure.held) count++;
	return count;
}

/** What n8n's log says of a download held back for the next poll (the poll itself does not fail). */
export function downloadWarning(key: string, error: unknown, attempts: number): string {
	return `File Storage Trigger: the download of '${key}' failed (${attempts} of ${DOWNLOAD_ATTEMPTS} polls); the file is tried again with the next poll, and after ${DOWNLOAD_ATTEMPTS} it is emitted without its file, with the error in the item's "error" field. ${(error as Error).message}`;
}
