/** Sums V8's GC pauses as Node reports them (perf_hooks 'gc' entries) over a span. */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export class GcMeter {
	private pauseMs = 0;
	private majorCount = 0;
	private readonly observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => this.add(entry)));

	constructor() {
		this.observer.observe({ entryTypes: ['gc'] });
	}

	private add(entry: PerformanceEntry): void {
		this.pauseMs += entry.duration;
		const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
		if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.majorCount++;
	}

	/** Entries arrive asynchronously; one turn of the event loop lets the last ones in. */
	async stop(): Promise<{ pauseMs: number; majorCount: number }> {
		await new Promise((resolve) => setImmediate(resolve));
		this.observer.disconnect();
		return { pauseMs: this.pauseMs, majorCount: this.majorCount };
	}
}
