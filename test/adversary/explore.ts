/**
 * Runs schedules (several at once, each on its own emulator: a schedule mostly waits) and
 * collects the counterexamples: schedules after which an invariant does not hold.
 */
import { checkInvariants, type Violation } from './invariants';
import { runSchedule, startAdversaryEnv, type AdversaryEnv } from './run';
import { drawSchedule, type Outcome, type Schedule } from './schedule';

export interface Counterexample {
	seed: number;
	schedule: Schedule;
	violations: Violation[];
	outcome: Outcome;
}

/** An item as the report shows it: a folder file's status and key, or ok / the failure. */
function itemWords(item: Outcome['items'][number]): string {
	const { status, source, reason } = item.json as { status?: string; source?: { key?: string }; reason?: string };
	const words = item.ok ? 'ok' : `failed: ${String(item.json.error)}`;
	if (status === undefined) return words;
	return `${status} ${source?.key?.split('/').slice(1).join('/') ?? ''}${reason ? ` (${reason})` : ''}${item.ok ? '' : ` ${words}`}`;
}

/** A counterexample as a reader needs it: the seed, what was drawn, what the node and the adversary did. */
export function describe(example: Counterexample): string {
	const { schedule, outcome } = example;
	const { scenario } = schedule;
	return [
		`seed ${example.seed}: ${scenario.operation} v${scenario.version} ${JSON.stringify(scenario.items)} replace=${scenario.replace} subfolders=${scenario.includeSubfolders} dryRun=${scenario.dryRun}${scenario.parallelRequests ? ` parallelRequests=${scenario.parallelRequests}` : ''}`,
		...example.violations.map((v) => `  VIOLATED ${v.invariant}: ${v.detail}`),
		`  setup ${JSON.stringify(schedule.scenario.setup)}`,
		`  storage clock ${schedule.storageSkewMs} ms from the host's; CDN ${JSON.stringify(schedule.cdn)}`,
		`  triggers ${JSON.stringify(schedule.triggers)}${schedule.stop ? `; stop at request ${schedule.stop.nth} (${schedule.stop.phase})` : ''}`,
		`  adversary: ${outcome.log.join(' | ')}`,
		`  node: ${outcome.items.map(itemWords).join(' / ')}`,
		`  requests: ${outcome.requests.map((r) => `${r.seq} ${r.op} ${r.subject.split('/').slice(1).join('/')}`).join('; ')}`,
		`  history: ${outcome.events.map((e) => `${e.seq} ${e.kind} ${e.key.split('/').slice(1).join('/')} by ${e.writer}${e.size === undefined ? '' : ` ${e.size}B ${e.lastModified}`}`).join('; ')}`,
	].join('\n');
}

/** A schedule is a few seconds; one still running after this is a hang, named by its seed rather than left to jest's timeout. */
const HUNG_MS = 120_000;

/** `work`, or an error saying `what` did not end within `ms`. */
async function withinTime<T>(what: string, work: Promise<T>, ms = HUNG_MS): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const hung = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms / 1000} s`)), ms);
	});
	try {
		return await Promise.race([work, hung]);
	} finally {
		clearTimeout(timer);
	}
}

/** How long the emulator may still be handling a schedule's requests once the schedule is over. */
const SETTLE_MS = 10_000;

/**
 * Waits until the emulator handles none of the schedule's requests any more. A handler that never
 * ends would otherwise hold the emulator's stop(), after the last schedule of its worker, out of
 * reach of every schedule's timer: the whole suite would hang with no seed named. Here it fails
 * the schedule that left it, with its seed and the requests still open.
 */
export async function settled(env: AdversaryEnv, seed: number, ms = SETTLE_MS): Promise<void> {
	const until = Date.now() + ms;
	for (;;) {
		const open = env.emulator.adversary.openRequests();
		if (open.length === 0) return;
		if (Date.now() > until) {
			throw new Error(
				`seed ${seed}: ${open.length} request(s) still handled ${ms / 1000} s after the schedule: ${open.join(', ')}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** One schedule, and the emulator settled after it, within the per-schedule limit. */
async function runWithin(env: AdversaryEnv, schedule: Schedule): Promise<Outcome> {
	const run = async () => {
		const outcome = await runSchedule(env, schedule);
		await settled(env, schedule.seed);
		return outcome;
	};
	return await withinTime(`seed ${schedule.seed}: the schedule`, run());
}

export async function explore(
	seeds: number[],
	{
		concurrency = 4,
		onResult,
		onOutcome,
		draw = drawSchedule,
	}: {
		concurrency?: number;
		onResult?: (seed: number, found?: Counterexample) => void;
		onOutcome?: (outcome: Outcome) => void;
		/** How a seed draws its schedule: schedule.ts's, or folders.ts's. */
		draw?: (seed: number) => Schedule;
	} = {},
): Promise<Counterexample[]> {
	const found: Counterexample[] = [];
	let next = 0;
	const worker = async () => {
		const env = await startAdversaryEnv();
		let failed = false;
		try {
			while (next < seeds.length) {
				const seed = seeds[next++];
				const schedule = draw(seed);
				const outcome = await runWithin(env, schedule);
				onOutcome?.(outcome);
				const violations = checkInvariants(outcome);
				const example = violations.length ? { seed, schedule, violations, outcome } : undefined;
				if (example) found.push(example);
				onResult?.(seed, example);
			}
		} catch (error) {
			failed = true;
			throw error;
		} finally {
			// Bounded too: a stop that hangs must fail the run, not hold it for ever (nor hide a schedule's own failure).
			await withinTime("the adversary's emulator stop()", env.stop(), SETTLE_MS).catch((error: unknown) => {
				if (!failed) throw error;
			});
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, seeds.length) }, worker));
	return found.sort((a, b) => a.seed - b.seed);
}

/** One schedule on an emulator of its own: a named case's run. */
export async function runOne(schedule: Schedule): Promise<{ outcome: Outcome; violations: Violation[] }> {
	const env = await startAdversaryEnv();
	try {
		const outcome = await runWithin(env, schedule);
		return { outcome, violations: checkInvariants(outcome) };
	} finally {
		await withinTime("the adversary's emulator stop()", env.stop(), SETTLE_MS);
	}
}
