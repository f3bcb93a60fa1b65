/**
 * Many small files through a real n8n (bench/README.md): the real ratio (node ÷ client) held
 * against the in-process one, in the same rounds, on the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { importWorkflows, NODE_TYPE } from '../scripts/real-n8n/instance';
import type { N8nInstance } from '../scripts/real-n8n/n8n';

import type { EmulatorProcess } from './children';
import { V3_PARALLEL_REQUESTS, V3_UPLOAD_MEMORY_MIB } from './far-threshold';
import {
	CLIENT_PARALLEL,
	makeFiles,
	manyGrowthBound,
	manyRun,
	MANY_OPERATIONS,
	nodeParameters,
	OPERATION_LABEL,
	runClient,
	type ManyOperation,
	type ManyOptions,
	type ManyRig,
} from './many-files';
import { PhaseWatch, type PhaseResult } from './phase-watch';
import { chainWorkflow, CREDENTIALS, runExecute, setUpN8n, taskOf } from './real-n8n';
import { settleDisk } from './runner';
import { fmt, median, medianOf, met, runsOf, type Log } from './stats';
import { skippedTable, tabulate, type Table } from './table';

/** What the issue allows the real ratio over the in-process one. */
export const REAL_VS_IN_PROCESS_GOAL = 1.3;

/** 'Upload to File Storage', 'Download from File Storage', 'Delete from File Storage'. */
const nodeName = (op: ManyOperation) => `${OPERATION_LABEL[op]} ${op === 'upload' ? 'to' : 'from'} File Storage`;

/**
 * The bytes of file `index`: xorshift32 seeded from the index. Its source is also the Code
 * node's (Function.prototype.toString), so keep it plain JavaScript without outside names.
 */
function smallFileBytes(index: number, size: number): Uint8Array {
	const bytes = new Uint8Array(size);
	let x = Math.imul(index + 1, 0x9e3779b1) >>> 0 || 1;
	for (let i = 0; i < size; i += 4) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		x >>>= 0;
		for (let k = 0; k < 4 && i + k < size; k++) bytes[i + k] = (x >>> (8 * k)) & 255;
	}
	return bytes;
}

/** The Code node: one binary per file, through n8n's own prepareBinaryData (filesystem store). */
function generatorCode(count: number, size: number): string {
	return [
		`const smallFileBytes = ${smallFileBytes.toString()};`,
		'const items = [];',
		`for (let i = 0; i < ${count}; i++) {`,
		"\tconst name = 'file-' + String(i).padStart(5, '0') + '.bin';",
		`\tconst data = await this.helpers.prepareBinaryData(Buffer.from(smallFileBytes(i, ${size})), name, 'application/octet-stream');`,
		"\titems.push({ json: { key: 'many/' + name }, binary: { data } });",
		'}',
		'return items;',
	].join('\n');
}

function keysCode(count: number): string {
	return `return Array.from({ length: ${count} }, (_, i) => ({ json: { key: 'many/file-' + String(i).padStart(5, '0') + '.bin' } }));`;
}

type Workflow = { id: string; ops: ManyOperation[]; code: (count: number, size: number) => string };
/** The two workflows: Code → Upload, then Download → Delete of the same keys. */
const WORKFLOWS: Workflow[] = [
	{ id: 'benchManyRealUp', ops: ['upload'], code: generatorCode },
	{ id: 'benchManyRealDl', ops: ['download', 'delete'], code: keysCode },
];

/** Start → a Code node → the File Storage nodes (version 3 at its defaults), one after the other. */
function chain(id: string, code: string, ops: ManyOperation[]): object {
	const parameters = { mode: 'runOnceForAllItems', language: 'javaScript', jsCode: code };
	return chainWorkflow(id, [
		{ name: 'Files', type: 'n8n-nodes-base.code', typeVersion: 2, parameters },
		...ops.map((op) => ({
			name: nodeName(op),
			type: NODE_TYPE,
			typeVersion: 3,
			parameters: { bucketName: 'my-bucket', region: 'us-east-1', ...nodeParameters(op), options: {} },
			credentials: CREDENTIALS,
		})),
	]);
}

/** The emulator's request kinds of each node's first request and of its N-th. */
const PHASE_KINDS = { upload: ['upload', 'upload'], download: ['signedUrl', 'cdn'], delete: ['delete', 'delete'] };

export interface ManyRealRound {
	real: Map<ManyOperation, { ms: number } & PhaseResult>;
	client: Map<ManyOperation, number>;
	inProcess: Map<ManyOperation, { ms: number; rssGrowth: number }>;
	/** The Code node's time: n8n's own cost of making the binaries. */
	generateMs: number;
}

