/**
 * Runs one schedule (schedule.ts): the files there before, the node through n8n-core's engine with
 * the other actors at its requests (actors.ts), and, with a stop, the run stopped at the drawn
 * request and run again with no other writer and a CDN that keeps nothing. The outcome is the
 * emulator's history of the schedule's keys, the node's requests and its items.
 */
import { createHash } from 'node:crypto';
import type { INodeParameters } from 'n8n-workflow';

import { start, type Emulator } from '../emulator';
import { runNode, type HarnessItem } from '../harness';
import { credentialsFor } from '../node/support';
import { Adversary } from './actors';
import { AdversaryCdn, type CdnPolicy } from './cdn';
import { folderParameters, QUIET_CDN } from './folders';
import { Random } from './random';
import {
	BUCKET,
	SIZE,
	keysFor,
	type ItemOutcome,
	type Outcome,
	type Role,
	type RunOutcome,
	type Scenario,
	type Schedule,
} from './schedule';

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

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const PART = 5 * 1024 * 1024;
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** The node's parameters and input items for the scenario. */
function nodeRun(scenario: Scenario, keys: Record<Role, string>, folder: string, random: Random) {
	const options = {
		maxRetries: 0,
		...(scenario.parallelRequests ? { parallelRequests: scenario.parallelRequests } : {}),
	};
	if (scenario.operation === 'folderCopy' || scenario.operation === 'folderMove') {
		return { parameters: folderParameters(scenario, folder, options), items: [{ json: {} }] as HarnessItem[] };
	}
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
		// In parts: 5 MiB and 16 bytes, two parts; the bytes past the first 16 are zeros (drawing them would take long).
		const size = scenario.inParts ? PART + SIZE : SIZE;
		const items: HarnessItem[] = scenario.items.map(([role]) => {
			const data = Buffer.concat([random.bytes(SIZE), Buffer.alloc(size - SIZE)]);
			return { json: { key: keys[role] }, binary: { data: { data, fileName: 'u.txt', mimeType: 'text/plain' } } };
		});
		const parts = scenario.inParts ? { multipartThreshold: 5, partSize: 5 } : {};
		const parameters: INodeParameters = {
			resource: 'file',
			operation: 'upload',
			key: '={{ $json.key }}',
			visibility: 'public',
			options: { ...options, ...parts, refuseExisting: !scenario.replace },
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
	const put = async (role: Role, visibility: 'public' | 'private', body: Buffer) =>
		await emulator.adversary.put(BUCKET, keys[role], body, { visibility, writer: 'setup' });
	for (const file of schedule.scenario.setup) {
		if (file.fresh) clock.offsetMs = schedule.storageSkewMs;
		while (file.lateInSecond && (Date.now() + clock.offsetMs) % 1000 < 850) await sleep(10);
		const like = file.sameAs ? await emulator.adversary.current(keys[file.sameAs]) : undefined;
		if (like) await put(file.role, like.visibility, like.body);
		else await put(file.role, file.visibility, random.bytes(file.size ?? SIZE));
		if (file.viewed) await adversary.cdn.view(keys[file.role]);
		if (file.rewritten === 'later') clock.offsetMs += 2000;
		if (file.rewritten) await put(file.role, file.visibility, random.bytes(file.size ?? SIZE));
		clock.offsetMs = schedule.storageSkewMs - 10_000;
	}
	clock.offsetMs = schedule.storageSkewMs;
	await sleep(0);
}

/**
 * Waits until the stopped run has sent nothing for a while (its node may still be unwinding), at most 5 s, and until
 * the other writers' acts begun at its requests are done (on a busy machine one may outlast the stop), at most 20 s.
 */
async function quiet(adversary: Adversary): Promise<void> {
	const since = Date.now();
	while (adversary.stop && Date.now() - adversary.stop.lastRequestAt < 400 && Date.now() - since < 5000) {
		await sleep(50);
	}
	while (adversary.actsUnderWay > 0 && Date.now() - since < 20_000) await sleep(50);
}

interface OneRun {
	adversary: Adversary;
	parameters: INodeParameters;
	items: HarnessItem[];
}

/** One run of the node with `adversary` at its requests; a run stopped gives no items. */
async function runOnce(env: AdversaryEnv, schedule: Schedule, run: OneRun): Promise<RunOutcome> {
	const { emulator } = env;
	const { adversary } = run;
	emulator.adversary.setHooks({
		before: async (call) => await adversary.before(call),
		after: async (call, reply) => await adversary.after(call, reply),
	});
	const startSeq = emulator.adversary.tick();
	const items: ItemOutcome[] = [];
	let stopped = false;
	try {
		const result = await runNode({
			credentials: credentialsFor(emulator),
			parameters: { bucketName: BUCKET.name, region: BUCKET.region, ...run.parameters },
			typeVersion: schedule.scenario.version,
			items: run.items,
			continueOnFail: true,
			timeoutMs: 60_000,
			stop: adversary.stop?.reached,
		});
		items.push(
			...result.items.map((item) => ({ ok: !('error' in item.json), json: item.json as Record<string, unknown> })),
		);
		if (result.error && items.length === 0) items.push({ ok: false, json: { error: result.error.message } });
	} catch (error) {
		if (!adversary.stop?.held) throw error;
		stopped = true;
		await quiet(adversary);
	} finally {
		adversary.stop?.release();
		// The writer of a pause acts on a timer: the run's span ends once it has acted and the pause is over.
		await adversary.pause?.settled();
		emulator.adversary.setHooks(undefined);
	}
	return { startSeq, endSeq: emulator.adversary.tick(), items, stopped };
}

export async function runSchedule(env: AdversaryEnv, schedule: Schedule): Promise<Outcome> {
	const random = new Random(schedule.seed ^ 0x5bd1e995);
	const folder = `s${schedule.seed}-${++env.runs}/`;
	const keys = keysFor(folder);
	const { emulator } = env;
	const log: string[] = [];
	const storageNow = () => Date.now() + env.clock.offsetMs;
	const cdnOf = (policy: CdnPolicy) => new AdversaryCdn(emulator, policy, random, storageNow, log);
	const adversary = new Adversary(emulator, schedule, keys, cdnOf(schedule.cdn), random, log);
	emulator.adversary.clearHistory();
	await setUp(env, adversary, schedule, keys, random);
	const { parameters, items } = nodeRun(schedule.scenario, keys, folder, random);
	const runs = [await runOnce(env, schedule, { adversary, parameters, items })];
	if (schedule.stop) {
		// Run again as a user would after the stop: no other writer now, and a CDN that keeps nothing.
		log.push('run again');
		const again = new Adversary(emulator, { triggers: [] }, keys, cdnOf(QUIET_CDN), random, log);
		runs.push(await runOnce(env, schedule, { adversary: again, parameters, items }));
		adversary.requests.push(...again.requests);
	}
	return {
		schedule,
		keys,
		startSeq: runs[0].startSeq,
		endSeq: runs[runs.length - 1].endSeq,
		events: emulator.adversary.history().filter((e) => e.key.startsWith(folder)),
		requests: adversary.requests,
		items: runs.flatMap((run) => run.items),
		log,
		...(schedule.stop ? { runs } : {}),
		...(schedule.scenario.operation === 'upload'
			? { inputs: (items as HarnessItem[]).map((item) => md5(item.binary?.data.data ?? Buffer.alloc(0))) }
			: {}),
		...(adversary.pause ? { pauses: adversary.pause.spans } : {}),
	};
}
