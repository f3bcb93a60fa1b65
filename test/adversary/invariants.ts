/**
 * What must hold after every schedule, checked against the emulator's full history of stored versions (see schedule.ts).
 * A version is one stored put; it ends at the next change of its key. "The node" is every change made by its requests
 * (writer 'client'); 'client-short' is its upload as a faulty storage kept it (fewer bytes). The node cannot see a change
 * made after its last look at the key (the API has no conditional call, spec §3.12): such races are not held against it.
 */
import type { HistoryEvent } from '../emulator/history';
import { checkFolderTransfer } from './folderInvariants';
import { destinationOf, inScope, isFolderTransfer } from './folders';
import { checkSuccess } from './successInvariants';
import type { NodeRequest, Outcome, Role } from './schedule';

export interface Violation {
	invariant: string;
	detail: string;
}

export interface Version {
	put: HistoryEvent;
	/** The change that ended it, if any. */
	end?: HistoryEvent;
}

export const isNodeAct = (event: HistoryEvent) => event.writer === 'client';

function versionsOf(events: HistoryEvent[]): Version[] {
	const versions: Version[] = [];
	const current = new Map<string, Version>();
	for (const event of events) {
		const previous = current.get(event.key);
		if (previous) previous.end = event;
		current.delete(event.key);
		if (event.kind === 'put') {
			const version = { put: event };
			versions.push(version);
			current.set(event.key, version);
		}
	}
	return versions;
}

/** Whether a listing of `prefix` (S3-like string prefix) or a request naming `key` looked at it. */
function observes(request: NodeRequest, key: string): boolean {
	if (request.op === 'list') return key.startsWith(request.subject);
	return ['signedUrl', 'cdn', 'purge'].includes(request.op) && request.subject === key;
}

export class Judge {
	readonly violations: Violation[] = [];
	readonly versions: Version[];
	readonly scenario;

	constructor(readonly outcome: Outcome) {
		this.versions = versionsOf(outcome.events);
		this.scenario = outcome.schedule.scenario;
	}

	fail(invariant: string, detail: string) {
		this.violations.push({ invariant, detail });
	}

	key(role: Role): string {
		return this.outcome.keys[role];
	}

	/**
	 * The seq of the node's last request that looked at `key` before `seq` (Infinity: none did).
	 * Requests carry no item number: when several items of the run name the key, the look is the
	 * first one since the node last changed the key (the item that changes it may have looked then).
	 */
	lastLook(key: string, seq: number): number {
		const items = this.scenario.items.filter((item) => item.some((role) => this.key(role) === key)).length;
		const since =
			items > 1
				? Math.max(
						0,
						...this.outcome.events.filter((e) => isNodeAct(e) && e.key === key && e.seq < seq).map((e) => e.seq),
					)
				: 0;
		const looks = this.outcome.requests
			.filter((r) => r.seq > since && r.seq < seq && observes(r, key))
			.map((r) => r.seq);
		if (!looks.length) return Number.POSITIVE_INFINITY;
		return items > 1 ? Math.min(...looks) : Math.max(...looks);
	}

	/**
	 * Another writer's version that replaced the copy the storage kept short, with the same size in the same listed
	 * second: the listing and the upload's answer cannot tell it from that copy (spec §3.12), so the check deleting
	 * it as the short copy is not held against the node. (An ETag, where sent, can tell them apart: a same-size
	 * file over a good copy gets no such excuse.)
	 */
	lookalike(version: Version): boolean {
		const second = (iso?: string) => iso?.slice(0, 19);
		const replaced = this.versions.find((v) => v.end?.seq === version.put.seq);
		return (
			replaced !== undefined &&
			replaced.put.writer === 'client-short' &&
			replaced.put.size === version.put.size &&
			second(replaced.put.lastModified) === second(version.put.lastModified)
		);
	}

	/**
	 * A version the node could not have seen before the change that ended it. Never one written in a pause of the run's
	 * pool (pauses.ts) or while the answer of a look at its key was held (holds.ts: the look ends when its answer
	 * reaches the node): what the node decided on that look must be checked again before its destructive request goes.
	 */
	unseen(version: Version): boolean {
		if (!version.end || this.waitedThrough(version.put.key, version.put.seq, version.end.seq)) return false;
		return version.put.seq > this.lastLook(version.put.key, version.end.seq);
	}

	/** Whether a change of `key` at `seq` came in a pause, or while a look at `key` was held (its answer left before `until`). */
	waitedThrough(key: string, seq: number, until: number): boolean {
		const held = (r: NodeRequest) =>
			r.heldUntilSeq !== undefined && observes(r, key) && r.seq < seq && seq < r.heldUntilSeq && r.heldUntilSeq < until;
		const paused = (this.outcome.pauses ?? []).some((p) => seq > p.fromSeq && seq < p.toSeq);
		return paused || this.outcome.requests.some(held);
	}

