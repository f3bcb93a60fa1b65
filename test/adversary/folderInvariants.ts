/**
 * What must hold after a Folder → Copy or Move schedule (folders.ts), beyond invariants.ts's (no
 * version lost, nothing replaced or deleted unasked, which hold over both runs of a stopped one):
 *
 * - each file's status tells the truth about the history of its source and destination in that run;
 * - each file the folder held the whole run has one item, and nothing outside the folder has one;
 * - run again after a stop (no other writer, a CDN that keeps nothing), every file is done once:
 *   a Move leaves its source gone and its bytes at the destination, a Copy its bytes at both; a
 *   destination with other bytes is kept with Replace Existing Files off; nothing is copied over
 *   a copy already there.
 */
import type { HistoryEvent } from '../emulator/history';
import { destinationOf, inScope } from './folders';
import { isNodeAct, type Judge, type Version } from './invariants';
import type { RunOutcome } from './schedule';

type Window = Pick<RunOutcome, 'startSeq' | 'endSeq'>;

const inWindow = (seq: number, run: Window) => seq > run.startSeq && seq < run.endSeq;
const byNode = (event: HistoryEvent) => isNodeAct(event) || event.writer === 'client-short';
const tail = (key: string) => key.split('/').slice(1).join('/');

/** The history of one run as a file's status is judged against. */
class RunView {
	constructor(
		private readonly judge: Judge,
		readonly run: Window,
	) {}

	/** The version of `key` newest at `seq` (none: no file there). */
	at(key: string, seq: number): Version | undefined {
		return this.judge.versions.find((v) => v.put.key === key && v.put.seq < seq && (!v.end || v.end.seq > seq));
	}

	/** Versions of `key` newest at some moment of the run. */
	live(key: string): Version[] {
		return this.judge.versions.filter(
			(v) => v.put.key === key && v.put.seq < this.run.endSeq && (!v.end || v.end.seq > this.run.startSeq),
		);
	}

	nodeChanges(key: string): HistoryEvent[] {
		return this.judge.outcome.events.filter((e) => e.key === key && byNode(e) && inWindow(e.seq, this.run));
	}

	/** Whether `key` had no file at some moment of the run. */
	absentSometime(key: string): boolean {
		const changes = this.judge.outcome.events.filter((e) => e.key === key && inWindow(e.seq, this.run));
		return !this.at(key, this.run.startSeq + 0.5) || changes.some((e) => e.kind === 'delete');
	}

	/** Another writer's delete of `key` after the run's first listing that showed it. */
	deletedByOtherAfterListing(key: string): HistoryEvent | undefined {
		const listing = this.judge.outcome.requests.find((r) => inWindow(r.seq, this.run) && r.listed?.includes(key));
		if (!listing) return undefined;
		return this.judge.outcome.events.find(
			(e) => e.key === key && e.kind === 'delete' && !byNode(e) && e.seq > listing.seq && e.seq < this.run.endSeq,
		);
	}
}

interface FileItem {
	status: string;
	source: string;
	destination: string;
	json: Record<string, unknown>;
}

function fileItems(run: RunOutcome): FileItem[] {
	return run.items
		.map((item) => item.json)
		.filter((json) => typeof (json.source as { key?: unknown } | undefined)?.key === 'string')
		.map((json) => ({
			status: String(json.status),
			source: (json.source as { key: string }).key,
			destination: String(json.key),
			json,
		}));
}

