/**
 * One schedule of the seeded adversary: a composite operation of the node (Copy, Move, Upload
 * with Refuse Existing File, Folder → Delete; versions 2 and 3, one to three items), the files
 * there before it, the CDN's behaviour (cdn.ts), the storage's clock, and other writers acting
 * at chosen points of the node's requests. Everything is drawn from the seed; the node runs
 * through n8n-core's engine against the in-process emulator, whose history of stored versions
 * the invariants (invariants.ts) are checked against.
 */
import type { INodeParameters } from 'n8n-workflow';

import { start, type Emulator } from '../emulator';
import type { HistoryEvent, HookAnswer, HookCall } from '../emulator/history';
import { runNode, type HarnessItem } from '../harness';
import { credentialsFor } from '../node/support';
import { AdversaryCdn, drawCdnPolicy, type CdnPolicy } from './cdn';
import { Random } from './random';

export const BUCKET = { name: 'my-bucket', region: 'us-east-1' };
const SIZE = 16;

export type Operation = 'copy' | 'move' | 'upload' | 'folderDelete';
export type Role = 'src1' | 'src2' | 'src3' | 'dst' | 'dirA' | 'dirB' | 'dirSub' | 'outside' | 'dirNew';
export type Action = 'rewriteSame' | 'rewriteOther' | 'delete' | 'view' | 'shortStore';

/** Another writer's act, at the `nth` request of the node of kind `op`, before or after it is handled. */
export interface Trigger {
	op: 'signedUrl' | 'purge' | 'cdn' | 'list' | 'upload' | 'delete';
	nth: number;
	phase: 'before' | 'after';
	action: Action;
	role: Role;
}

export interface SetupFile {
	role: Role;
	visibility: 'public' | 'private';
	/** Someone reads it through the CDN, which keeps that version. */
	viewed: boolean;
	/** Then it is rewritten (same size): in the same second, or two seconds later. */
	rewritten?: 'sameSecond' | 'later';
	/** Written as the run starts (not ten seconds before): a Move must wait for its second to pass. */
	fresh?: boolean;
	/** Written late in a second of the storage's clock (named cases that need it). */
	lateInSecond?: boolean;
}

export interface Scenario {
	operation: Operation;
	version: 2 | 3;
	/** Copy, Move: [source, destination] per item; Upload: [key] per item. */
	items: Role[][];
	/** Copy, Move: Replace Existing File; Upload: Refuse Existing File off. */
	replace: boolean;
	dryRun: boolean;
	includeSubfolders: boolean;
	setup: SetupFile[];
	/** Version 3's Parallel Requests, when not its default: with 1, two items run at once and a third starts as one ends. */
	parallelRequests?: number;
}

export interface Schedule {
	seed: number;
	/** The storage's clock minus the n8n host's, ms (hostSkew). */
	storageSkewMs: number;
	scenario: Scenario;
	cdn: CdnPolicy;
	triggers: Trigger[];
}

function drawScenario(random: Random): Scenario {
	const operation = random.pick(['copy', 'move', 'move', 'upload', 'folderDelete'] as const);
	const file = (role: Role): SetupFile => ({
		role,
		visibility: random.chance(0.75) ? 'public' : 'private',
		viewed: random.chance(0.6),
		rewritten: random.pick([undefined, undefined, 'sameSecond', 'later'] as const),
	});
	const base = { operation, dryRun: false, includeSubfolders: true, replace: false };
	if (operation === 'folderDelete') {
		const setup = (['dirA', 'dirB', 'dirSub', 'outside'] as Role[]).map(file);
		return {
			...base,
			version: random.pick([2, 3] as const),
			items: [],
			dryRun: random.chance(0.25),
			includeSubfolders: random.chance(0.7),
			setup,
		};
	}
	const count = random.pick([1, 1, 2, 2, 3]);
	const version = count > 1 ? 3 : random.pick([2, 3] as const);
	const dstExists = random.chance(0.45);
	if (operation === 'upload') {
		const items = Array.from({ length: count }, (): Role[] => ['dst']);
		return { ...base, version, items, replace: random.chance(0.2), setup: dstExists ? [file('dst')] : [] };
	}
	const sources: Role[] = ['src1', 'src2', 'src3'];
	const sameSource = count > 1 && random.chance(0.15);
	const items = Array.from({ length: count }, (_, i): Role[] => [sameSource ? 'src1' : sources[i], 'dst']);
	const setup = [...new Set(items.map(([source]) => source))].map(file);
	if (operation === 'move' && random.chance(0.3)) setup[0].fresh = true;
	if (dstExists) setup.push(file('dst'));
	return { ...base, version, items, replace: random.chance(0.4), setup };
}

