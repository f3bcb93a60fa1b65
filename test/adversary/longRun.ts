/**
 * The adversary's long run: many seeded schedules (see schedule.ts), outside npm test.
 *
 *   npx ts-node --transpile-only test/adversary/longRun.ts [first seed] [count] [schedules at once]
 *
 * Prints progress, then every counterexample (seed, schedule, what the adversary and the node did,
 * the history) and the totals; exits 1 when it found any. Run `npm run build` first: the node is
 * loaded from dist/ as in the node suites.
 *
 * To measure a planted bug against a baseline: ADVERSARY_KNOWN=<seeds the baseline fails, comma-separated>
 * ADVERSARY_STOP=1 stops at the first counterexample outside that list and says after how many schedules.
 * ADVERSARY_FAMILY=folders draws Folder → Copy and Move schedules (folders.ts) instead.
 */
import { describe, explore } from './explore';
import { drawFolderSchedule } from './folders';
import { drawSchedule } from './schedule';

async function main() {
	const [first = 1, count = 10_000, concurrency = 6] = process.argv.slice(2).map(Number);
	const seeds = Array.from({ length: count }, (_, i) => first + i);
	const started = Date.now();
	let done = 0;
	let found = 0;
	const known = new Set((process.env.ADVERSARY_KNOWN ?? '').split(',').filter(Boolean).map(Number));
	const folders = process.env.ADVERSARY_FAMILY === 'folders';
	const examples = await explore(seeds, {
		concurrency,
		draw: folders ? drawFolderSchedule : drawSchedule,
		onResult: (seed, example) => {
			done += 1;
			if (example) {
				found += 1;
				console.log(`counterexample at seed ${seed}: ${example.violations.map((v) => v.invariant).join('; ')}`);
				if (process.env.ADVERSARY_STOP && !known.has(seed)) {
					console.log(`\nfirst new counterexample after ${done} schedules:\n${describe(example)}`);
					process.exit(1);
				}
			}
			if (done % (folders ? 100 : 500) === 0)
				console.log(`${done} schedules, ${found} counterexamples, ${Math.round((Date.now() - started) / 1000)} s`);
		},
	});
	for (const example of examples) console.log(`\n${describe(example)}`);
	console.log(
		`\nseeds ${first}–${first + count - 1}: ${count} schedules, ${examples.length} counterexamples, ${Math.round((Date.now() - started) / 1000)} s`,
	);
	process.exit(examples.length ? 1 : 0);
}

void main();
