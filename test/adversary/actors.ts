/**
 * The other actors of a schedule (schedule.ts) at the node's requests: other writers acting at the
 * drawn points, the CDN (cdn.ts) answering its reads, and the stop: from a drawn request on, no
 * request of the run is answered (the first of them carried out or not, as drawn), and the
 * execution is cancelled there, as the editor's Stop button or a lost connection would end it.
 */
import type { Emulator } from '../emulator';
import type { HookAnswer, HookCall } from '../emulator/history';
import type { AdversaryCdn } from './cdn';
import { HoldPoint } from './holds';
import { PausePoint } from './pauses';
import type { Random } from './random';
import { BUCKET, SIZE, type Action, type NodeRequest, type Role, type Schedule, type Stop } from './schedule';

/** The key a request names: its `key`, a listing's `prefix`, or the CDN path's key. */
export function subjectOf(call: HookCall, accessId: string): string {
	if (call.op === 'cdn') {
		const rest = call.path.split('/').slice(3);
		return call.path.startsWith(`/f/${accessId}/`) ? rest.map((s) => decodeURIComponent(s)).join('/') : '';
	}
	if (call.op === 'list') return call.query.get('prefix') ?? '';
	return call.query.get('key') ?? '';
}

/** What a request that is never answered gets once the stop is over: nothing (its client is gone), else a 503. */
const NO_ANSWER: HookAnswer = {
	status: 503,
	headers: { 'Content-Type': 'application/json' },
	body: '{"error":"stopped"}',
};

/** The stop of a schedule: requests from the drawn one on are held; `reached` settles when the first is. */
class StopPoint {
	readonly reached: Promise<void>;
	private reach!: () => void;
	private readonly released: Promise<void>;
	release!: () => void;
	held = 0;
	/** When the last request of the stopped run came (ms, host clock). */
	lastRequestAt = Date.now();

	constructor(readonly at: Stop) {
		this.reached = new Promise((resolve) => (this.reach = resolve));
		this.released = new Promise((resolve) => (this.release = resolve));
	}

	/** Whether request number `n` is held before it is handled (the stop's own request: as drawn). */
	holdsBefore(n: number): boolean {
		return n > this.at.nth || (n === this.at.nth && this.at.phase === 'before');
	}

	async hold(): Promise<void> {
		this.held += 1;
		this.reach();
		await this.released;
	}
}

export class Adversary {
	readonly requests: NodeRequest[] = [];
	private readonly counts = new Map<string, number>();
	private total = 0;
	/** Each request's number in the run, counting every kind. */
	private readonly numbers = new WeakMap<HookCall, number>();
	readonly stop?: StopPoint;
	/** Acts of other writers still under way: a run again starts only once they are done ("nothing else acting"). */
	actsUnderWay = 0;
	/** The 503 that pauses the run's pool, and the writer acting during the pause. */
	readonly pause?: PausePoint;
	/** A look of the node held 2.5–3.5 s without a 503, and the writer acting during the hold (holds.ts). */
	private readonly hold?: HoldPoint;

	constructor(
		private readonly emulator: Emulator,
		private readonly schedule: Pick<Schedule, 'triggers' | 'stop' | 'pause' | 'hold'>,
		private readonly keys: Record<Role, string>,
		readonly cdn: AdversaryCdn,
		private readonly random: Random,
		readonly log: string[],
	) {
		if (schedule.stop) this.stop = new StopPoint(schedule.stop);
		if (schedule.pause) {
			const act = async (action: Action, key: string) => await this.act(action, key);
			this.pause = new PausePoint(schedule.pause, emulator, keys, act, log);
		}
		if (schedule.hold) {
			const act = async (action: Action, key: string) => await this.act(action, key);
			this.hold = new HoldPoint(schedule.hold, emulator, keys, act, log);
		}
	}

	async act(action: Action, key: string, call?: HookCall, reply?: { body: unknown }): Promise<void> {
		const { adversary } = this.emulator;
		const current = await adversary.current(key);
		const visibility = current?.visibility ?? 'public';
		const role = Object.entries(this.keys).find(([, k]) => k === key)?.[0] ?? key;
		this.log.push(`${call ? `${call.op} ${subjectOf(call, this.emulator.accessId)}: ` : ''}${action} ${role}`);
		if (action === 'view') return await this.cdn.view(key);
		if (action === 'delete') {
			await adversary.remove(BUCKET, key, 'other');
			return;
		}
		if (action === 'shortStore') {
			if (!current || current.size < 2) return;
			const body = current.body.subarray(0, current.size - 3);
			await adversary.put(BUCKET, key, body, { visibility, contentType: current.contentType, writer: 'client-short' });
			const data = (reply?.body as { data?: { size?: number } } | undefined)?.data;
			if (data) data.size = body.length;
			return;
		}
		const size = action === 'rewriteOther' ? (current?.size ?? SIZE) + 5 : (current?.size ?? SIZE);
		if (action === 'rewriteSameOtherKind') {
			// The same size, but what the listing shows besides differs: the content type, the visibility, or both.
			const kind = this.random.pick(['type', 'visibility', 'both'] as const);
			const other = visibility === 'public' ? 'private' : 'public';
			await adversary.put(BUCKET, key, this.random.bytes(size), {
				visibility: kind === 'type' ? visibility : other,
				contentType: kind === 'visibility' ? current?.contentType : 'image/png',
				writer: 'other',
			});
			return;
		}
		await adversary.put(BUCKET, key, this.random.bytes(size), { visibility, writer: 'other' });
	}