function drawTriggers(random: Random, scenario: Scenario): Trigger[] {
	const roles = [...new Set([...scenario.items.flat(), ...scenario.setup.map((f) => f.role)])];
	if (scenario.operation === 'folderDelete') roles.push('dirNew');
	const actions: Action[] = ['rewriteSame', 'rewriteSame', 'rewriteOther', 'delete', 'view'];
	const triggers: Trigger[] = [];
	const fresh = scenario.setup.find((file) => file.fresh);
	if (fresh && random.chance(0.6)) {
		// A same-size rewrite right after the read of a source written moments before: the settle wait's case.
		const op = random.pick(['cdn', 'list'] as const);
		triggers.push({ op, nth: random.int(1, 2), phase: 'after', action: 'rewriteSame', role: fresh.role });
	}
	return triggers.concat(
		Array.from({ length: random.int(0, 4) }, (): Trigger => {
			const op = random.pick(['signedUrl', 'purge', 'cdn', 'cdn', 'list', 'list', 'upload', 'delete'] as const);
			const copying = scenario.operation === 'copy' || scenario.operation === 'move';
			// The storage keeping fewer bytes than the node sent: at a Copy's or Move's upload.
			const short = copying && op === 'upload' && random.chance(0.3);
			return {
				op,
				nth: random.int(1, 3),
				phase: short ? 'after' : random.pick(['before', 'after'] as const),
				action: short ? 'shortStore' : random.pick(actions),
				role: short ? 'dst' : random.pick(roles),
			};
		}),
	);
}

/**
 * The storage's clock minus the n8n host's, from one draw: mostly within ±3 s, sometimes up to ±30 s
 * (the signature allows ±300 s). Only the answers' own dates may time the settle wait.
 */
function hostSkew(u: number): number {
	return u < 0.7 ? Math.round((u / 0.7) * 6000 - 3000) : Math.round(((u - 0.7) / 0.3) * 60_000 - 30_000);
}

export function drawSchedule(seed: number): Schedule {
	const random = new Random(seed);
	const scenario = drawScenario(random);
	if (scenario.items.length > 2 && random.chance(0.5)) scenario.parallelRequests = 1;
	return {
		seed,
		storageSkewMs: hostSkew(random.next()),
		scenario,
		cdn: drawCdnPolicy(random),
		triggers: drawTriggers(random, scenario),
	};
}

/** A node request as the emulator saw it; `seq` orders it with the history's changes. */
export interface NodeRequest {
	seq: number;
	op: string;
	method: string;
	/** The key it names (for a listing: its prefix). */
	subject: string;
	/** A listing's answer: the files it showed. */
	listed?: string[];
}

export interface ItemOutcome {
	ok: boolean;
	json: Record<string, unknown>;
}

export interface Outcome {
	schedule: Schedule;
	keys: Record<Role, string>;
	startSeq: number;
	endSeq: number;
	events: HistoryEvent[];
	requests: NodeRequest[];
	items: ItemOutcome[];
	/** What the adversary did, in order. */
	log: string[];
}

/** One emulator, reused by schedule after schedule (each in its own folder of keys). */
export interface AdversaryEnv {
	emulator: Emulator;
	/** Added to the host's clock to give the storage's. */
	clock: { offsetMs: number };
	runs: number;
	stop(): Promise<void>;
}

export async function startAdversaryEnv(): Promise<AdversaryEnv> {
	const clock = { offsetMs: 0 };
	const emulator = await start({ port: 0, now: () => Date.now() + clock.offsetMs });
	emulator.adversary.recordHistory(true);
	return { emulator, clock, runs: 0, stop: async () => await emulator.stop() };
}