	/**
	 * Whether the node's copy `copy` (of a Move's source) still stood, as far as the node could tell, when it deleted the
	 * source at `seq`: there, or replaced after its last look (not while it waited: `waitedThrough`), or by a file its
	 * listing cannot tell from it (the same size, second, content type and visibility: api-choices.md, "A write at the
	 * destination").
	 */
	copyStood(copy: Version, seq: number): boolean {
		const { end } = copy;
		if (!end || end.seq > seq) return true;
		if (!this.waitedThrough(copy.put.key, end.seq, seq) && end.seq > this.lastLook(copy.put.key, seq)) return true;
		const next = this.versions.find((v) => v.put === end)?.put;
		const second = (iso?: string) => iso?.slice(0, 19);
		return (
			next !== undefined &&
			next.size === copy.put.size &&
			second(next.lastModified) === second(copy.put.lastModified) &&
			next.contentType === copy.put.contentType &&
			next.visibility === copy.put.visibility
		);
	}

	/** Newest stored at some moment of the run. */
	live(version: Version): boolean {
		return version.put.seq < this.outcome.endSeq && (!version.end || version.end.seq > this.outcome.startSeq);
	}

	currentAtEnd(): Version[] {
		return this.versions.filter((v) => !v.end);
	}

	get destinations(): Set<string> {
		if (isFolderTransfer(this.scenario)) return new Set([...this.sources].map(destinationOf));
		return new Set(this.scenario.items.map((item) => this.key(item[item.length - 1])));
	}

	/** Copy and Move: the items' sources; Folder → Copy and Move: every key of the schedule its folder operation handles. */
	get sources(): Set<string> {
		if (isFolderTransfer(this.scenario)) {
			const keys = [...Object.values(this.outcome.keys), ...this.outcome.events.map((e) => e.key)];
			return new Set(keys.filter((key) => inScope(this.scenario, key)));
		}
		const copying = this.scenario.operation === 'copy' || this.scenario.operation === 'move';
		return new Set(copying ? this.scenario.items.map((item) => this.key(item[0])) : []);
	}

	/** Move or Folder → Move: a source's delete is what the operation means, once its bytes are copied. */
	get moving(): boolean {
		return this.scenario.operation === 'move' || this.scenario.operation === 'folderMove';
	}

	replaceAllowed(key: string): boolean {
		return this.scenario.operation !== 'folderDelete' && this.scenario.replace && this.destinations.has(key);
	}

	/** Keys the node's listings showed (Folder → Delete deletes what it listed). */
	get listed(): Set<string> {
		return new Set(this.outcome.requests.flatMap((r) => r.listed ?? []));
	}

	/** Why the node's change ending `version` is allowed, or undefined. */
	excuse(version: Version): string | undefined {
		const { end } = version;
		if (!end) return 'not ended';
		if (!isNodeAct(end)) return 'ended by another writer';
		if (this.unseen(version)) return 'written after the node last looked';
		if (this.lookalike(version)) return 'indistinguishable from its own copy';
		if (end.kind === 'put' && this.replaceAllowed(end.key)) return 'replaced as told';
		if (end.kind === 'delete' && this.scenario.operation === 'folderDelete' && this.listed.has(end.key))
			return 'listed';
		if (end.kind === 'delete' && version.put.writer.startsWith('client') && this.destinations.has(end.key)) {
			return 'its own copy';
		}
		if (end.kind === 'delete' && this.moving && this.sources.has(end.key)) {
			// A copy the storage then kept short (its upload's fault, before the node's check) holds nothing to move.
			const copied = this.versions.some(
				(v) =>
					isNodeAct(v.put) &&
					v.put.seq < end.seq &&
					v.put.sha256 === version.put.sha256 &&
					v.put.key !== end.key &&
					v.end?.writer !== 'client-short' &&
					this.copyStood(v, end.seq),
			);
			if (copied) return 'moved';
		}
		return undefined;
	}

	/** No version newest at some moment is lost by a change of the node that its meaning does not allow. */
	noLoss() {
		const kept = new Set(this.currentAtEnd().map((v) => v.put.sha256));
		const live = this.versions.filter((v) => this.live(v) && v.put.writer !== 'client-short');
		for (const sha of new Set(live.map((v) => v.put.sha256))) {
			if (kept.has(sha)) continue;
			const holders = live.filter((v) => v.put.sha256 === sha);
			// The last copy ended by another writer: not the node's loss. A short store is the node's own upload as the
			// storage kept it. (A copy another writer replaced before the node deleted the last other one is the node's.)
			const last = holders.reduce((a, b) => ((b.end?.seq ?? 0) > (a.end?.seq ?? 0) ? b : a));
			if (last.end && !isNodeAct(last.end) && last.end.writer !== 'client-short') continue;
			for (const version of holders) {
				if (this.excuse(version) !== undefined) continue;
				const { end, put } = version;
				this.fail(
					'no stored version is lost',
					`the version of '${put.key}' written by ${put.writer} (seq ${put.seq}, ${put.size} bytes, ${put.lastModified}) was ${end?.kind === 'put' ? 'replaced' : 'deleted'} by the node (seq ${end?.seq}) and no copy of it is left`,
				);
			}
		}
	}

