/** What became of one change: its output item, or the error its download failed with. */
export type Outcome<T> = { item: T } | { error: unknown };

export interface WindowLimits {
	/** Changes under way at most (the poll's Parallel Requests). */
	parallel: number;
	/** Emitted items at most (Max Files Per Poll). */
	room: number;
	/** Whether a change failed for good (is emitted without its file) rather than held back. */
	givesUp: (index: number) => boolean;
	/** Whether the poll is out of time: no further change starts (the first always does). */
	late: () => boolean;
}

/**
 * Turns changes into items, up to `parallel` at once, and answers the outcome of each change
 * that started, by index; the changes from `started` on did not start. A change starts only
 * while the ones emitted and the ones under way are fewer than `room`, so every download that
 * succeeds is emitted (none lands in n8n's binary store for an item the poll leaves out), and a
 * held-back failure makes room for the next change. With `parallel` 1 this is the one-by-one
 * loop exactly. Nothing rejects: each outcome holds its own error, so a poll n8n abandons
 * leaves no unhandled rejection behind.
 */
export async function inWindow<T>(
	count: number,
	limits: WindowLimits,
	work: (index: number) => Promise<T>,
): Promise<{ outcomes: Array<Outcome<T>>; started: number }> {
	const outcomes: Array<Outcome<T>> = [];
	let started = 0;
	let emitted = 0;
	let underWay = 0;
	const mayStart = () => started < count && emitted + underWay < limits.room && (started === 0 || !limits.late());
	const worker = async () => {
		while (mayStart()) {
			const index = started++;
			underWay++;
			let outcome: Outcome<T>;
			try {
				outcome = { item: await work(index) };
			} catch (error) {
				outcome = { error };
			}
			underWay--;
			if ('item' in outcome || limits.givesUp(index)) emitted++;
			outcomes[index] = outcome;
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limits.parallel, count)) }, worker));
	return { outcomes, started };
}
