/**
 * The seeded adversary (see schedule.ts and invariants.ts): Copy, Move, Upload with Refuse Existing
 * File and Folder → Delete run through n8n-core's engine against the emulator, while other writers
 * act at drawn points of the node's requests, the CDN keeps old versions after purges and dates,
 * marks and clocks its answers as drawn, and a proxy answers purges, HEADs and existence checks
 * with its own pages. After each schedule the invariants are checked against the emulator's full
 * history of stored versions. The long run (longRun.ts) draws many more seeds.
 *
 * Folder → Copy and Move have schedules of their own (folders.ts): other writers in the source folder
 * and at the destinations, and a stop at a drawn request followed by a run again.
 *
 * ADVERSARY_SEEDS=18,50 runs those seeds instead and prints each one's schedule, what the adversary
 * and the node did, and the history; ADVERSARY_FOLDER_SEEDS the same for the folder schedules.
 */
import { describe as described, explore, type Counterexample } from './explore';
import { drawFolderSchedule } from './folders';
import { OPEN_FOLDER_SEEDS, OPEN_SEEDS } from './openSeeds';
import type { Outcome } from './schedule';

const FIRST_SEED = 1;
const SEED_COUNT = 260;
const FOLDER_SEED_COUNT = 200;

const chosenSeeds = (name: string) => process.env[name]?.split(',').filter(Boolean).map(Number);
const range = (count: number, open: number[]) =>
	Array.from({ length: count }, (_, i) => FIRST_SEED + i).filter((seed) => !open.includes(seed));
const chosen = chosenSeeds('ADVERSARY_SEEDS');
const chosenFolders = chosenSeeds('ADVERSARY_FOLDER_SEEDS');
const anyChosen = chosen !== undefined || chosenFolders !== undefined;
const seeds = anyChosen ? (chosen ?? []) : range(SEED_COUNT, OPEN_SEEDS);
const folderSeeds = anyChosen ? (chosenFolders ?? []) : range(FOLDER_SEED_COUNT, OPEN_FOLDER_SEEDS);

describe('the seeded adversary', () => {
	let found: Counterexample[] = [];
	const acts = new Map<string, number>();

	beforeAll(async () => {
		// Six at once: a schedule mostly waits (a held look's 2.5–3.5 s, a pause's Retry-After).
		found = await explore(seeds, {
			concurrency: 6,
			onResult: (_seed, example) => void example,
			onOutcome: (outcome) => {
				for (const line of outcome.log) {
					const kind =
						/HIT|proxy page|lingers|rewriteSameOtherKind|rewriteSame|rewriteOther|delete \w+$|shortStore|view|pause: 503|in the pause|hold: request|hold: answer|in the hold/.exec(
							line,
						)?.[0];
					if (kind) acts.set(kind, (acts.get(kind) ?? 0) + 1);
				}
				const failed = outcome.items.filter((item) => !item.ok).length;
				acts.set('item failed', (acts.get('item failed') ?? 0) + failed);
				acts.set('item succeeded', (acts.get('item succeeded') ?? 0) + outcome.items.length - failed);
			},
		});
		if (anyChosen) for (const example of found) console.log(described(example));
	}, 600_000);

	it('explores its fixed seeds: after every schedule, every invariant holds', () => {
		expect(found.map(described)).toEqual([]);
	});

	it('really acts in those schedules: kept answers after purges, proxy pages, rewrites, deletes, short stores, pauses, held looks', () => {
		if (anyChosen) return;
		for (const kind of [
			'HIT',
			'lingers',
			'proxy page',
			'rewriteSame',
			'rewriteSameOtherKind',
			'rewriteOther',
			'shortStore',
			'view',
			'pause: 503',
			'in the pause',
			'hold: request',
			'hold: answer',
			'in the hold',
			'item failed',
			'item succeeded',
		]) {
			expect([kind, acts.get(kind) ?? 0]).toEqual([kind, expect.any(Number)]);
			expect(acts.get(kind)).toBeGreaterThan(0);
		}
	});
});

describe('the seeded adversary of Folder → Copy and Move', () => {
	let found: Counterexample[] = [];
	const seen = { stopped: 0, runAgain: 0, statuses: new Map<string, number>(), acts: new Map<string, number>() };
	const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

	beforeAll(async () => {
		const started = Date.now();
		// Eight at once: a folder schedule mostly waits (a Move waits out the second of a file just written).
		found = await explore(folderSeeds, {
			concurrency: 8,
			draw: drawFolderSchedule,
			onOutcome: (outcome: Outcome) => {
				if (outcome.runs?.[0].stopped) seen.stopped += 1;
				if (outcome.runs) seen.runAgain += 1;
				for (const item of outcome.items) count(seen.statuses, String(item.json.status));
				for (const line of outcome.log) {
					const act = /: (rewriteSame|rewriteOther|delete|shortStore|view) (\w+)$/.exec(line);
					if (act)
						count(
							seen.acts,
							`${act[1]} ${act[2] === 'fnew' ? 'added file' : act[2].startsWith('f') ? 'source' : 'destination'}`,
						);
					if (/: HIT of/.test(line)) count(seen.acts, 'CDN kept answer');
				}
			},
		});
		console.log(
			`Folder → Copy and Move: ${folderSeeds.length} schedules (${seen.stopped} stopped half-way, ${seen.runAgain} run again) in ${Math.round((Date.now() - started) / 1000)} s`,
		);
		if (anyChosen) for (const example of found) console.log(described(example));
	}, 600_000);

	it('Folder → Copy and Move, its fixed seeds: after every schedule (both runs of a stopped one), every invariant holds', () => {
		expect(found.map(described)).toEqual([]);
	});

	it('Folder → Copy and Move schedules act: stops and runs again, rewrites and deletes in the folder, files added, every status', () => {
		if (anyChosen) return;
		expect(seen.stopped).toBeGreaterThan(0);
		expect(seen.runAgain).toBeGreaterThan(seen.stopped);
		const kinds = [
			'rewriteSame source',
			'rewriteOther source',
			'delete source',
			'rewriteSame destination',
			'shortStore destination',
		];
		for (const kind of [...kinds, 'CDN kept answer']) {
			expect([kind, (seen.acts.get(kind) ?? 0) > 0]).toEqual([kind, true]);
		}
		const added = (seen.acts.get('rewriteSame added file') ?? 0) + (seen.acts.get('rewriteOther added file') ?? 0);
		expect(['a file added to the folder', added > 0]).toEqual(['a file added to the folder', true]);
		for (const status of ['copied', 'moved', 'skipped', 'exists', 'kept', 'failed', 'wouldCopy', 'wouldMove']) {
			expect([status, (seen.statuses.get(status) ?? 0) > 0]).toEqual([status, true]);
		}
	});
});