	/** A short store acts on the upload's own key, when that is a destination of the schedule. */
	private shortStoreKey(call: HookCall): string | undefined {
		const subject = subjectOf(call, this.emulator.accessId);
		const destinations = [
			this.keys.dst,
			this.keys.dst2,
			this.keys.dst3,
			this.keys.ta,
			this.keys.tb,
			this.keys.tc,
			this.keys.td,
		];
		return destinations.includes(subject) ? subject : undefined;
	}

	private async fire(call: HookCall, phase: 'before' | 'after', reply?: { body: unknown }): Promise<void> {
		const nth = this.counts.get(call.op) ?? 0;
		this.actsUnderWay += 1;
		try {
			for (const trigger of this.schedule.triggers) {
				if (trigger.op !== call.op || trigger.nth !== nth || trigger.phase !== phase) continue;
				if (trigger.action === 'shortStore') {
					const key = this.shortStoreKey(call);
					if (key) await this.act('shortStore', key, call, reply);
					continue;
				}
				await this.act(trigger.action, this.keys[trigger.role], call, reply);
			}
		} finally {
			this.actsUnderWay -= 1;
		}
	}

	async before(call: HookCall): Promise<HookAnswer | undefined> {
		const n = ++this.total;
		this.numbers.set(call, n);
		if (this.stop) {
			this.stop.lastRequestAt = Date.now();
			if (this.stop.holdsBefore(n)) {
				this.log.push(`stop: request ${n} (${call.op} ${subjectOf(call, this.emulator.accessId)}) never carried out`);
				await this.stop.hold();
				return NO_ANSWER;
			}
		}
		this.counts.set(call.op, (this.counts.get(call.op) ?? 0) + 1);
		const subject = subjectOf(call, this.emulator.accessId);
		if (this.pause?.takes(call, subject)) {
			const paused = this.pause.answer(call, subject);
			// Not carried out: no look at its key (invariants.ts `observes` knows no such op).
			this.requests.push({ seq: this.emulator.adversary.tick(), op: `${call.op} 503`, method: call.method, subject });
			return paused;
		}
		await this.hold?.beforeHandled(call, subject);
		await this.fire(call, 'before');
		let answer: HookAnswer | undefined;
		if (call.op === 'cdn') {
			this.record(call, subject);
			answer = await this.cdn.serve(call, subject);
			await this.fire(call, 'after');
		} else if (call.op === 'purge') answer = this.cdn.purge(subject);
		else if (call.op === 'signedUrl') answer = this.cdn.signedUrl(subject);
		if (answer && call.op !== 'cdn') {
			const request = this.record(call, subject);
			await this.fire(call, 'after');
			await this.hold?.answering(call, request);
		}
		if (answer) await this.pause?.looked(call, subject);
		if (answer) await this.holdAnswer(call, n);
		return answer;
	}

	async after(call: HookCall, reply: { status: number; body: unknown }): Promise<void> {
		const request = this.record(call, subjectOf(call, this.emulator.accessId));
		if (call.op === 'list' && reply.status === 200) {
			const children = (reply.body as { data?: { contents?: { children?: { path: string; type: string }[] } } }).data
				?.contents?.children;
			request.listed = (children ?? []).filter((c) => c.type === 'file').map((c) => c.path);
		}
		await this.fire(call, 'after', reply);
		await this.hold?.answering(call, request);
		await this.pause?.looked(call, request.subject);
		await this.holdAnswer(call, this.numbers.get(call) ?? 0);
	}

	/** The stop's own request, drawn 'after': carried out, its answer never sent. */
	private async holdAnswer(call: HookCall, n: number): Promise<void> {
		if (!this.stop || n !== this.stop.at.nth || this.stop.at.phase !== 'after') return;
		this.log.push(
			`stop: request ${n} (${call.op} ${subjectOf(call, this.emulator.accessId)}) carried out, never answered`,
		);
		await this.stop.hold();
	}

	/** The request as handled now: after its 'before' acts, so it sees them. */
	private record(call: HookCall, subject: string): NodeRequest {
		const request = { seq: this.emulator.adversary.tick(), op: call.op, method: call.method, subject };
		this.requests.push(request);
		return request;
	}
}
