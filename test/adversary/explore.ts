/**
 * Runs schedules (several at once, each on its own emulator: a schedule mostly waits) and
 * collects the counterexamples: schedules after which an invariant does not hold.
 */
import { checkInvariants, type Violation } from './invariants';
import { drawSchedule, runSchedule, startAdversaryEnv, type Outcome, type Schedule } from './schedule';

export interface Counterexample {
	seed: number;
	schedule: Schedule;
	violations: Violation[];
	outcome: Outcome;
}

/** A counterexample as a reader needs it: the seed, what was drawn, what the node and the adversary did. */
export function describe(example: Counterexample): string {
	const { schedule, outcome } = example;
	return [
		`seed ${example.seed}: ${schedule.scenario.operation} v${schedule.scenario.version} ${JSON.stringify(schedule.scenario.items)} replace=${schedule.scenario.replace}`,
		...example.violations.map((v) => `  VIOLATED ${v.invariant}: ${v.detail}`),
		`  setup ${JSON.stringify(schedule.scenario.setup)}`,
		`  storage clock ${schedule.storageSkewMs} ms from the host's; CDN ${JSON.stringify(schedule.cdn)}`,
		`  triggers ${JSON.stringify(schedule.triggers)}`,
		`  adversary: ${outcome.log.join(' | ')}`,
		`  node: ${outcome.items.map((i) => (i.ok ? 'ok' : `failed: ${String(i.json.error)}`)).join(' / ')}`,
		`  requests: ${outcome.requests.map((r) => `${r.seq} ${r.op} ${r.subject.split('/').slice(1).join('/')}`).join('; ')}`,
		`  history: ${outcome.events.map((e) => `${e.seq} ${e.kind} ${e.key.split('/').slice(1).join('/')} by ${e.writer}${e.size === undefined ? '' : ` ${e.size}B ${e.lastModified}`}`).join('; ')}`,
	].join('\n');
}

export async function explore(
	seeds: number[],
	{
		concurrency = 4,
		onResult,
		onOutcome,
	}: {
		concurrency?: number;
		onResult?: (seed: number, found?: Counterexample) => void;
		onOutcome?: (outcome: Outcome) => void;
	} = {},
): Promise<Counterexample[]> {
	const found: Counterexample[] = [];
	let next = 0;
	const worker = async () => {
		const env = await startAdversaryEnv();
		try {
			while (next < seeds.length) {
				const seed = seeds[next++];
				const schedule = drawSchedule(seed);
				const outcome = await runSchedule(env, schedule);
				onOutcome?.(outcome);
				const violations = checkInvariants(outcome);
				const example = violations.length ? { seed, schedule, violations, outcome } : undefined;
				if (example) found.push(example);
				onResult?.(seed, example);
			}
		} finally {
			await env.stop();
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, seeds.length) }, worker));
	return found.sort((a, b) => a.seed - b.seed);
}

/** One schedule on an emulator of its own: a named case's run. */
export async function runOne(schedule: Schedule): Promise<{ outcome: Outcome; violations: Violation[] }> {
	const env = await startAdversaryEnv();
	try {
		const outcome = await runSchedule(env, schedule);
		return { outcome, violations: checkInvariants(outcome) };
	} finally {
		await env.stop();
	}
}
