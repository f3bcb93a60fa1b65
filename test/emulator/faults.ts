import { OPERATIONS, type FaultRule, type Operation } from './types';

/**
 * Fault injection for tests of the node's retry and error paths. Rules are checked in order;
 * the first that fires decides. Every rule counts the requests it matches from the moment it is
 * set, so `nth: [2]` means "the second matching request after setFaults".
 */

export type FaultAction =
	| { kind: 'status'; status: 500 | 503 | 429 }
	| { kind: 'reset' }
	| { kind: 'hang' }
	| { kind: 'dropResponse' }
	| { kind: 'truncate'; bytes: number }
	| { kind: 'stall'; bytes: number }
	| { kind: 'closeDelimited'; bytes: number }
	| { kind: 'echoUrl' }
	| { kind: 'gzip' }
	| { kind: 'redirect' }
	| { kind: 'rewrite'; fields: Record<string, unknown> };

/** Kinds that shape a CDN download; they mean nothing for a JSON answer. */
const CDN_KINDS = ['truncate', 'stall', 'closeDelimited', 'echoUrl', 'gzip', 'redirect'] as const;

/** A rewrite value that turns the field's own value into a string (`partNumber: 3` → `"3"`). */
export const AS_STRING = { $asString: true } as const;

export function isAsString(value: unknown): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		Object.keys(value).length === 1 &&
		(value as { $asString?: unknown }).$asString === true
	);
}

/** Which kind a rule has; more or fewer than one is an error the caller reports. */
function kindsOf(rule: FaultRule): FaultAction['kind'][] {
	const kinds: FaultAction['kind'][] = [];
	if (rule.status !== undefined) kinds.push('status');
	if (rule.reset === true) kinds.push('reset');
	if (rule.hang === true) kinds.push('hang');
	if (rule.dropResponse === true) kinds.push('dropResponse');
	if (rule.truncate !== undefined) kinds.push('truncate');
	if (rule.stall !== undefined) kinds.push('stall');
	if (rule.closeDelimited !== undefined) kinds.push('closeDelimited');
	if (rule.echoUrl === true) kinds.push('echoUrl');
	if (rule.gzip === true) kinds.push('gzip');
	if (rule.redirect === true) kinds.push('redirect');
	if (rule.rewrite !== undefined) kinds.push('rewrite');
	return kinds;
}

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
	const kinds = kindsOf(rule);
	if (kinds.length !== 1) {
		throw new Error(
			`fault rule needs exactly one of status, reset, hang, dropResponse, truncate, stall, closeDelimited, echoUrl, gzip, redirect, rewrite: ${where}`,
		);
	}
	const [kind] = kinds;
	if (rule.status !== undefined && ![500, 503, 429].includes(rule.status)) {
		throw new Error(`fault status must be 500, 503 or 429: ${where}`);
	}
	// A '*' rule would also hit requests the kind cannot apply to, so these name their operation.
	if ((CDN_KINDS as readonly string[]).includes(kind) && rule.operation !== 'cdn') {
		throw new Error(`fault ${kind} applies to operation cdn only: ${where}`);
	}
	for (const name of ['truncate', 'stall', 'closeDelimited'] as const) {
		const bytes = rule[name];
		if (bytes !== undefined && !(Number.isInteger(bytes) && bytes >= 0)) {
			throw new Error(`fault ${name} must be a byte count (integer >= 0): ${where}`);
		}
	}
	if (rule.rewrite !== undefined) {
		if (rule.operation === 'cdn' || rule.operation === '*') {
			throw new Error(`fault rewrite needs one JSON API operation (not cdn or *): ${where}`);
		}
		const fields = rule.rewrite as unknown;
		if (typeof fields !== 'object' || fields === null || Array.isArray(fields) || Object.keys(fields).length === 0) {
			throw new Error(`fault rewrite must be a non-empty object of data fields: ${where}`);
		}
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
			return actionOf(rule);
		}
		return undefined;
	}
}

/** The one action a validated rule stands for. */
function actionOf(rule: FaultRule): FaultAction {
	if (rule.status !== undefined) return { kind: 'status', status: rule.status };
	if (rule.truncate !== undefined) return { kind: 'truncate', bytes: rule.truncate };
	if (rule.stall !== undefined) return { kind: 'stall', bytes: rule.stall };
	if (rule.closeDelimited !== undefined) return { kind: 'closeDelimited', bytes: rule.closeDelimited };
	if (rule.echoUrl) return { kind: 'echoUrl' };
	if (rule.rewrite !== undefined) return { kind: 'rewrite', fields: rule.rewrite };
	if (rule.gzip) return { kind: 'gzip' };
	if (rule.redirect) return { kind: 'redirect' };
	if (rule.dropResponse) return { kind: 'dropResponse' };
	return rule.reset ? { kind: 'reset' } : { kind: 'hang' };
}