/** A copy or a Move's delete as the item reports it: the node's own change, of the source's bytes. */
function copiedOrMoved(judge: Judge, view: RunView, item: FileItem): string | undefined {
	const { source, destination, json } = item;
	if (json.destinationWasThere !== true) {
		const copy = judge.versions.find(
			(v) => isNodeAct(v.put) && v.put.key === destination && inWindow(v.put.seq, view.run) && v.put.md5 === json.md5,
		);
		if (!copy) return `reports a copy (md5 ${String(json.md5)}) the node never stored at '${tail(destination)}'`;
		if (!judge.sourceMd5s(source, copy.put.seq).has(copy.put.md5))
			return 'copied bytes the source never held during the run';
		if (copy.end && isNodeAct(copy.end)) return 'reports a copy the node itself deleted';
	}
	if (item.status !== 'moved') return undefined;
	const deleted = view.nodeChanges(source).find((e) => e.kind === 'delete');
	if (!deleted) return 'reports the file moved, but the node never deleted its source';
	const gone = judge.versions.find((v) => v.end?.seq === deleted.seq);
	if (gone && gone.put.md5 !== json.md5 && !judge.unseen(gone))
		return 'deleted a source version other than the one it reports at the destination';
	// Another writer's change of the destination since the run began is not held against it here: the node cannot
	// always tell a same-size file written in the copy's second from its copy (spec §3.12); noLoss judges the loss.
	const there = view.at(destination, deleted.seq);
	const byOther = judge.outcome.events.some(
		(e) => e.key === destination && !byNode(e) && e.seq > view.run.startSeq && e.seq < deleted.seq,
	);
	if (there?.put.md5 !== json.md5 && !byOther)
		return 'the destination did not hold the reported bytes when the source was deleted';
	return undefined;
}

/** Copy's 'skipped': the destination held the source's bytes (both newest at one moment); nothing changed. */
function skippedCopy(view: RunView, item: FileItem): string | undefined {
	const both = view
		.live(item.destination)
		.some((d) =>
			view
				.live(item.source)
				.some(
					(s) =>
						s.put.md5 === d.put.md5 && s.put.seq < (d.end?.seq ?? Infinity) && d.put.seq < (s.end?.seq ?? Infinity),
				),
		);
	if (!both)
		return 'reports the destination holding the source\'s bytes ("copied before"), which it never did during the run';
	return undefined;
}

/** Move's 'skipped' ("moved before"): never for a source this run listed and another writer then deleted. */
function skippedMove(view: RunView, item: FileItem): string | undefined {
	const other = view.deletedByOtherAfterListing(item.source);
	if (other) {
		return `reports "moved before", but this run listed the source and another writer deleted it (seq ${other.seq}): it was never moved`;
	}
	if (view.at(item.source, view.run.endSeq)) return 'reports the source moved before, but it is still there';
	return undefined;
}

/** Whether what `item` reports is what the history shows; the violation's words, or undefined. */
function statusLie(judge: Judge, view: RunView, item: FileItem): string | undefined {
	const { scenario } = judge;
	const unchanged = () =>
		[...view.nodeChanges(item.source), ...view.nodeChanges(item.destination)].length === 0
			? undefined
			: 'yet the node changed the source or the destination';
	switch (item.status) {
		case 'copied':
		case 'moved':
			return copiedOrMoved(judge, view, item);
		case 'skipped':
			return (scenario.operation === 'folderCopy' ? skippedCopy(view, item) : skippedMove(view, item)) ?? unchanged();
		case 'exists':
			if (scenario.replace) return 'reports the destination kept, though Replace Existing Files is on';
			if (!view.live(item.destination).length)
				return 'reports the destination there, which it never was during the run';
			return unchanged();
		case 'gone':
			// A source another writer deleted after the listing, said as such.
			return view.deletedByOtherAfterListing(item.source)
				? unchanged()
				: 'reports the source gone, which no other writer deleted';
		case 'kept':
		case 'failed':
			return item.status === 'kept' ? unchanged() : undefined;
		case 'destinationExists':
			return view.live(item.destination).length ? undefined : 'a dry run reports a destination that was never there';
		case 'wouldCopy':
		case 'wouldMove':
			return view.absentSometime(item.destination)
				? undefined
				: 'a dry run reports a destination free that was there all along';
		default:
			return `an unknown status '${item.status}'`;
	}
}