export interface ManyRealResult extends Omit<ManyOptions, 'rounds'> {
	rounds: ManyRealRound[];
	n8nVersion?: string;
	skipped?: string;
	table: Table;
}

const TITLE = (count: number, size: number, version = '') =>
	`Many files through real n8n${version ? ` ${version}` : ''}: ${count} files of ${size / 1024} KiB against a far service`;

export async function runManyReal(emulator: EmulatorProcess, o: ManyOptions, log: Log): Promise<ManyRealResult> {
	const setUp = await setUpN8n(emulator, o.dir);
	if ('skipped' in setUp) {
		log(`  skipped: ${setUp.skipped}`);
		const table = skippedTable(TITLE(o.count, o.size), 'Code → Upload; Download → Delete', setUp.skipped);
		return { ...o, rounds: [], skipped: setUp.skipped, table };
	}
	const { instance, runtime } = setUp;
	const files = makeFiles(join(o.dir, 'many-real'), o.count, o.size, (i, n) => Buffer.from(smallFileBytes(i, n)));
	const definitions = WORKFLOWS.map(({ id, ops, code }) => {
		const path = join(o.dir, `${id}.json`);
		writeFileSync(path, JSON.stringify(chain(id, code(o.count, o.size), ops)));
		return path;
	});
	await importWorkflows(instance, definitions);

	const rounds: ManyRealRound[] = [];
	try {
		for (let round = 1; round <= o.rounds; round++) {
			const tag = `  [${round}/${o.rounds}]`;
			const r: ManyRealRound = { real: new Map(), client: new Map(), inProcess: new Map(), generateMs: NaN };
			const real = { emulator, instance, files, profile: o.profile, log: (line: string) => log(`${tag} ${line}`) };
			for (const workflow of WORKFLOWS) await executeMany(real, workflow, r);
			// The minimal client and the harness on the same files, each operation from the same start.
			for (const op of MANY_OPERATIONS) {
				const client = await manyRun(real, op, 'client-16');
				r.client.set(op, client.ms);
				log(`${tag} minimal client, ${CLIENT_PARALLEL} at a time, ${op}: ${fmt.seconds(client.ms)}`);
				const node = await manyRun(real, op, 'node');
				r.inProcess.set(op, { ms: node.nodeMs ?? NaN, rssGrowth: node.rssGrowth ?? NaN });
				log(
					`${tag} in-process ${op}: ${fmt.seconds(node.nodeMs ?? NaN)} (node execution time), RSS +${fmt.mib(node.rssGrowth ?? NaN)}`,
				);
			}
			rounds.push(r);
		}
	} finally {
		await emulator.setProfile();
	}
	const result = { ...o, rounds, n8nVersion: runtime.profile.n8nVersion };
	return { ...result, table: manyRealTable(result, runtime.profile.nodeVersion) };
}

/** What every real n8n run of a round shares. */
type RealRun = ManyRig & { instance: N8nInstance; log: Log };

/**
 * One workflow of a round in real n8n at the far profile, into `r`, each node's run told apart by
 * PhaseWatch; after an upload, every stored file is read back and compared.
 */
async function executeMany(real: RealRun, { id, ops }: Workflow, r: ManyRealRound): Promise<void> {
	const { emulator, instance, files, profile, log } = real;
	settleDisk();
	await emulator.setProfile(profile);
	const watch = new PhaseWatch(
		emulator,
		ops.map((op) => ({ name: op, first: PHASE_KINDS[op][0], last: PHASE_KINDS[op][1] })),
		files.length,
	);
	await watch.arm();
	const expected = Object.fromEntries(ops.map((op) => [nodeName(op), files.length]));
	let phases = new Map<string, PhaseResult>();
	const { run } = await runExecute(instance, id, expected, (pid) => watch.start(pid)).finally(async () => {
		phases = await watch.stop();
		await emulator.setProfile();
	});
	const task = (name: string) => taskOf(run, name);
	for (const op of ops) {
		const ms = task(nodeName(op))?.executionTime ?? NaN;
		const phase = phases.get(op) as PhaseResult;
		r.real.set(op, { ms, ...phase });
		log(
			`real n8n ${op}: ${fmt.seconds(ms)} (node execution time), ` +
				`${phase.requests} requests over ${phase.connections} connections, RSS +${fmt.mib(phase.rssGrowth)}`,
		);
	}
	if (ops.includes('upload')) {
		await runClient(emulator.info, 'download', files, CLIENT_PARALLEL);
		r.generateMs = task('Files')?.executionTime ?? NaN;
		log(`real n8n: the Code node made the files in ${fmt.seconds(r.generateMs)}`);
	}
}

