/**
 * Resident memory from /proc. VmHWM is the kernel's own peak of VmRSS, so no spike between
 * two samples is missed; writing "5" to clear_refs restarts that peak from the current RSS,
 * which is how a run's peak is separated from whatever the process did before it.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Bytes: the RSS, and its peak since start or since the last resetPeak. NaN once a process has exited. */
export function procStatus(pid: number | 'self' = 'self'): { rss: number; hwm: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
	return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

/** False where the kernel does not allow it; the sampled peak is then all we have. */
export function resetPeak(pid: number | 'self' = 'self'): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/**
 * Polls a process's RSS, as the issue asks (every 50 ms); the peak it reports is the larger of
 * the samples and the kernel's VmHWM, so a busy event loop delaying a sample loses nothing.
 */
export class RssSampler {
	private timer: NodeJS.Timeout | undefined;
	private peak = 0;

	constructor(private readonly pid: number | 'self' = 'self') {}

	start(): void {
		this.sample();
		this.timer = setInterval(() => this.sample(), 50).unref();
	}

	/** Returns the peak in bytes; keeps the last good reading if the process already exited. */
	stop(): number {
		clearInterval(this.timer);
		this.sample();
		return this.peak;
	}

	private sample(): void {
		try {
			// A process that has exited but is not yet reaped has no Vm* lines: NaN, skipped.
			const { rss, hwm } = procStatus(this.pid);
			for (const value of [rss, hwm]) if (Number.isFinite(value)) this.peak = Math.max(this.peak, value);
		} catch {
			// The process is gone; the peak so far stands.
		}
	}
}
