import type { DownloadFailure, WatchState } from './state';

/**
 * Records of files that fell out of the watched scope (Emit Existing Files: a folder or filter narrowed, Include
 * Subfolders turned off). Emit Existing Files emits a file once: when the scope is widened back, the files it
 * recorded before are not new, so their records are kept aside, by the same 12 bytes as a watched file's, and
 * taken back when a complete scan lists them again. A file changed while out of scope comes back as `updated`
 * (when File Updated is watched), as a widened scope treats the files it recorded.
 * Held-back changes of files leaving the scope are kept aside with them (heldAside, stored with the held changes,
 * marked, within HELD_CHANGES with those watched), and come back when a later scope of the bucket watches the file.
 */

/**
 * Records kept aside at most (1.6 MB stored): the state stays bounded however many files a narrowed scope leaves
 * out. Those set aside last are kept first; a file whose record was dropped is emitted again if the scope widens
 * back to it.
 */
export const OUT_OF_SCOPE_RECORDS = 100_000;

/**
 * The records aside after a scope change: those of the saved state a complete scan of the new scope did not list,
 * the ones just left out first, then the older ones aside.
 */
export function setAside(saved: WatchState, listed: ReadonlySet<string>): Map<string, number> {
	const aside = new Map<string, number>();
	for (const records of [saved.files, saved.aside ?? new Map<string, number>()]) {
		for (const [hash, known] of records) {
			if (aside.size >= OUT_OF_SCOPE_RECORDS) return aside;
			if (!listed.has(hash) && !aside.has(hash)) aside.set(hash, known);
		}
	}
	return aside;
}

/** The records aside a poll keeps: a file watched again (stored again in scope) is recorded with the watched ones. */
export function keptAside(previous: WatchState, next: WatchState): Map<string, number> | undefined {
	if (!previous.aside?.size) return undefined;
	const aside = new Map<string, number>();
	for (const [hash, known] of previous.aside) if (!next.files.has(hash)) aside.set(hash, known);
	return aside.size > 0 ? aside : undefined;
}

/** The held changes of a state, sorted by a new scope: those of files it watches, and those of the others (aside). */
export interface HeldByScope {
	watched: Map<string, DownloadFailure>;
	aside: Map<string, DownloadFailure>;
}

/** Held changes watched or aside before go where the new scope puts their file: none is dropped by a change of scope. */
export function heldByScope(earlier: WatchState, watches: (key: string) => boolean): HeldByScope {
	const sorted: HeldByScope = { watched: new Map(), aside: new Map() };
	for (const held of [earlier.heldAside, earlier.failures]) {
		for (const [hash, failure] of held ?? []) {
			if (failure.held) (watches(failure.held.file.key) ? sorted.watched : sorted.aside).set(hash, failure);
		}
	}
	return sorted;
}

/**
 * What a pending mark (pendingMark.ts) carries of the state before a change of scope, the new scope having no
 * baseline yet: every record it kept, set aside (the records it watched first, within OUT_OF_SCOPE_RECORDS), and its
 * held-back changes, those aside included (the baseline sorts them by its scope: heldCarriedOver).
 */
export function handOver(earlier: WatchState): WatchState {
	const handed: WatchState = { files: new Map(), aside: setAside(earlier, new Set()) };
	const { watched, aside } = heldByScope(earlier, () => true);
	const held = new Map([...aside, ...watched]);
	if (held.size > 0) handed.failures = held;
	return handed;
}