/** The items of one run that ended: true statuses, one per file of the folder, none for another file. */
function checkRunItems(judge: Judge, run: RunOutcome) {
	const view = new RunView(judge, run);
	const items = fileItems(run);
	const named = new Set<string>();
	for (const item of items) {
		if (!inScope(judge.scenario, item.source) || item.destination !== destinationOf(item.source)) {
			judge.fail(
				"only the folder's files are handled, each to its own path",
				`an item for '${tail(item.source)}' → '${tail(item.destination)}'`,
			);
			continue;
		}
		if (named.has(item.source)) judge.fail('each file has one item', `'${tail(item.source)}' has several`);
		named.add(item.source);
		const lie = statusLie(judge, view, item);
		if (lie) judge.fail("each file's status tells the truth", `'${tail(item.source)}' ${item.status}: ${lie}`);
	}
	if (judge.scenario.dryRun && judge.outcome.events.some((e) => byNode(e) && inWindow(e.seq, run))) {
		judge.fail('Dry Run changes nothing', 'the node changed a file');
	}
	// A listing that failed ends the run with one item naming it (its source is no file).
	if (run.items.some((item) => typeof item.json.source === 'string')) return;
	for (const key of judge.sources) {
		const there = view.at(key, run.startSeq + 0.5);
		const goneByOther = judge.outcome.events.some(
			(e) => e.key === key && e.kind === 'delete' && !byNode(e) && inWindow(e.seq, run),
		);
		if (there && !goneByOther && !named.has(key)) {
			judge.fail(
				'every file of the folder is handled',
				`'${tail(key)}' was in the folder the whole run, and no item names it`,
			);
		}
	}
}

/** Run again after a stop, with nothing else acting: each file is done, once, as the operation means. */
function checkRunAgain(judge: Judge, run: RunOutcome) {
	const view = new RunView(judge, run);
	const { scenario } = judge;
	for (const item of run.items.filter((one) => !one.ok)) {
		judge.fail('run again with nothing else acting, every file is done', `an item failed: ${String(item.json.error)}`);
	}
	for (const put of judge.outcome.events.filter((e) => isNodeAct(e) && e.kind === 'put' && inWindow(e.seq, run))) {
		const before = view.at(put.key, put.seq);
		if (before && before.put.md5 === put.md5 && before.put.visibility === put.visibility) {
			judge.fail(
				'nothing is copied twice',
				`run again, the node copied '${tail(put.key)}' over the same bytes already there`,
			);
		}
	}
	if (scenario.dryRun) return;
	const items = new Map(fileItems(run).map((item) => [item.source, item]));
	for (const source of judge.sources) {
		const from = view.at(source, run.startSeq + 0.5);
		if (!from) continue;
		const destination = destinationOf(source);
		const to = view.at(destination, run.startSeq + 0.5);
		const same = to !== undefined && to.put.md5 === from.put.md5 && to.put.visibility === from.put.visibility;
		const kept = to !== undefined && !same && !scenario.replace;
		const moving = scenario.operation === 'folderMove';
		const status = kept ? 'exists' : same ? (moving ? 'moved' : 'skipped') : moving ? 'moved' : 'copied';
		const sourceAtEnd = view.at(source, run.endSeq)?.put.md5;
		const destinationAtEnd = view.at(destination, run.endSeq)?.put.md5;
		const want = {
			status,
			source: moving && !kept ? undefined : from.put.md5,
			destination: kept ? to.put.md5 : from.put.md5,
		};
		const got = { status: items.get(source)?.status, source: sourceAtEnd, destination: destinationAtEnd };
		if (JSON.stringify(got) !== JSON.stringify(want)) {
			judge.fail(
				'run again with nothing else acting, every file is done',
				`'${tail(source)}': wanted ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
			);
		}
	}
}

export function checkFolderTransfer(judge: Judge) {
	const { outcome } = judge;
	if (outcome.schedule.scenario.operation !== 'folderCopy' && outcome.schedule.scenario.operation !== 'folderMove')
		return;
	const runs = outcome.runs ?? [
		{ startSeq: outcome.startSeq, endSeq: outcome.endSeq, items: outcome.items, stopped: false },
	];
	for (const run of runs) if (!run.stopped) checkRunItems(judge, run);
	if (outcome.runs) checkRunAgain(judge, runs[runs.length - 1]);
}
