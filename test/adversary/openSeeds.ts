/**
 * Seeds of the fixed range whose schedules are counterexamples the code does not fix yet. They run
 * in counterexamples.test.ts.pending (with a named case for each kind), not in adversary.test.ts.
 */
export const OPEN_SEEDS: number[] = [
	56, 61, 65, 82, 102, 110, 112, 113, 118, 122, 134, 145, 176, 179, 188, 191, 196, 206, 212, 217, 223, 227, 233,
];