/**
 * Applies a rewrite to a JSON answer's `data` (a copy): null deletes a field, AS_STRING
 * stringifies it, anything else replaces it. Answers without a `data` object (errors) pass as they are.
 */
export function rewriteData(body: unknown, fields: Record<string, unknown>): unknown {
	const data = (body as { data?: unknown } | null)?.data;
	if (typeof data !== 'object' || data === null) return body;
	const next: Record<string, unknown> = { ...(data as Record<string, unknown>) };
	for (const [name, value] of Object.entries(fields)) {
		if (value === null) delete next[name];
		else if (isAsString(value)) next[name] = String(next[name]);
		else next[name] = value;
	}
	return { ...(body as object), data: next };
}

export const FAULT_BODIES: Record<500 | 503 | 429, { error: string }> = {
	500: { error: 'Internal server error' },
	503: { error: 'Service unavailable' },
	429: { error: 'Too many requests' },
};

/**
 * The kind part of the CLI form:
 * `500|503|429|reset|hang|drop|gzip|redirect|echo-url|truncate=N|stall=N|close-delimited=N|rewrite=<json>`.
 * `rest` is everything after `<op>:`; returns the options that follow the kind.
 */
function parseKind(spec: string, rest: string, rule: FaultRule): string[] {
	const segments = rest.split(':');
	const [kind] = segments;
	const eq = kind.indexOf('=');
	const name = eq === -1 ? kind : kind.slice(0, eq);
	const value = eq === -1 ? undefined : kind.slice(eq + 1);
	const bytes = () => {
		if (value === undefined || !/^\d+$/.test(value)) throw new Error(`--fault ${spec}: ${name} needs =<bytes>`);
		return Number(value);
	};
	if (name === 'rewrite') {
		// The JSON may hold colons: the shortest run of segments that parses is the whole object.
		const json = rest.slice('rewrite='.length);
		const parts = json.split(':');
		for (let n = 1; n <= parts.length; n++) {
			try {
				rule.rewrite = JSON.parse(parts.slice(0, n).join(':')) as Record<string, unknown>;
				return parts.slice(n);
			} catch {
				// not complete yet: take one more segment
			}
		}
		throw new Error(`--fault ${spec}: rewrite needs =<JSON object>`);
	}
	if (value !== undefined && !['truncate', 'stall', 'close-delimited'].includes(name)) {
		throw new Error(`--fault ${spec}: "${name}" takes no value`);
	}
	if (name === 'reset') rule.reset = true;
	else if (name === 'hang') rule.hang = true;
	else if (name === 'drop') rule.dropResponse = true;
	else if (name === 'gzip') rule.gzip = true;
	else if (name === 'redirect') rule.redirect = true;
	else if (name === 'truncate') rule.truncate = bytes();
	else if (name === 'stall') rule.stall = bytes();
	else if (name === 'close-delimited') rule.closeDelimited = bytes();
	else if (name === 'echo-url') rule.echoUrl = true;
	else if (/^\d+$/.test(name)) rule.status = Number(name) as 500 | 503 | 429;
	else {
		throw new Error(
			`--fault ${spec}: "${kind}" is not 500, 503, 429, reset, hang, drop, gzip, redirect, echo-url, truncate=N, stall=N, close-delimited=N or rewrite=<json>`,
		);
	}
	return segments.slice(1);
}

/** Parses the CLI form `<op>:<kind>[:p=<prob>][:nth=1,3][:times=N][:seed=N][:parts=1,2]` (kinds: see parseKind). */
export function parseFaultSpec(spec: string): FaultRule {
	const colon = spec.indexOf(':');
	const operation = colon === -1 ? '' : spec.slice(0, colon);
	const rest = colon === -1 ? '' : spec.slice(colon + 1);
	if (!operation || !rest) throw new Error(`--fault ${spec}: expected <op>:<kind>[:options]`);
	const rule: FaultRule = { operation: operation as FaultRule['operation'] };
	const options = parseKind(spec, rest, rule);
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