function keysFor(folder: string): Record<Role, string> {
	return {
		src1: `${folder}src1.txt`,
		src2: `${folder}src2.txt`,
		src3: `${folder}src3.txt`,
		dst: `${folder}dst.txt`,
		dirA: `${folder}dir/a.txt`,
		dirB: `${folder}dir/b.txt`,
		dirSub: `${folder}dir/sub/c.txt`,
		outside: `${folder}dirt.txt`,
		dirNew: `${folder}dir/new.txt`,
	};
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The node's parameters and input items for the scenario. */
function nodeRun(scenario: Scenario, keys: Record<Role, string>, folder: string, random: Random) {
	const options = {
		maxRetries: 0,
		...(scenario.parallelRequests ? { parallelRequests: scenario.parallelRequests } : {}),
	};
	if (scenario.operation === 'folderDelete') {
		const parameters: INodeParameters = {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: `${folder}dir/` },
			includeSubfolders: scenario.includeSubfolders,
			dryRun: scenario.dryRun,
			options,
		};
		return { parameters, items: [{ json: {} }] as HarnessItem[] };
	}
	if (scenario.operation === 'upload') {
		const items: HarnessItem[] = scenario.items.map(([role]) => {
			const data = random.bytes(SIZE);
			return { json: { key: keys[role] }, binary: { data: { data, fileName: 'u.txt', mimeType: 'text/plain' } } };
		});
		const parameters: INodeParameters = {
			resource: 'file',
			operation: 'upload',
			key: '={{ $json.key }}',
			visibility: 'public',
			options: { ...options, refuseExisting: !scenario.replace },
		};
		return { parameters, items };
	}
	const parameters: INodeParameters = {
		resource: 'file',
		operation: scenario.operation,
		fileKey: { __rl: true, mode: 'key', value: '={{ $json.source }}' },
		destinationKey: '={{ $json.destination }}',
		options: { ...options, replace: scenario.replace },
	};
	const items = scenario.items.map(([source, destination]) => ({
		json: { source: keys[source], destination: keys[destination] },
	}));
	return { parameters, items };
}

/** The key a request names: its `key`, a listing's `prefix`, or the CDN path's key. */
function subjectOf(call: HookCall, accessId: string): string {
	if (call.op === 'cdn') {
		const rest = call.path.split('/').slice(3);
		return call.path.startsWith(`/f/${accessId}/`) ? rest.map((s) => decodeURIComponent(s)).join('/') : '';
	}
	if (call.op === 'list') return call.query.get('prefix') ?? '';
	return call.query.get('key') ?? '';
}

class Adversary {
	readonly requests: NodeRequest[] = [];
	private readonly counts = new Map<string, number>();

	constructor(
		private readonly env: AdversaryEnv,
		private readonly schedule: Schedule,
		private readonly keys: Record<Role, string>,
		readonly cdn: AdversaryCdn,
		private readonly random: Random,
		readonly log: string[],
	) {}

	private get emulator() {
		return this.env.emulator;
	}

	async act(action: Action, role: Role, call?: HookCall, reply?: { body: unknown }): Promise<void> {
		const key = this.keys[role];
		const { adversary } = this.emulator;
		const current = await adversary.current(key);
		const visibility = current?.visibility ?? 'public';
		this.log.push(`${call ? `${call.op} ${subjectOf(call, this.emulator.accessId)}: ` : ''}${action} ${role}`);
		if (action === 'view') return await this.cdn.view(key);
		if (action === 'delete') {
			await adversary.remove(BUCKET, key, 'other');
			return;
		}
		if (action === 'shortStore') {
			if (!current || current.size < 2) return;
			const body = current.body.subarray(0, current.size - 3);
			await adversary.put(BUCKET, key, body, { visibility, contentType: current.contentType, writer: 'client-short' });
			const data = (reply?.body as { data?: { size?: number } } | undefined)?.data;
			if (data) data.size = body.length;
			return;
		}
		const size = action === 'rewriteSame' ? (current?.size ?? SIZE) : (current?.size ?? SIZE) + 5;
		await adversary.put(BUCKET, key, this.random.bytes(size), { visibility, writer: 'other' });
	}

	private async fire(call: HookCall, phase: 'before' | 'after', reply?: { body: unknown }): Promise<void> {
		const nth = this.counts.get(call.op) ?? 0;
		for (const trigger of this.schedule.triggers) {
			if (trigger.op !== call.op || trigger.nth !== nth || trigger.phase !== phase) continue;
			if (trigger.action === 'shortStore' && subjectOf(call, this.emulator.accessId) !== this.keys.dst) continue;
			await this.act(trigger.action, trigger.role, call, reply);
		}
	}

