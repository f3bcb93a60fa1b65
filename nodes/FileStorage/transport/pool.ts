import { sleep } from 'n8n-workflow';
import { steadyMs } from './clock';

/**
 * One per node run (version 3): every request of every item takes a slot, every request body
 * the node builds reserves its bytes, and a 429 or 503 pauses all of them. Items then run in
 * parallel without multiplying either the connections or the memory.
 *
 * Why it cannot deadlock: a request holding a slot waits for nothing but the service, and a body
 * is reserved only right before it is filled and sent, never while its item waits for another
 * reservation. So whatever holds a slot or memory finishes and gives it back.
 */

/** How often a wait checks whether the execution was stopped. */
const WAIT_STEP_MS = 100;

interface MemoryWaiter {
	bytes: number;
	/** Takes its body from the pool (`bodyBuffer`): only such a waiter may be handed an idle one. */
	pooled: boolean;
	grant: () => void;
}

interface IdleBody {
	buffer: Buffer;
	bytes: number;
}

export class RunPool {
	private active = 0;
	private readonly slotWaiters: Array<() => void> = [];
	private pauseUntil = 0;
	private reserved = 0;
	private readonly memoryWaiters: MemoryWaiter[] = [];
	/** Part bodies no upload uses right now, kept (and counted) for the next part of any upload. */
	private readonly idle = new Map<number, IdleBody[]>();
	/**
	 * Idle bodies handed to a reservation that waited for their room: the reservation now counts
	 * their bytes, so the next `bodyBuffer` of that size takes one without allocating again.
	 */
	private readonly handed = new Map<number, IdleBody[]>();

	/** The most requests and reserved bytes seen at once (tests and the bench read them). */
	peakActive = 0;
	peakReserved = 0;

	constructor(
		/** Requests in flight at most, over all items. */
		readonly parallel: number,
		/** Bytes of request bodies held at most (one body larger than this goes alone). */
		readonly memoryBudget: number,
		private readonly stopped: () => boolean = () => false,
	) {}

	/** Waits until the service's pause is over and a slot is free; call the answer to give it back. */
	async slot(): Promise<() => void> {
		return (await this.takeSlot()).giveBack;
	}

	/**
	 * As `slot`, saying whether the request had to wait (a pause, or no free slot): a check made
	 * before that wait may be stale by seconds once the request goes (see AttemptPlan.checkFirst).
	 */
	async takeSlot(): Promise<{ giveBack: () => void; waited: boolean }> {
		let waited = await this.pauseOver();
		if (this.active < this.parallel) this.active += 1;
		else {
			waited = true;
			await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
		}
		this.peakActive = Math.max(this.peakActive, this.active);
		// A 429 may have come while this request queued: it waits, holding its place.
		if (await this.pauseOver()) waited = true;
		return { giveBack: this.giveBackOnce(), waited };
	}

	private giveBackOnce(): () => void {
		let given = false;
		return () => {
			if (given) return;
			given = true;
			const next = this.slotWaiters.shift();
			// Handed straight to the next waiter: the count stays.
			if (next) next();
			else this.active -= 1;
		};
	}

	/** The service asked to wait (429, 503): no request of this run goes out before then. */
	pause(ms: number): void {
		this.pauseUntil = Math.max(this.pauseUntil, steadyMs() + ms);
	}

	/** True when it had to wait. */
	private async pauseOver(): Promise<boolean> {
		for (let waited = false; ; waited = true) {
			const left = this.pauseUntil - steadyMs();
			if (left <= 0 || this.stopped()) return waited;
			await sleep(Math.min(left, WAIT_STEP_MS));
		}
	}

	/**
	 * Waits until `bytes` more fit in the budget (in order of asking). `pooled`: the body will come
	 * from `bodyBuffer`; a reservation that allocates its own body (a small file, a step-by-step
	 * part) is never handed an idle one, which would then be held beside its own.
	 */
	async reserve(bytes: number, pooled = false): Promise<void> {
		if (this.memoryWaiters.length === 0 && this.fits(bytes)) {
			this.take(bytes);
			return;
		}
		await new Promise<void>((grant) => {
			this.memoryWaiters.push({ bytes, pooled, grant });
			this.grant();
		});
	}

