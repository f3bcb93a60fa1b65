import type { INodeExecutionData } from 'n8n-workflow';

import { goneByService } from '../listing/stillStored';
import { heldByScope } from './outOfScope';
import { withoutFile } from './output';
import type { PollRun } from './run';
import type { TriggerSettings } from './settings';
import { watchesKey, type Scan } from './scan';
import { byCodeUnits, fingerprint, keyHash, type DownloadFailure, type ListedFile, type WatchState } from './state';

/**
 * Changes held back by an earlier poll (their download failed, or its answer was not shown to be the listed
 * version) whose file this poll's scan no longer lists. The change happened (a poll listed it), and nothing would
 * report it any more: the next scan has no file to compare. So it is emitted now, without its file, the reason in
 * `error`, before this poll's changes; with File Deleted, the file's deletion follows as any deletion (for a held
 * `created`, which the state never recorded, its record is added to the state compared: withGoneCreations), so that
 * it counts against Max Files Per Poll and, when no room is left, comes with the next poll.
 * A scan that is not complete proves no absence: the service is asked (one request per such change), and a change
 * it cannot confirm gone is kept for the next poll.
 */
export interface HeldGone {
	/** Held changes of files gone, as items: they come first. */
	items: INodeExecutionData[];
	/** Files of held `created` changes emitted (File Deleted watched): recorded, so that their deletion is reported. */
	created: ListedFile[];
	/** Held changes not settled this poll (no room left, or the service still has the file or could not say). */
	kept: Map<string, DownloadFailure>;
}

async function gone(run: PollRun, found: Scan, key: string): Promise<boolean> {
	if (found.complete) return true;
	return await goneByService(run.client, run.settings.where, key);
}

/** The held changes of `previous` this poll settles, at most Max Files Per Poll items' worth. */
export async function heldChangesGone(run: PollRun, previous: WatchState, found: Scan): Promise<HeldGone> {
	const out: HeldGone = { items: [], created: [], kept: new Map() };
	if (!previous.failures?.size) return out;
	const { settings } = run;
	const listed = new Set(found.files.map((file) => keyHash(file.key)));
	for (const [hash, failure] of previous.failures) {
		const held = failure.held;
		if (!held || listed.has(hash) || !settings.watch.has(held.event) || !watchesKey(settings, held.file.key)) continue;
		// Past the poll's time a held change waits for the next poll, as one beyond Max Files Per Poll does.
		const noRoom = out.items.length >= settings.maxFiles || Date.now() > run.deadline;
		if (noRoom || !(await gone(run, found, held.file.key))) {
			out.kept.set(hash, failure);
			continue;
		}
		const change = { event: held.event, key: held.file.key, file: held.file };
		const why = `The file was deleted after a poll listed it, while its download was held back (${failure.attempts} failed): its change is emitted without it`;
		out.items.push(withoutFile(settings, change, new Error(why)));
		if (held.event === 'created' && settings.watch.has('deleted') && previous.keys) out.created.push(held.file);
	}
	return out;
}

/**
 * The state this poll compares with: a held `created` just emitted was never recorded, so no scan would report its
 * deletion. Recorded as the version held, its deletion is one of this poll's changes (a deletion only a scan over
 * several pages found is checked with the service as any other), within Max Files Per Poll, else the next poll's.
 */
export function withGoneCreations(previous: WatchState, held: HeldGone): WatchState {
	if (held.created.length === 0 || !previous.keys) return previous;
	const files = new Map(previous.files);
	const keys = new Set(previous.keys);
	for (const file of held.created) {
		files.set(keyHash(file.key), fingerprint(file));
		keys.add(file.key);
	}
	return { ...previous, files, keys: [...keys].sort(byCodeUnits) };
}

/**
 * A state taken over after a change of scope (a baseline emitting nothing, or with Emit Existing Files the saved state
 * a complete scan carries over) keeps the held changes of the state before it whose files it watches, those kept aside
 * before included, so that none is dropped: a watched file keeps the record it had before its change (the version
 * before a held `updated`, from the records watched or aside; none for a held `created`), so that the next poll finds
 * the change again and tries its download with the count it had. A file the complete scan lacks is gone: its change is
 * emitted by the next poll without it (heldChangesGone); the record of a held `updated` stays, so that its deletion is
 * reported too. Held changes of files the new scope leaves out are kept aside (outOfScope.ts), with their records.
 */
export function heldCarriedOver(settings: TriggerSettings, earlier: WatchState, baseline: WatchState): void {
	const counts = [...(baseline.failures ?? [])].filter(([, failure]) => !failure.held);
	const failures = new Map<string, DownloadFailure>(counts);
	const keys = baseline.keys ? new Set(baseline.keys) : undefined;
	const sorted = heldByScope(earlier, (key) => watchesKey(settings, key));
	for (const [hash, failure] of sorted.watched) {
		const held = failure.held!;
		if (!settings.watch.has(held.event)) continue;
		const before = earlier.files.get(hash) ?? earlier.aside?.get(hash);
		if (held.event === 'created') {
			baseline.files.delete(hash);
			keys?.delete(held.file.key);
		} else {
			// No record of the version before it (beyond the records kept aside): nothing to find the change by.
			if (before === undefined) continue;
			baseline.files.set(hash, before);
			baseline.aside?.delete(hash);
			keys?.add(held.file.key);
		}
		failures.set(hash, failure);
	}
	if (keys) baseline.keys = [...keys].sort(byCodeUnits);
	if (failures.size > 0) baseline.failures = failures;
	else delete baseline.failures;
	if (sorted.aside.size > 0) baseline.heldAside = sorted.aside;
	else delete baseline.heldAside;
}

/**
 * A saved state's records and held changes of files the settings do not watch, set aside (outOfScope.ts) before the
 * state is compared. Only a state of an earlier release has them outside a change of scope: one that, with Include
 * Subfolders off, recorded deeper files a listing named. Set aside, they are neither reported deleted nor dropped: a
 * later scope that watches them again (Include Subfolders turned on) takes their records and held changes back.
 */
export function setAsideUnwatched(previous: WatchState, settings: TriggerSettings): WatchState {
	const watches = (key: string) => watchesKey(settings, key);
	const keysOut = previous.keys?.filter((key) => !watches(key)) ?? [];
	const heldOut = [...(previous.failures ?? [])].filter(
		([, failure]) => failure.held && !watches(failure.held.file.key),
	);
	if (keysOut.length === 0 && heldOut.length === 0) return previous;
	const files = new Map(previous.files);
	const aside = new Map(previous.aside ?? []);
	for (const key of keysOut) {
		const hash = keyHash(key);
		const known = files.get(hash);
		if (known !== undefined) aside.set(hash, known);
		files.delete(hash);
	}
	const failures = new Map(previous.failures ?? []);
	const heldAside = new Map(previous.heldAside ?? []);
	for (const [hash, failure] of heldOut) {
		failures.delete(hash);
		heldAside.set(hash, failure);
		// Its record goes aside with it (a state without keys names no other file), as a change of scope sets it.
		const known = files.get(hash);
		if (known !== undefined) aside.set(hash, known);
		files.delete(hash);
	}
	const keys = previous.keys?.filter(watches);
	return { ...previous, files, ...(keys ? { keys } : {}), aside, failures, heldAside };
}
