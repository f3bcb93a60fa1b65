/**
 * Pauses of the run's request pool (version 3; transport/pool.ts): right after a drawn look of the node at a key (a
 * check, a listing, a read), the service answers the next request of the run at another key (another item's) with a
 * 503 and a Retry-After of 1–3 s, which pauses every request of the run; another writer acts DURING that pause, on a
 * timer (not at a request of the node), at the key just looked at or the one looked at before. The look's answer
 * reaches the node 300 ms after the 503 (the order the network may give), so the item that looked asks for its next
 * slot while the pool is paused: what it decided on that look must be checked again in its slot, or the write of the
 * pause is lost. The pauses' spans of seqs are the outcome's `pauses`: invariants.ts never excuses a write made in one
 * as unseen.
 */
import type { Emulator } from '../emulator';
import type { HookAnswer, HookCall } from '../emulator/history';
import type { Random } from './random';
import type { Action, Role } from './schedule';

export interface Pause {
	/** The look of the node after which the next request at another key gets the 503: the `look`-th of kind `lookOp`. */
	lookOp: 'list' | 'signedUrl' | 'any';
	look: number;
	retryAfterS: 1 | 2 | 3;
	action: Action;
	/** Where the writer acts: a role, the key of the drawn look, or of the look before it at another key. */
	role: Role | 'justLooked' | 'lookedBefore';
	/** When it acts, as a share of the pause (0.2–0.8). */
	at: number;
}

/** A span of seqs (the history's and the requests') in which the run's pool was paused. */
export interface PauseSpan {
	fromSeq: number;
	toSeq: number;
}

/** Ops of the node that look at a key (invariants.ts `observes`). */
const LOOKS = new Set(['signedUrl', 'list', 'cdn', 'purge']);
/** How long the drawn look's answer waits for another request of the run at most (none: no pause). */
const HOLD_MS = 1500;
/** How much later than the 503 the drawn look is answered. */
const LOOK_LATE_MS = 300;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A look by kind: a listing (a Move's last looks at its source and destination), a check (Upload's before Complete),
 * or any (a run of Copy or Move items looks a dozen times each: checks, reads, listings).
 */
export function drawPause(random: Random, roles: Role[]): Pause {
	const where = random.next();
	const lookOp = random.pick(['list', 'signedUrl', 'any'] as const);
	return {
		lookOp,
		look: random.int(1, lookOp === 'any' ? 24 : 8),
		retryAfterS: random.pick([1, 2, 3] as const),
		action: random.pick(['rewriteSame', 'rewriteOther', 'rewriteSameOtherKind', 'rewriteOther', 'delete'] as const),
		role: where < 0.4 ? 'justLooked' : where < 0.75 ? 'lookedBefore' : random.pick(roles),
		at: 0.2 + random.next() * 0.6,
	};
}

export class PausePoint {
	readonly spans: PauseSpan[] = [];
	private readonly acts: Promise<void>[] = [];
	/** The drawn look, its answer held until another request of the run comes (`take`). */
	private holding?: { subject: string; take: () => void };
	private looksSeen = 0;
	private looksOfKind = 0;
	/** The keys the node's answered looks named, last first, each once. */
	private readonly looks: string[] = [];

	constructor(
		private readonly pause: Pause,
		private readonly emulator: Emulator,
		private readonly keys: Record<Role, string>,
		private readonly act: (action: Action, key: string) => Promise<void>,
		private readonly log: string[],
	) {}

	/**
	 * Whether this request is the one answered 503: the first API request at another key while the look is held (a
	 * read through the CDN is not the service's, and does not pause the pool).
	 */
	takes(call: HookCall, subject: string): boolean {
		return this.holding !== undefined && this.holding.subject !== subject && call.op !== 'cdn';
	}

	/** The 503 with Retry-After; the other writer's act is set on its timer. */
	answer(call: HookCall, subject: string): HookAnswer {
		this.holding?.take();
		this.holding = undefined;
		const ms = this.pause.retryAfterS * 1000;
		const span = { fromSeq: this.emulator.adversary.tick(), toSeq: Number.POSITIVE_INFINITY };
		this.spans.push(span);
		const key = this.keyOf();
		this.log.push(`pause: 503 Retry-After ${this.pause.retryAfterS} to ${call.op} ${subject}`);
		this.acts.push(
			(async () => {
				await sleep(ms * this.pause.at);
				this.log.push(`in the pause, ${Math.round(ms * this.pause.at)} ms after the 503:`);
				await this.act(this.pause.action, key);
				await sleep(ms * (1 - this.pause.at));
				span.toSeq = this.emulator.adversary.tick();
			})(),
		);
		return {
			status: 503,
			headers: { 'Content-Type': 'application/json', 'Retry-After': String(this.pause.retryAfterS) },
			body: JSON.stringify({ error: 'Service unavailable' }),
		};
	}

	/** A look of the node, about to be answered: the drawn one is held until the 503, and answered after it. */
	async looked(call: HookCall, subject: string): Promise<void> {
		if (!LOOKS.has(call.op)) return;
		if (this.looks.includes(subject)) this.looks.splice(this.looks.indexOf(subject), 1);
		this.looks.unshift(subject);
		this.looksSeen += 1;
		if (call.op === this.pause.lookOp) this.looksOfKind += 1;
		const nth = this.pause.lookOp === 'any' ? this.looksSeen : call.op === this.pause.lookOp ? this.looksOfKind : 0;
		if (nth !== this.pause.look) return;
		const taken = await Promise.race([
			new Promise<boolean>((take) => (this.holding = { subject, take: () => take(true) })),
			sleep(HOLD_MS).then(() => false),
		]);
		this.holding = undefined;
		if (taken) await sleep(LOOK_LATE_MS);
	}

	/** Waits until the writer of every pause has acted and the pause is over. */
	async settled(): Promise<void> {
		await Promise.all(this.acts);
	}

	private keyOf(): string {
		const { role } = this.pause;
		if (role !== 'justLooked' && role !== 'lookedBefore') return this.keys[role];
		const keys = Object.values(this.keys);
		const looked = this.looks.filter((key) => keys.includes(key))[role === 'justLooked' ? 0 : 1];
		return looked ?? this.keys.dst;
	}
}
