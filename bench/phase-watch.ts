/**
 * The n8n process's memory and the emulator's counts while a node runs in real n8n (`n8n
 * execute`), each node's run told apart by the emulator's request counts: from seeing a node's
 * first request (RSS read, kernel peak reset) to seeing its N-th, so n8n's start, a Code node and
 * the other nodes stay out of it.
 */
import { setTimeout } from 'node:timers/promises';

import type { EmulatorProcess, EmulatorStats as Stats } from './children';
import { procStatus, resetPeak } from './memory';

/** A node's run: the emulator's request kinds of its first request and of its N-th (its last). */
export type PhaseSpec = { name: string; first: string; last: string };

interface Phase extends PhaseSpec {
	/** The polls that saw its first and its N-th request; the next poll closes it, with the answers in flight. */
	started?: number;
	ended?: number;
	rssBefore: number;
	peak: number;
	/** The emulator's counts before the node's first request: the phases split the run's counts between them. */
	from?: Stats;
}

export type PhaseResult = { rssBefore: number; rssGrowth: number; connections: number; requests: number };

export class PhaseWatch {
	private timer?: NodeJS.Timeout;
	private polling = false;
	private polls = 0;
	/** The counts before the run. */
	base: Stats | undefined;
	/** The previous poll's counts: a node's connections are counted from before its first request. */
	private last: Stats | undefined;
	private pid = 0;
	private readonly phases: Phase[];
	/** Every poll's counts and when: the pace of a long run. */
	readonly samples: Array<{ at: number; stats: Stats }> = [];

	constructor(
		private readonly emulator: EmulatorProcess,
		specs: PhaseSpec[],
		private readonly count: number,
	) {
		this.phases = specs.map((spec) => ({ ...spec, rssBefore: NaN, peak: 0 }));
	}

	async arm(): Promise<void> {
		this.base = await this.emulator.stats();
		this.last = this.base;
	}

	start(pid: number): void {
		this.pid = pid;
		this.timer = setInterval(() => void this.poll(), 50);
	}

	private async poll(): Promise<void> {
		if (this.polling || !this.base) return;
		this.polling = true;
		try {
			const stats = await this.emulator.stats();
			const poll = ++this.polls;
			this.samples.push({ at: performance.now(), stats });
			const seen = (kind: string) => stats.requests[kind] - (this.base as Stats).requests[kind];
			for (const [i, phase] of this.phases.entries()) {
				if (phase.started === undefined && seen(phase.first) > 0) {
					phase.started = poll;
					phase.rssBefore = phase.peak = procStatus(this.pid).rss;
					// From the last poll before its first request, unless the node before it only
					// finished in this poll: then from now, so that one's connections stay its own.
					const previous = this.phases[i - 1];
					phase.from = !previous ? this.base : (previous.ended ?? poll) < poll ? this.last : stats;
					resetPeak(this.pid);
				}
				// Not started yet, or closed.
				if (phase.started === undefined || (phase.ended ?? poll) < poll - 1) continue;
				const { rss, hwm } = procStatus(this.pid);
				for (const value of [rss, hwm]) if (Number.isFinite(value)) phase.peak = Math.max(phase.peak, value);
				if (phase.ended === undefined && seen(phase.last) >= this.count) phase.ended = poll;
			}
			this.last = stats;
		} catch {
			// The process ended; the readings so far stand.
		} finally {
			this.polling = false;
		}
	}

	/** After the process ended: each node's counts run to the next node's first request, the last's to the end. */
	async stop(): Promise<Map<string, PhaseResult>> {
		clearInterval(this.timer);
		while (this.polling) await setTimeout(10);
		const end = await this.emulator.stats();
		const { base } = this;
		return new Map(
			this.phases.map((p, i) => {
				const to = this.phases[i + 1]?.from ?? end;
				// Requests by kind are exact (no two nodes send the same kind); connections are split at the polls.
				const kinds = [...new Set([p.first, p.last])];
				const result: PhaseResult =
					!p.from || !base
						? { rssBefore: NaN, rssGrowth: NaN, connections: NaN, requests: NaN }
						: {
								rssBefore: p.rssBefore,
								rssGrowth: p.peak - p.rssBefore,
								connections: to.connections.opened - p.from.connections.opened,
								requests: kinds.reduce((sum, kind) => sum + end.requests[kind] - base.requests[kind], 0),
							};
				return [p.name, result];
			}),
		);
	}
}
