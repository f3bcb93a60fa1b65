import { OPERATIONS, type FaultRule, type Operation } from './types';

/**
 * Fault injection for tests of the node's retry and error paths. Rules are checked in order;
 * the first that fires decides. Every rule counts the requests it matches from the moment it is
 * set, so `nth: [2]` means "the second matching request after setFaults".
 */

export type FaultAction =
	{ kind: 'status'; status: 500 | 503 | 429 } | { kind: 'reset' } | { kind: 'hang' } | { kind: 'dropResponse' };

interface RuleState {
	rule: FaultRule;
	seen: number;
	injected: number;
	random: () => number;
}

/** mulberry32: tiny, seedable, good enough to pick which requests fail. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const DEFAULT_SEED = 0x5eed;

export function validateFaultRule(rule: FaultRule): void {
	const where = JSON.stringify(rule);
	if (!rule || typeof rule !== 'object') throw new Error(`fault rule must be an object: ${where}`);
	if (rule.operation !== '*' && !OPERATIONS.includes(rule.operation)) {
		throw new Error(`fault rule has unknown operation (use one of ${OPERATIONS.join(', ')} or *): ${where}`);
	}
	const kinds = [rule.status !== undefined, rule.reset === true, rule.hang === true, rule.dropResponse === true].filter(
		Boolean,
	).length;
	if (kinds !== 1) {
		throw new Error(`fault rule needs exactly one of status, reset, hang, dropResponse: ${where}`);
	}
	if (rule.status !== undefined && ![500, 503, 429].includes(rule.status)) {
		throw new Error(`fault status must be 500, 503 or 429: ${where}`);
	}
	if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
		throw new Error(`fault probability must be within 0..1: ${where}`);
	}
	const positiveInts = (xs: unknown, name: string) => {
		if (xs === undefined) return;
		if (!Array.isArray(xs) || !xs.every((x) => Number.isInteger(x) && x >= 1)) {
			throw new Error(`fault ${name} must be a list of integers >= 1: ${where}`);
		}
	};
	positiveInts(rule.nth, 'nth');
	positiveInts(rule.partNumbers, 'partNumbers');
	if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0)) {
		throw new Error(`fault times must be an integer >= 0: ${where}`);
	}
	if (rule.seed !== undefined && !Number.isFinite(rule.seed)) throw new Error(`fault seed must be a number: ${where}`);
}

export class FaultInjector {
	private rules: RuleState[] = [];

	set(rules: FaultRule[]): void {
		rules.forEach(validateFaultRule);
		this.rules = rules.map((rule) => ({
			rule: { ...rule },
			seen: 0,
			injected: 0,
			random: prng(rule.seed ?? DEFAULT_SEED),
		}));
	}

	/** Decides the fate of one routed request; `partNumber` only for uploadPart. */
	pick(operation: Operation, partNumber: number | undefined): FaultAction | undefined {
		for (const state of this.rules) {
			const { rule } = state;
			if (rule.operation !== '*' && rule.operation !== operation) continue;
			if (rule.partNumbers && (partNumber === undefined || !rule.partNumbers.includes(partNumber))) continue;
			state.seen++;
			if (rule.times !== undefined && state.injected >= rule.times) continue;
			if (rule.nth && !rule.nth.includes(state.seen)) continue;
			// Drawn only for requests that got this far, so a seed gives one fixed sequence.
			if (rule.probability !== undefined && !(state.random() < rule.probability)) continue;
			state.injected++;
			if (rule.status !== undefined) return { kind: 'status', status: rule.status };
			if (rule.dropResponse) return { kind: 'dropResponse' };
			return rule.reset ? { kind: 'reset' } : { kind: 'hang' };
		}
		return undefined;
	}
}

export const FAULT_BODIES: Record<500 | 503 | 429, { error: string }> = {
	500: { error: 'Internal server error' },
	503: { error: 'Service unavailable' },
	429: { error: 'Too many requests' },
};

/** Parses the CLI form `<op>:<status|reset|hang>[:p=<prob>][:nth=1,3][:times=N][:seed=N][:parts=1,2]`. */
export function parseFaultSpec(spec: string): FaultRule {
	const [operation, kind, ...options] = spec.split(':');
	if (!operation || !kind) throw new Error(`--fault ${spec}: expected <op>:<status|reset|hang>[:options]`);
	const rule: FaultRule = { operation: operation as FaultRule['operation'] };
	if (kind === 'reset') rule.reset = true;
	else if (kind === 'hang') rule.hang = true;
	else if (kind === 'drop') rule.dropResponse = true;
	else if (/^\d+$/.test(kind)) rule.status = Number(kind) as 500 | 503 | 429;
	else throw new Error(`--fault ${spec}: "${kind}" is not 500, 503, 429, reset, hang or drop`);
	const list = (v: string) => v.split(',').map((x) => Number(x));
	for (const option of options) {
		const eq = option.indexOf('=');
		const name = eq === -1 ? option : option.slice(0, eq);
		const value = eq === -1 ? '' : option.slice(eq + 1);
		if (value === '') throw new Error(`--fault ${spec}: option "${option}" needs a value`);
		if (name === 'p') rule.probability = Number(value);
		else if (name === 'nth') rule.nth = list(value);
		else if (name === 'times') rule.times = Number(value);
		else if (name === 'seed') rule.seed = Number(value);
		else if (name === 'parts') rule.partNumbers = list(value);
		else throw new Error(`--fault ${spec}: unknown option "${name}" (p, nth, times, seed, parts)`);
	}
	validateFaultRule(rule);
	return rule;
}
