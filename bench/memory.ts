/**
 * Resident memory from /proc. VmHWM is the kernel's own peak of VmRSS, so no spike between
 * two samples is missed; writing "5" to clear_refs restarts that peak from the current RSS,
 * which is how a run's peak is separated from whatever the process did before it.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface ProcMemory {
	/** Bytes. */
	rss: number;
	/** Bytes; the peak RSS since start or since the last resetPeak. */
	hwm: number;
}

function kib(status: string, field: string): number {
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
	return match ? Number(match[1]) * 1024 : NaN;
}

export function procStatus(pid: number | 'self' = 'self'): ProcMemory {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return { rss: kib(status, 'VmRSS'), hwm: kib(status, 'VmHWM') };
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
 * Polls a process's RSS, as the issue asks (every ~50 ms); the peak it reports is the larger of
 * the samples and the kernel's VmHWM, so a busy event loop delaying a sample loses nothing.
 */
export class RssSampler {
	private timer: NodeJS.Timeout | undefined;
	private sampledPeak = 0;
	samples = 0;

	constructor(
		private readonly pid: number | 'self' = 'self',
		private readonly everyMs = 50,
	) {}

	start(): void {
		this.sample();
		this.timer = setInterval(() => this.sample(), this.everyMs);
		this.timer.unref();
	}

	/** Returns the peak in bytes; keeps the last good reading if the process already exited. */
	stop(): number {
		clearInterval(this.timer);
		this.sample();
		return this.sampledPeak;
	}

	private sample(): void {
		try {
			// A process that has exited but is not yet reaped has no Vm* lines: NaN, skipped.
			const { rss, hwm } = procStatus(this.pid);
			this.samples++;
			for (const value of [rss, hwm]) if (Number.isFinite(value)) this.sampledPeak = Math.max(this.sampledPeak, value);
		} catch {
			// The process is gone; the peak so far stands.
		}
	}
}