	async before(call: HookCall): Promise<HookAnswer | undefined> {
		this.counts.set(call.op, (this.counts.get(call.op) ?? 0) + 1);
		await this.fire(call, 'before');
		const subject = subjectOf(call, this.emulator.accessId);
		let answer: HookAnswer | undefined;
		if (call.op === 'cdn') {
			this.record(call, subject);
			answer = await this.cdn.serve(call, subject);
			await this.fire(call, 'after');
		} else if (call.op === 'purge') answer = this.cdn.purge(subject);
		else if (call.op === 'signedUrl') answer = this.cdn.signedUrl(subject);
		if (answer && call.op !== 'cdn') {
			this.record(call, subject);
			await this.fire(call, 'after');
		}
		return answer;
	}

	async after(call: HookCall, reply: { status: number; body: unknown }): Promise<void> {
		const request = this.record(call, subjectOf(call, this.emulator.accessId));
		if (call.op === 'list' && reply.status === 200) {
			const children = (reply.body as { data?: { contents?: { children?: { path: string; type: string }[] } } }).data
				?.contents?.children;
			request.listed = (children ?? []).filter((c) => c.type === 'file').map((c) => c.path);
		}
		await this.fire(call, 'after', reply);
	}

	/** The request as handled now: after its 'before' acts, so it sees them. */
	private record(call: HookCall, subject: string): NodeRequest {
		const request = { seq: this.emulator.adversary.tick(), op: call.op, method: call.method, subject };
		this.requests.push(request);
		return request;
	}
}

async function setUp(
	env: AdversaryEnv,
	adversary: Adversary,
	schedule: Schedule,
	keys: Record<Role, string>,
	random: Random,
) {
	const { emulator, clock } = env;
	// Files there before the run are ten seconds old (the storage's clock), unless rewritten later.
	clock.offsetMs = schedule.storageSkewMs - 10_000;
	for (const file of schedule.scenario.setup) {
		if (file.fresh) clock.offsetMs = schedule.storageSkewMs;
		while (file.lateInSecond && (Date.now() + clock.offsetMs) % 1000 < 850) await sleep(10);
		await emulator.adversary.put(BUCKET, keys[file.role], random.bytes(SIZE), {
			visibility: file.visibility,
			writer: 'setup',
		});
		if (file.viewed) await adversary.cdn.view(keys[file.role]);
		if (file.rewritten === 'later') clock.offsetMs += 2000;
		if (file.rewritten) {
			await emulator.adversary.put(BUCKET, keys[file.role], random.bytes(SIZE), {
				visibility: file.visibility,
				writer: 'setup',
			});
		}
		clock.offsetMs = schedule.storageSkewMs - 10_000;
	}
	clock.offsetMs = schedule.storageSkewMs;
	await sleep(0);
}

export async function runSchedule(env: AdversaryEnv, schedule: Schedule): Promise<Outcome> {
	const random = new Random(schedule.seed ^ 0x5bd1e995);
	const folder = `s${schedule.seed}-${++env.runs}/`;
	const keys = keysFor(folder);
	const { emulator } = env;
	const log: string[] = [];
	const cdn = new AdversaryCdn(emulator, schedule.cdn, random, () => Date.now() + env.clock.offsetMs, log);
	const adversary = new Adversary(env, schedule, keys, cdn, random, log);
	emulator.adversary.clearHistory();
	await setUp(env, adversary, schedule, keys, random);
	const { parameters, items } = nodeRun(schedule.scenario, keys, folder, random);
	emulator.adversary.setHooks({
		before: (call) => adversary.before(call),
		after: (call, reply) => adversary.after(call, reply),
	});
	const startSeq = emulator.adversary.tick();
	let result;
	try {
		result = await runNode({
			credentials: credentialsFor(emulator),
			parameters: { bucketName: BUCKET.name, region: BUCKET.region, ...parameters },
			typeVersion: schedule.scenario.version,
			items,
			continueOnFail: true,
			timeoutMs: 60_000,
		});
	} finally {
		emulator.adversary.setHooks(undefined);
	}
	const endSeq = emulator.adversary.tick();
	const outcomes: ItemOutcome[] = result.items.map((item) => ({
		ok: !('error' in item.json),
		json: item.json as Record<string, unknown>,
	}));
	if (result.error && outcomes.length === 0) outcomes.push({ ok: false, json: { error: result.error.message } });
	return {
		schedule,
		keys,
		startSeq,
		endSeq,
		events: emulator.adversary.history().filter((e) => e.key.startsWith(folder)),
		requests: adversary.requests,
		items: outcomes,
		log,
	};
}
