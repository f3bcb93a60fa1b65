/**
 * The n8n process's memory and the emulator's counts during each File Storage node's run of the
 * many-real scenario, told apart by the emulator's request counts.
 */
import type { EmulatorProcess, EmulatorStats } from './children';
import type { ManyOperation } from './many-files';
import { procStatus, resetPeak } from './memory';

type Stats = EmulatorStats;

interface Phase {
	op: ManyOperation;
	/** The emulator's request kinds that open and close the node's run (its first, its N-th). */
	first: string;
	last: string;
	/** ending: the N-th request arrived; the next poll (50 ms on) closes it with the answers in flight. */
	state: 'waiting' | 'running' | 'ending' | 'done';
	rssBefore: number;
	peak: number;
	/** The emulator's counts before the node's first request: the phases split the run's counts between them. */
	from: Stats | undefined;
	/** Its N-th request had arrived by the previous poll. */
	endedBefore: boolean;
}

export interface PhaseResult {
	rssGrowth: number;
	connections: number;
	requests: number;
}

/**
 * The n8n process's RSS during each File Storage node's run: from the emulator seeing its first
 * request (RSS read, kernel peak reset) to seeing its N-th, so n8n's start, the Code node and
 * the other nodes stay out of it. Also the connections and requests each node made.
 */
export class PhaseWatch {
	private timer: NodeJS.Timeout | undefined;
	private polling = false;
	private base: Stats | undefined;
	/** The previous poll's counts: a node's connections are counted from before its first request. */
	private last: Stats | undefined;
	private pid = 0;
	readonly phases: Phase[];

	constructor(
		private readonly emulator: EmulatorProcess,
		ops: ManyOperation[],
		private readonly count: number,
	) {
		const marks: Record<ManyOperation, [string, string]> = {
			upload: ['upload', 'upload'],
			download: ['signedUrl', 'cdn'],
			delete: ['delete', 'delete'],
		};
		this.phases = ops.map((op) => ({
			op,
			first: marks[op][0],
			last: marks[op][1],
			state: 'waiting',
			rssBefore: NaN,
			peak: 0,
			from: undefined,
			endedBefore: false,
		}));
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
			const seen = (kind: string) => stats.requests[kind] - (this.base as Stats).requests[kind];
			for (const phase of this.phases) {
				if (phase.state === 'waiting' && seen(phase.first) > 0) {
					phase.state = 'running';
					phase.rssBefore = procStatus(this.pid).rss;
					phase.peak = phase.rssBefore;
					// From the last poll before its first request, unless the node before it only
					// finished in this poll: then from now, so that one's connections stay its own.
					const previous = this.phases[this.phases.indexOf(phase) - 1];
					phase.from = !previous ? this.base : previous.endedBefore ? this.last : stats;
					resetPeak(this.pid);
				}
				if (phase.state !== 'running' && phase.state !== 'ending') continue;
				const { rss, hwm } = procStatus(this.pid);
				for (const value of [rss, hwm]) if (Number.isFinite(value)) phase.peak = Math.max(phase.peak, value);
				if (phase.state === 'running' && seen(phase.last) >= this.count) phase.state = 'ending';
				else if (phase.state === 'ending') phase.state = 'done';
			}
			for (const phase of this.phases) phase.endedBefore = phase.state === 'ending' || phase.state === 'done';
			this.last = stats;
		} catch {
			// The process ended; the readings so far stand.
		} finally {
			this.polling = false;
		}
	}

	/** After the process ended: each node's counts run to the next node's first request, the last's to the end. */
	async stop(): Promise<Map<ManyOperation, PhaseResult>> {
		clearInterval(this.timer);
		while (this.polling) await new Promise((resolve) => setTimeout(resolve, 10));
		const end = await this.emulator.stats();
		return new Map(
			this.phases.map((p, i) => {
				const to = this.phases[i + 1]?.from ?? end;
				if (p.state === 'waiting' || !p.from || !this.base) {
					return [p.op, { rssGrowth: NaN, connections: NaN, requests: NaN }];
				}
				const from = p.from;
				const base = this.base;
				// Requests by kind are exact (no two nodes send the same kind); connections are split at the polls.
				const kinds = [...new Set([p.first, p.last])];
				return [
					p.op,
					{
						rssGrowth: p.peak - p.rssBefore,
						connections: to.connections.opened - from.connections.opened,
						requests: kinds.reduce((sum, kind) => sum + end.requests[kind] - base.requests[kind], 0),
					},
				];
			}),
		);
	}
}