	/** The node deletes only its own copies, a Move's source, and what Folder → Delete listed. */
	deletesOnlyWhatItMay() {
		for (const version of this.versions) {
			const { end, put } = version;
			if (!end || end.kind !== 'delete' || !isNodeAct(end) || put.writer.startsWith('client')) continue;
			if (this.moving && this.sources.has(put.key)) continue;
			if (this.scenario.operation === 'folderDelete' && this.listed.has(put.key)) continue;
			if (this.unseen(version) || this.lookalike(version)) continue;
			this.fail(
				'nothing the node did not write is deleted',
				`the node deleted '${put.key}' written by ${put.writer} (seq ${put.seq})`,
			);
		}
	}

	/** Replace off and Refuse Existing File: never a file the node saw, nor another item's (items take turns). */
	neverReplacesWhenTold() {
		for (const version of this.versions) {
			const { end, put } = version;
			if (!end || end.kind !== 'put' || !isNodeAct(end) || this.replaceAllowed(put.key)) continue;
			if (put.writer !== 'client' && this.unseen(version)) continue;
			this.fail(
				'Replace off / Refuse Existing File never replaces',
				`the node replaced the version of '${put.key}' written by ${put.writer === 'client' ? 'another item of the run' : put.writer} (seq ${put.seq})`,
			);
		}
	}

	/** Versions of the source that were newest at some moment between the run's start and `seq`. */
	sourceMd5s(sourceKey: string, seq: number): Set<string | undefined> {
		return new Set(
			this.versions
				.filter((v) => v.put.key === sourceKey && v.put.seq < seq && (!v.end || v.end.seq > this.outcome.startSeq))
				.map((v) => v.put.md5),
		);
	}

	/** A good copy (of a version the source had) is never deleted as faulty. */
	keepsGoodCopies() {
		for (const version of this.versions) {
			const { end, put } = version;
			if (!end || end.kind !== 'delete' || !isNodeAct(end) || !isNodeAct(put) || !this.destinations.has(put.key))
				continue;
			if (this.scenario.operation !== 'copy' && this.scenario.operation !== 'move' && !isFolderTransfer(this.scenario))
				continue;
			const good = [...this.sources].some((source) => this.sourceMd5s(source, put.seq).has(put.md5));
			if (good)
				this.fail(
					'a good copy is never deleted',
					`the node deleted its copy at '${put.key}' (seq ${put.seq}), which holds a version the source had`,
				);
		}
	}

	/**
	 * A copy the storage kept short is deleted, or kept only with a failure that names it faulty (the listing cannot
	 * tell it from another writer's file of that size written in its second, so keeping it is the node's choice).
	 */
	noFaultyCopyKept() {
		const named = this.outcome.items.some(
			(item) => !item.ok && /faulty/i.test(`${String(item.json.error)} ${String(item.json.description ?? '')}`),
		);
		// A run stopped before its check of a copy cannot have named it; the run again compares it as any other file.
		const stopped = (this.outcome.runs ?? []).filter((run) => run.stopped);
		const unchecked = (seq: number) => stopped.some((run) => seq > run.startSeq && seq < run.endSeq);
		for (const version of this.currentAtEnd()) {
			if (version.put.writer === 'client-short' && !named && !unchecked(version.put.seq)) {
				this.fail(
					'a faulty copy is not kept unreported',
					`the copy at '${version.put.key}' the storage kept short (${version.put.size} bytes) is still there, and no failure names it faulty`,
				);
			}
		}
	}

	/** Folder → Delete: success leaves none of the versions it listed; nothing written since outside its listing goes. */
	folderDelete() {
		if (this.scenario.operation !== 'folderDelete') return;
		const nodeChanges = this.outcome.events.filter(isNodeAct);
		if (this.scenario.dryRun) {
			if (nodeChanges.length) this.fail('Dry Run changes nothing', `the node made ${nodeChanges.length} changes`);
			return;
		}
		for (const event of nodeChanges) {
			if (event.kind !== 'delete' || this.listed.has(event.key)) continue;
			this.fail(
				'Folder → Delete deletes only what it listed',
				`the node deleted '${event.key}', which no listing of it showed`,
			);
		}
		if (this.outcome.items.some((item) => !item.ok)) return;
		for (const request of this.outcome.requests) {
			for (const key of request.listed ?? []) {
				const seen = this.versions.find(
					(v) => v.put.key === key && v.put.seq < request.seq && (!v.end || v.end.seq > request.seq),
				);
				if (seen && !seen.end)
					this.fail(
						'a reported success is true',
						`Folder → Delete reported success but '${key}' it listed is still there`,
					);
			}
		}
	}
}

export function checkInvariants(outcome: Outcome): Violation[] {
	const judge = new Judge(outcome);
	judge.noLoss();
	judge.deletesOnlyWhatItMay();
	judge.neverReplacesWhenTold();
	judge.keepsGoodCopies();
	judge.noFaultyCopyKept();
	checkSuccess(judge);
	judge.folderDelete();
	checkFolderTransfer(judge);
	return judge.violations;
}
