import type { INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attemptsBefore, DOWNLOAD_ATTEMPTS, downloadWarning, recordAttempts } from './attempts';
import { outputJson, toItem, withoutFile } from './output';
import type { PollRun } from './run';
import type { Change, DownloadFailure, WatchState } from './state';
import { stillStored } from '../listing/stillStored';
import { inWindow } from './window';

/** What one poll makes of its changes. */
export interface Emission {
	items: INodeExecutionData[];
	/** Changes found but not emitted: the saved state stays as it was for them. */
	withheld: Change[];
	/** Failed downloads still to be tried again, by key hash. */
	failures: Map<string, DownloadFailure>;
	/** Held-back downloads, for n8n's log. */
	warnings: string[];
	/** The first deletion that could not be checked (the poll asks no more after it). */
	uncheckable?: { key: string; error: unknown };
}

/** The changes of one poll and what it saved of them before. */
export interface Changes {
	previous: WatchState;
	watched: Change[];
	/** Held changes the poll keeps besides its own (not settled yet, or aside): they count against HELD_CHANGES. */
	heldBefore?: number;
}

/** Where the deletions that need a check start (they come last); the length when there are none. */
function firstUnconfirmed(watched: Change[]): number {
	const at = watched.findIndex((change) => change.unconfirmed === true);
	return at < 0 ? watched.length : at;
}

/**
 * The changes before `count` turned into items, several at once. Only emitted items count
 * against Max Files Per Poll: a held-back file does not hold up the next. Out of time: no further
 * file starts; what is ready is returned, the rest comes with the next poll. Answers how many started.
 */
async function emitInWindow(
	run: PollRun,
	{ previous, watched, heldBefore }: Changes,
	count: number,
	out: Emission,
): Promise<number> {
	const { outcomes, started } = await inWindow(
		count,
		{
			parallel: run.settings.parallel,
			room: run.settings.maxFiles,
			givesUp: (index) => attemptsBefore(previous.failures, watched[index]) + 1 >= DOWNLOAD_ATTEMPTS,
			late: () => Date.now() > run.deadline,
		},
		async (index) => await toItem(run, watched[index]),
	);
	// In the order of the changes, whichever download finished first.
	for (const [index, outcome] of outcomes.entries()) {
		const change = watched[index];
		if ('item' in outcome) {
			out.items.push(outcome.item);
			continue;
		}
		// Only a download fails here. The file waits for the next poll, the others go on.
		const { error } = outcome;
		const attempts = attemptsBefore(previous.failures, change) + 1;
		if (attempts >= DOWNLOAD_ATTEMPTS) {
			out.items.push(withoutFile(run.settings, change, error));
			continue;
		}
		recordAttempts(out.failures, change, attempts, heldBefore);
		out.withheld.push(change);
		out.warnings.push(downloadWarning(change.key, error, attempts));
	}
	return started;
}

/**
 * Deletions a scan over several pages found, from `from` on, checked one by one: each check is a
 * request, so a poll makes at most Max Files Per Poll. Answers where the checks stopped.
 */
async function checkDeletions(run: PollRun, watched: Change[], from: number, out: Emission): Promise<number> {
	const { settings } = run;
	let checks = 0;
	let next = from;
	for (; next < watched.length && out.items.length < settings.maxFiles; next++) {
		if (next > 0 && Date.now() > run.deadline) break;
		const change = watched[next];
		if (out.uncheckable || checks >= settings.maxFiles) break;
		checks++;
		try {
			// Still there: the scan missed it (files moved across a page boundary), no change.
			if (await stillStored(run.client, settings.where, change.key)) {
				out.withheld.push(change);
				continue;
			}
		} catch (error) {
			out.uncheckable = { key: change.key, error };
			out.withheld.push(change);
			continue;
		}
		// A deletion: no file to download.
		out.items.push({ json: outputJson(settings, change) });
	}
	return next;
}

/** Changes the poll did not reach wait for the next; their failure counts are kept. */
function holdBack({ previous, heldBefore }: Changes, rest: Change[], out: Emission): void {
	for (const change of rest) {
		out.withheld.push(change);
		const attempts = attemptsBefore(previous.failures, change);
		if (attempts > 0) recordAttempts(out.failures, change, attempts, heldBefore);
	}
}

/** The poll's failure when a deletion could not be checked and nothing else came of it. */
export function checkFailed(run: PollRun, key: string, error: unknown): NodeOperationError {
	const { message } = error as { message: string };
	return new NodeOperationError(run.ctx.getNode(), `Could not check whether '${key}' was deleted: ${message}`, {
		description:
			'The folder was read over several pages, so a file the scan did not list is only reported deleted once the service confirms it is gone. Nothing is reported until it can; the next poll asks again.',
	});
}

/**
 * The watched changes, oldest first, as items: downloads first (several at once), then the
 * deletions that need a check. A download that fails holds back only its file, until
 * DOWNLOAD_ATTEMPTS polls gave up on it; a deletion is only emitted once the service says it is gone.
 */
export async function emitChanges(run: PollRun, changes: Changes): Promise<Emission> {
	const out: Emission = { items: [], withheld: [], failures: new Map(), warnings: [] };
	const checkedFrom = firstUnconfirmed(changes.watched);
	const started = await emitInWindow(run, changes, checkedFrom, out);
	// The window stopped short (no room, out of time): the rest waits. Otherwise the checks follow.
	const next = started === checkedFrom ? await checkDeletions(run, changes.watched, started, out) : started;
	holdBack(changes, changes.watched.slice(next), out);
	return out;
}
