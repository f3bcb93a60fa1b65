/** Medians and the units the tables print. */

export const MIB = 1024 * 1024;

/** Where a scenario says what it is doing (the bench's stderr). */
export type Log = (line: string) => void;

export function median(values: number[]): number {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of one field over runs; a run without it counts as NaN (left out). */
export function medianOf<K extends string>(runs: Array<{ [key in K]?: number }>, field: K): number {
	return median(runs.map((run) => run[field] ?? NaN));
}

/** Median over rounds of `reference`'s time ÷ the same round's time of `runs` (above 1: faster than the reference). */
export function perRoundRatio(runs: Array<{ ms: number }>, reference: Array<{ ms: number }> | undefined): number {
	return median(runs.map((run, i) => (reference?.[i] ? reference[i].ms / run.ms : NaN)));
}

export function mibPerSecond(bytes: number, ms: number): number {
	return bytes / MIB / (ms / 1000);
}

export const fmt = {
	mib: (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / MIB).toFixed(0)} MiB` : '–'),
	size: (bytes: number) =>
		bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0
			? `${bytes / 1024 ** 3} GiB`
			: bytes % MIB === 0
				? `${bytes / MIB} MiB`
				: `${(bytes / 1e6).toFixed(0)} MB`,
	rate: (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} MiB/s` : '–'),
	ratio: (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '–'),
	seconds: (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–'),
	cpu: (s: number) => (Number.isFinite(s) ? `${s.toFixed(1)} s` : '–'),
};

/** A target's verdict in a table cell, and in the report's lines. */
export const met = (ok: boolean) => (ok ? 'met' : '**not met**');
export const verdict = (ok: boolean) => (ok ? '**met**' : '**not met**');

export const runsOf = (n: number) => (n === 1 ? 'one run' : `medians of ${n} runs`);