	/** Ends a reservation no body was filled for (a part the source did not have, a small file sent). */
	unreserve(bytes: number): void {
		this.reserved -= bytes;
		// A body handed to a reservation that ends unused is no longer counted: let go of it.
		for (const [capacity, list] of this.handed) {
			const at = list.findIndex((body) => body.bytes === bytes);
			if (at < 0) continue;
			list.splice(at, 1);
			if (list.length === 0) this.handed.delete(capacity);
			break;
		}
		this.grant();
	}

	/**
	 * A body buffer of `capacity` bytes for a reservation already made: an idle one (whose own
	 * reservation then ends) or a new one.
	 */
	bodyBuffer(capacity: number): Buffer {
		const handed = this.handed.get(capacity)?.pop();
		if (handed) return handed.buffer;
		const reused = this.idle.get(capacity)?.pop();
		if (reused) {
			this.reserved -= reused.bytes;
			return reused.buffer;
		}
		return Buffer.allocUnsafeSlow(capacity);
	}

	/** A body whose request settled: kept for reuse, its `bytes` still reserved until reused or dropped. */
	returnBody(buffer: Buffer, bytes: number): void {
		const list = this.idle.get(buffer.length) ?? [];
		list.push({ buffer, bytes });
		this.idle.set(buffer.length, list);
		this.grant();
	}

	private fits(bytes: number): boolean {
		// A body larger than the whole budget goes once nothing else is held.
		return this.reserved + bytes <= this.memoryBudget || this.reserved === 0;
	}

	private take(bytes: number): void {
		this.reserved += bytes;
		this.peakReserved = Math.max(this.peakReserved, this.reserved);
	}

	/** An idle body of `bytes`, its reservation passed on to the waiter that needs its room. */
	private handIdle(bytes: number): boolean {
		for (const [capacity, list] of this.idle) {
			const at = list.findIndex((body) => body.bytes === bytes);
			if (at < 0) continue;
			const [body] = list.splice(at, 1);
			if (list.length === 0) this.idle.delete(capacity);
			const handed = this.handed.get(capacity) ?? [];
			handed.push(body);
			this.handed.set(capacity, handed);
			return true;
		}
		return false;
	}

	private dropIdle(): boolean {
		for (const [capacity, list] of this.idle) {
			const body = list.pop();
			if (list.length === 0) this.idle.delete(capacity);
			if (body) {
				this.reserved -= body.bytes;
				return true;
			}
		}
		return false;
	}

	private grant(): void {
		for (;;) {
			const head = this.memoryWaiters[0];
			if (!head) return;
			if (this.reserved + head.bytes > this.memoryBudget) {
				// A body of the waiter's size goes to it as it is (the next part of an upload
				// reuses it instead of allocating while the old one awaits garbage collection).
				if (head.pooled && this.handIdle(head.bytes)) {
					this.memoryWaiters.shift();
					this.peakReserved = Math.max(this.peakReserved, this.reserved);
					head.grant();
					continue;
				}
				// Other idle bodies give way before anything waits for memory.
				if (this.dropIdle()) continue;
			}
			if (!this.fits(head.bytes)) return;
			this.memoryWaiters.shift();
			this.take(head.bytes);
			head.grant();
		}
	}
}

/**
 * Gives a request's slot back once its body is done with: read to its end, failed, or destroyed
 * (read or not). `release` runs once, on whichever comes first; a body that is no stream, or is
 * destroyed already, gives the slot back at once.
 */
export function releaseWithBody(body: unknown, release: () => void): void {
	const stream = body as { once?: (event: string, listener: () => void) => void; destroyed?: boolean };
	if (typeof stream?.once !== 'function' || stream.destroyed === true) {
		release();
		return;
	}
	let given = false;
	const once = () => {
		if (given) return;
		given = true;
		release();
	};
	for (const event of ['close', 'end', 'error']) stream.once(event, once);
}

/** Runs `work` with `bytes` of body memory reserved from the run's pool (when it has one). */
export async function withBodyMemory<T>(pool: RunPool | undefined, bytes: number, work: () => Promise<T>): Promise<T> {
	if (!pool) return await work();
	await pool.reserve(bytes);
	try {
		return await work();
	} finally {
		pool.unreserve(bytes);
	}
}
