/**
 * Held looks: a gateway or rate limiter that holds a request of the node, or its answer, for 2.5–3.5 s without a
 * 429/503 (the node cannot see the wait; the product times its looks: transport/looks.ts FRESH_LOOK_MS). The drawn
 * look is the `look`-th listing or existence check (signed URL) of the node at a key the schedule's destructive step
 * acts on (a source or destination of its items, a file of Folder → Delete's folder). During the hold, on a timer,
 * another writer rewrites (same size, other size, other kind) or deletes the key looked at, or another key of the
 * schedule, or stores a file at a key where none is.
 *
 * Held before it is handled ('request'), the look sees the write; held after ('answer'), it cannot: the answer that
 * reaches the node shows the key as it was before the write. The look's request then carries `heldUntilSeq`, the seq
 * when its answer left the hook: invariants.ts never excuses as unseen a write made at that key while it was held.
 */
import type { Emulator } from '../emulator';
import type { HookCall } from '../emulator/history';
import type { Random } from './random';
import type { Action, NodeRequest, Role, Scenario } from './schedule';

export interface Hold {
	/** Which look is held: the `look`-th listing or existence check at a key of the schedule's destructive steps. */
	look: number;
	/** Its request before the emulator handles it, or its answer after. */
	where: 'request' | 'answer';
	ms: number;
	action: Action;
	/** Where the writer acts: the key looked at, another role's key, or a key where no file is ('free'). */
	role: Role | 'looked' | 'free';
	/** When it acts, as a share of the hold (0.15–0.85). */
	at: number;
	/** The roles the schedule's destructive steps act on. */
	targets: Role[];
}

/** The roles a destructive step of the scenario acts on. */
function targetRoles(scenario: Scenario): Role[] {
	if (scenario.operation === 'folderDelete') return ['dirA', 'dirB', 'dirSub', 'dirNew'];
	return [...new Set(scenario.items.flat())];
}

const lastLooksOrAny = (random: Random) => (random.chance(0.5) ? random.int(5, 6) : random.int(1, 7));

export function drawHold(random: Random, scenario: Scenario): Hold {
	const where = random.next();
	const targets = targetRoles(scenario);
	return {
		targets,
		// A Copy or Move item looks about six times at its keys, the last two right before its delete: half the holds there.
		look: scenario.operation === 'copy' || scenario.operation === 'move' ? lastLooksOrAny(random) : random.int(1, 3),
		where: random.chance(0.2) ? 'request' : 'answer',
		ms: 2500 + Math.round(random.next() * 1000),
		action: random.pick(['rewriteSame', 'rewriteOther', 'rewriteSameOtherKind', 'rewriteSame', 'delete'] as const),
		role: where < 0.6 ? 'looked' : where < 0.8 ? 'free' : random.pick(targets),
		at: 0.15 + random.next() * 0.7,
	};
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export class HoldPoint {
	private looks = 0;
	private drawn?: HookCall;

	constructor(
		private readonly hold: Hold,
		private readonly emulator: Emulator,
		private readonly keys: Record<Role, string>,
		private readonly act: (action: Action, key: string) => Promise<void>,
		private readonly log: string[],
	) {}

	/** The keys of the schedule's destructive steps a request at `subject` looks at (a listing: those under it). */
	private looked(call: HookCall, subject: string): string[] {
		const keys = this.hold.targets.map((role) => this.keys[role]);
		if (call.op === 'list') return keys.filter((key) => key.startsWith(subject));
		return call.op === 'signedUrl' ? keys.filter((key) => key === subject) : [];
	}

	/** Before the emulator handles a request: counts the looks, and holds the drawn one when drawn 'request'. */
	async beforeHandled(call: HookCall, subject: string): Promise<void> {
		const looked = this.looked(call, subject);
		if (!looked.length || ++this.looks !== this.hold.look) return;
		this.drawn = call;
		if (this.hold.where === 'request') await this.holdFor(`request of ${call.op} ${subject}`, looked);
	}

	/** Its answer about to leave: the drawn one, drawn 'answer', is held; `request` learns when it left. */
	async answering(call: HookCall, request: NodeRequest): Promise<void> {
		if (call !== this.drawn || this.hold.where !== 'answer') return;
		this.drawn = undefined;
		await this.holdFor(`answer of ${call.op} ${request.subject}`, this.looked(call, request.subject));
		request.heldUntilSeq = this.emulator.adversary.tick();
	}

	private async holdFor(what: string, looked: string[]): Promise<void> {
		const { ms, at, action } = this.hold;
		this.log.push(`hold: ${what} held ${ms} ms`);
		await sleep(ms * at);
		const key = await this.keyOf(looked);
		this.log.push(`in the hold, ${Math.round(ms * at)} ms in:`);
		await this.act(this.hold.role === 'free' ? 'rewriteSame' : action, key);
		await sleep(ms * (1 - at));
	}

	private async keyOf(looked: string[]): Promise<string> {
		const { role } = this.hold;
		if (role !== 'looked' && role !== 'free') return this.keys[role];
		if (role === 'looked') return looked[0];
		for (const target of this.hold.targets) {
			const key = this.keys[target];
			if (!(await this.emulator.adversary.current(key))) return key;
		}
		return looked[0];
	}
}
