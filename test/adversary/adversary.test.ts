/**
 * The seeded adversary (see schedule.ts and invariants.ts): Copy, Move, Upload with Refuse Existing
 * File and Folder → Delete run through n8n-core's engine against the emulator, while other writers
 * act at drawn points of the node's requests, the CDN keeps old versions after purges and dates,
 * marks and clocks its answers as drawn, and a proxy answers purges, HEADs and existence checks
 * with its own pages. After each schedule the invariants are checked against the emulator's full
 * history of stored versions. The long run (longRun.ts) draws many more seeds.
 *
 * ADVERSARY_SEEDS=18,50 runs those seeds instead and prints each one's schedule, what the adversary
 * and the node did, and the history.
 */
import { describe as described, explore, type Counterexample } from './explore';
import { OPEN_SEEDS } from './openSeeds';

const FIRST_SEED = 1;
const SEED_COUNT = 240;

const chosen = process.env.ADVERSARY_SEEDS?.split(',').map(Number);
const seeds =
	chosen ?? Array.from({ length: SEED_COUNT }, (_, i) => FIRST_SEED + i).filter((seed) => !OPEN_SEEDS.includes(seed));

describe('the seeded adversary', () => {
	let found: Counterexample[] = [];
	const acts = new Map<string, number>();

	beforeAll(async () => {
		found = await explore(seeds, {
			concurrency: 4,
			onResult: (_seed, example) => void example,
			onOutcome: (outcome) => {
				for (const line of outcome.log) {
					const kind = /HIT|proxy page|lingers|rewriteSame|rewriteOther|delete \w+$|shortStore|view/.exec(line)?.[0];
					if (kind) acts.set(kind, (acts.get(kind) ?? 0) + 1);
				}
				const failed = outcome.items.filter((item) => !item.ok).length;
				acts.set('item failed', (acts.get('item failed') ?? 0) + failed);
				acts.set('item succeeded', (acts.get('item succeeded') ?? 0) + outcome.items.length - failed);
			},
		});
		if (chosen) for (const example of found) console.log(described(example));
	}, 600_000);

	it('explores its fixed seeds: after every schedule, every invariant holds', () => {
		expect(found.map(described)).toEqual([]);
	});

	it('really acts in those schedules: kept answers after purges, proxy pages, rewrites, deletes, short stores', () => {
		if (chosen) return;
		for (const kind of [
			'HIT',
			'lingers',
			'proxy page',
			'rewriteSame',
			'rewriteOther',
			'shortStore',
			'view',
			'item failed',
			'item succeeded',
		]) {
			expect([kind, acts.get(kind) ?? 0]).toEqual([kind, expect.any(Number)]);
			expect(acts.get(kind)).toBeGreaterThan(0);
		}
	});
});