/**
 * Median over rounds of the real ratio (node ÷ client) over the in-process one. Both share the
 * round's client run, so per round that is the real time over the in-process time.
 */
export function realVsInProcess(result: Pick<ManyRealResult, 'rounds'>, op: ManyOperation): number {
	return median(result.rounds.map((r) => (r.real.get(op)?.ms ?? NaN) / (r.inProcess.get(op)?.ms ?? NaN)));
}

function manyRealTable(result: Omit<ManyRealResult, 'table'>, nodeVersion: string): Table {
	const { profile, rounds } = result;
	const rows = MANY_OPERATIONS.map((op) => {
		// Each round's figures (every round measures every operation), for medians and maxima over the rounds.
		const real = rounds.map((r) => r.real.get(op)!);
		const inProcess = rounds.map((r) => r.inProcess.get(op)!);
		const client = rounds.map((r) => ({ ms: r.client.get(op)! }));
		const vsClient = (runs: Array<{ ms: number }>) => fmt.ratio(median(runs.map((x, i) => x.ms / client[i].ms)));
		const growth = Math.max(...real.map((r) => r.rssGrowth));
		const over = realVsInProcess(result, op);
		return { op, real, inProcess, client, vsClient, growth, over, bound: manyGrowthBound(result, op) };
	});
	const generate = median(rounds.map((r) => r.generateMs));
	return {
		title: TITLE(result.count, result.size, result.n8nVersion),
		note:
			`\`n8n execute\` on Node ${nodeVersion.split('.')[0]}.x, filesystem binary mode: a Code node makes the ${result.count} files with n8n's prepareBinaryData ` +
			`(${fmt.seconds(generate)}), File Storage version 3 at its defaults (Parallel Requests ${V3_PARALLEL_REQUESTS}, Upload Memory ${V3_UPLOAD_MEMORY_MIB} MiB) uploads them; ` +
			'a second workflow downloads and deletes them (keys from a Code node). Stored bytes were read back and compared after every upload. ' +
			`Emulator far profile: ${profile.latencyMs} ms before every answer, ${profile.connectionDelayMs} ms per new connection, ${profile.connectionRateMiBps} MiB/s per connection. ` +
			"Times are each node's execution time from the run data, real n8n and in-process (the harness, as the many-files scenario) alike; " +
			`the minimal client sends the same requests ${CLIENT_PARALLEL} at a time on kept connections, in the same rounds. Ratios are medians of per-round ratios; goal: real ≤ ${REAL_VS_IN_PROCESS_GOAL} × in-process. ` +
			"Requests / connections: the emulator's counts of the real node's requests, and of the connections opened from its first request to the next node's (read every 50 ms). RSS growth: the n8n process's peak RSS from the node's first request to its last " +
			"(kernel peak, reset at the first) minus its RSS then (in-process: the harness process's, as the many-files table); bound: the README bound on body memory plus 64 MiB, as the many-files table. " +
			`${runsOf(rounds.length).replace(/^./, (c) => c.toUpperCase())}.`,
		...tabulate(rows, [
			['Operation', (r) => OPERATION_LABEL[r.op]],
			['Real n8n', (r) => fmt.seconds(medianOf(r.real, 'ms'))],
			['In-process', (r) => fmt.seconds(medianOf(r.inProcess, 'ms'))],
			[`Client, ${CLIENT_PARALLEL} at a time`, (r) => fmt.seconds(medianOf(r.client, 'ms'))],
			['Real ÷ client', (r) => r.vsClient(r.real)],
			['In-process ÷ client', (r) => r.vsClient(r.inProcess)],
			[
				`Real ÷ in-process ratio (goal ≤ ${REAL_VS_IN_PROCESS_GOAL}×)`,
				(r) => `${fmt.ratio(r.over)} ${met(r.over <= REAL_VS_IN_PROCESS_GOAL)}`,
			],
			['Requests / connections (real)', (r) => `${medianOf(r.real, 'requests')} / ${medianOf(r.real, 'connections')}`],
			['RSS growth of n8n (max)', (r) => fmt.mib(r.growth)],
			['RSS growth in-process (max)', (r) => fmt.mib(Math.max(...r.inProcess.map((x) => x.rssGrowth)))],
			['Growth bound', (r) => `${fmt.mib(r.bound)} ${met(r.growth <= r.bound)}`],
		]),
	};
}
