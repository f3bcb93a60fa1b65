import { fingerprint, keyHash, sameVersion, type Change, type DownloadFailure } from './state';

/**
 * Failed downloads are counted per file across polls, so that a file the CDN keeps refusing is
 * given up on (emitted without its file) instead of holding itself back for ever.
 */

/** Polls in which a file's download may fail before it is emitted without its file. */
export const DOWNLOAD_ATTEMPTS = 3;

/** Polls in which this version of the changed file failed to download so far. */
export function attemptsBefore(failures: Map<string, DownloadFailure> | undefined, change: Change): number {
	const failure = change.file ? failures?.get(keyHash(change.key)) : undefined;
	return failure && sameVersion(failure.fingerprint, change.file!) ? failure.attempts : 0;
}

/** Counts against this version of the file only: a new version starts afresh. */
export function recordAttempts(failures: Map<string, DownloadFailure>, change: Change, attempts: number): void {
	failures.set(keyHash(change.key), { fingerprint: fingerprint(change.file!), attempts });
}

/** What n8n's log says of a download held back for the next poll (the poll itself does not fail). */
export function downloadWarning(key: string, error: unknown, attempts: number): string {
	return `File Storage Trigger: the download of '${key}' failed (${attempts} of ${DOWNLOAD_ATTEMPTS} polls); the file is tried again with the next poll, and after ${DOWNLOAD_ATTEMPTS} it is emitted without its file, with the error in the item's "error" field. ${(error as Error).message}`;
}
