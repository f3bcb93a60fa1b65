/**
 * Seeds of the fixed range whose schedules are counterexamples the code does not fix yet. They run
 * in counterexamples.test.ts.pending (with a named case for each kind), not in adversary.test.ts.
 * 217: a CDN that keeps an old version after the purge and marks nothing (cases.ts, "silently").
 */
export const OPEN_SEEDS: number[] = [217];
