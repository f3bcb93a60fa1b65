/**
 * The large-file scenarios: the curl ceiling, a minimal multipart client, this node at its
 * defaults, the sequential 5 MiB approach and the Upload operation switching to multipart; and
 * the part-size and parallelism sweeps. Each set runs in shared rounds, so every ratio is same-run.
 * Also what the other upload tables share: configuration builders, summaries and columns.
 */
import { nodeVersion } from '../nodes/FileStorage/versions';

import type { MeasuredRun } from './children';
import { runRounds, type Config, type InputFile, type Rig, type Run } from './runner';
import type { OlderNode } from './runtime';
import { fmt, median, met, mibPerSecond, MIB, perRoundRatio, runsOf } from './stats';
import { tabulate, type Column, type Table } from './table';

/** The defaults of a node that uploads on its own (version 2): Part Size × Parallel Uploads. */
const V2 = nodeVersion(2);
export const DEFAULTS = {
	partSizeMiB: V2.partSizeMiB,
	parallel: V2.parallelUploads!,
	thresholdMiB: V2.multipartThresholdMiB,
};
const PART_SIZES = [5, 8, 16, 32, 64];
const PARALLELISMS = [1, 2, 4, 8];

/** Memory the design promises for a multipart upload: the parts in flight and one being read, plus slack. */
export function memoryBound(partSizeMiB: number, parallel: number): number {
	return (partSizeMiB * (parallel + 1) + 64) * MIB;
}

type NodeConfig = Extract<Config, { kind: 'node' }>;
export const UPLOAD: NodeConfig['parameters'] = { resource: 'file', operation: 'upload' };

/** Multipart Upload at the node's own Part Size and Parallel Uploads. */
export const MULTIPART_AT_DEFAULTS: NodeConfig['parameters'] = { resource: 'file', operation: 'multipartUpload' };

export const multipart = (partSizeMiB: number, parallel: number, label?: string): NodeConfig => ({
	id: `node-${partSizeMiB}x${parallel}`,
	label: label ?? `Multipart Upload, ${partSizeMiB} MiB × ${parallel}`,
	kind: 'node',
	parameters: { ...MULTIPART_AT_DEFAULTS, partSize: partSizeMiB, parallelUploads: parallel },
	partSizeMiB,
	parallel,
});

/** The node with Part Size and Parallel Uploads unset: at its defaults. */
export function nodeAtDefaults(id: string, label: string, parameters = MULTIPART_AT_DEFAULTS): NodeConfig {
	return { id, label, kind: 'node', parameters };
}

/** The minimal multipart client (bench/raw-multipart.ts). */
export function rawClient(id: string, label: string, other?: Partial<Extract<Config, { kind: 'raw' }>>): Config {
	return { id, label, kind: 'raw', partSizeMiB: DEFAULTS.partSizeMiB, parallel: DEFAULTS.parallel, ...other };
}

export const CEILING: Config = { id: 'curl', label: 'curl, one streamed PUT (ceiling)', kind: 'curl' };
export const DEFAULT_ID = `node-${DEFAULTS.partSizeMiB}x${DEFAULTS.parallel}`;
export const SEQUENTIAL_ID = 'node-5x1';
/** Part Size × Parallel Uploads at the defaults, as the tables write it. */
export const AT_DEFAULTS = `${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel}`;
export const atDefaults = () =>
	multipart(DEFAULTS.partSizeMiB, DEFAULTS.parallel, `this node, defaults (${AT_DEFAULTS})`);
export const sequentialApproach = () => multipart(5, 1, 'sequential 5 MiB parts (n8n S3 node approach)');

/** The main table: ceiling, minimal client, this node at its defaults, the sequential approach, the switch. */
export function throughputConfigs(fileSize: number, older?: OlderNode): Config[] {
	const raw = rawClient('raw', `minimal multipart client, ${AT_DEFAULTS}`);
	const configs = [CEILING, raw, atDefaults(), sequentialApproach()];
	if (older) {
		const label = `this node, defaults, on Node.js ${older.version.split('.')[0]} (n8n 1.x)`;
		configs.push({ ...atDefaults(), id: `${DEFAULT_ID}-older-node`, label, execPath: older.execPath });
	}
	if (fileSize > DEFAULTS.thresholdMiB * MIB) {
		const label = `Upload operation, ${fmt.size(fileSize)} > ${DEFAULTS.thresholdMiB} MiB threshold`;
		configs.push(nodeAtDefaults('upload-auto', label, UPLOAD));
	}
	return configs;
}

/**
 * A service farther away than loopback: every request waits `latencyMs` for its answer, as a
 * round trip and the service's own work would make it. Same file as the sweeps.
 */
export function latencyConfigs(): Config[] {
	return [atDefaults(), multipart(DEFAULTS.partSizeMiB, 1), sequentialApproach()];
}

/**
 * The sweeps: part size at the default parallelism and parallelism at the default part size, two
 * axes crossing at the defaults, with the ceiling and the sequential approach in the same rounds
 * for the ratios.
 */
export function sweepConfigs(partSizes = PART_SIZES, parallelisms = PARALLELISMS): Config[] {
	const configs = [
		CEILING,
		multipart(5, 1),
		...partSizes.map((p) => multipart(p, DEFAULTS.parallel)),
		...parallelisms.map((n) => multipart(DEFAULTS.partSizeMiB, n)),
	];
	return configs.filter((c, i) => configs.findIndex((d) => d.id === c.id) === i);
}

/** One configuration's runs: medians over the rounds, memory the largest of any run (the targets are about the worst case). */
function summaryOf(list: Run[], runs: Map<string, Run[]>, size: number) {
	const nodeRuns = list.flatMap((r) => r.node ?? []);
	const med = (of: (run: Run) => number) => median(list.map(of));
	const nodeMed = (of: (run: MeasuredRun) => number) => median(nodeRuns.map(of));
	const nodeMax = (of: (run: MeasuredRun) => number) => (nodeRuns.length ? Math.max(...nodeRuns.map(of)) : NaN);
	return {
		ms: med((r) => r.ms),
		rate: med((r) => mibPerSecond(size, r.ms)),
		// Medians over rounds of the ceiling's (or the sequential approach's) time in that round ÷ this run's.
		vsCeiling: perRoundRatio(list, runs.get(CEILING.id)),
		vsSequential: perRoundRatio(list, runs.get(SEQUENTIAL_ID)),
		peakRss: nodeMed((n) => n.peakRss),
		maxGrowth: nodeMax((n) => n.peakRss - n.baselineRss),
		maxBuffersHeld: nodeMax((n) => n.buffersHeld),
		clientCpu: nodeMed((n) => n.cpuSeconds),
		clientGcMs: nodeMed((n) => n.gc.pauseMs),
		emulatorCpu: med((r) => r.emulatorCpuSeconds),
		parts: med((r) => r.parts ?? NaN),
		// The emulator's counts for one run.
		connectionsOpened: med((r) => r.connections?.opened ?? NaN),
		requests: med((r) => r.connections?.requests ?? NaN),
	};
}

export type Summary = ReturnType<typeof summaryOf>;

export function summarize(runs: Map<string, Run[]>, size: number): Map<string, Summary> {
	return new Map([...runs].map(([id, list]) => [id, summaryOf(list, runs, size)]));
}

/** Configurations measured in the same rounds on one file, with their summaries. */
export type Measured<S extends Summary = Summary> = {
	configs: Config[];
	summaries: Map<string, S>;
	size: number;
	rounds: number;
};

/** Runs `configs` in rounds on `file` (runner.ts) and summarizes them. */
export async function measure(rig: Rig, what: string, configs: Config[], file: InputFile, rounds = rig.o.runs) {
	const summaries = summarize(await runRounds(rig, what, configs, file, rounds), file.size);
	return { configs, summaries, size: file.size, rounds };
}

/** A node row's RSS growth bound, its own or part size × (parallel + 1) + 64 MiB, and whether its largest growth met it. */
function boundCell({ config, s }: Row): string {
	if (config.kind !== 'node') return '';
	const { memoryBoundMiB, partSizeMiB = DEFAULTS.partSizeMiB, parallel = DEFAULTS.parallel } = config;
	const bound = memoryBoundMiB !== undefined ? memoryBoundMiB * MIB : memoryBound(partSizeMiB, parallel);
	return `${fmt.mib(bound)} ${met(s.maxGrowth <= bound)}`;
}

export type Row<S extends Summary = Summary> = { config: Config; s: S };

/** The configurations that were measured, with their summaries. */
export function rowsOf<S extends Summary>(configs: Config[], summaries: Map<string, S>): Row<S>[] {
	return configs.filter((c) => summaries.has(c.id)).map((config) => ({ config, s: summaries.get(config.id)! }));
}

/** Empty in the rows of the curl ceiling and the minimal client: measured in the node's own process. */
const ifNode = (row: Row, cell: string) => (row.config.kind === 'node' ? cell : '');

/** The columns the upload tables share, in the order of the main table's. */
const COLUMN = {
	configuration: ['Configuration', (r) => r.config.label],
	time: ['Time', (r) => fmt.seconds(r.s.ms)],
	throughput: ['Throughput', (r) => fmt.rate(r.s.rate)],
	vsCeiling: ['× ceiling', (r) => (r.config.kind === 'curl' ? '1.00×' : fmt.ratio(r.s.vsCeiling))],
	vsSequential: ['× sequential 5 MiB', (r) => ifNode(r, fmt.ratio(r.s.vsSequential))],
	peakRss: ['Peak RSS', (r) => ifNode(r, fmt.mib(r.s.peakRss))],
	growth: ['RSS growth (max)', (r) => ifNode(r, fmt.mib(r.s.maxGrowth))],
	buffers: ['Buffers held (max)', (r) => ifNode(r, fmt.mib(r.s.maxBuffersHeld))],
	bound: ['Growth bound', boundCell],
	clientCpu: ['Client CPU', (r) => ifNode(r, fmt.cpu(r.s.clientCpu))],
	clientGc: ['Client GC', (r) => ifNode(r, fmt.cpu(r.s.clientGcMs / 1000))],
	emulatorCpu: ['Emulator CPU', (r) => fmt.cpu(r.s.emulatorCpu)],
} satisfies Record<string, Column<Row>>;
const COLUMNS = Object.values(COLUMN);

export const columns = (...names: Array<keyof typeof COLUMN>): Column<Row>[] => names.map((name) => COLUMN[name]);

export function throughputTable({ configs, summaries, size, rounds }: Measured): Table {
	return {
		title: `Upload of ${fmt.size(size)}: ceiling, this node, the sequential approach`,
		note:
			`Random bytes; one fresh process per node run; ${runsOf(rounds)}; ratios are medians of per-round ratios. ` +
			"RSS growth is over the idle baseline (n8n-core loaded, binary stored); buffers held is the peak of ArrayBuffer memory over its level before the upload (sampled every 10 ms); CPU is CPU time during the upload; GC is the client's main-thread GC pause time.",
		...tabulate(rowsOf(configs, summaries), COLUMNS),
	};
}

export function latencyTable({ configs, summaries, size, rounds }: Measured, latencyMs: number): Table {
	return {
		title: `Upload of ${fmt.size(size)} with ${latencyMs} ms of latency per request`,
		note:
			`The emulator waits ${latencyMs} ms before every answer (start, each part, complete), as a service farther away than ` +
			`loopback would; ${runsOf(rounds)}. No curl row: one request pays the latency once.`,
		...tabulate(rowsOf(configs, summaries), [
			...columns('configuration', 'time', 'throughput', 'vsSequential'),
			['Requests', (r) => String(r.s.parts + 2)],
		]),
	};
}

export function sweepTables({ summaries, size, rounds }: Measured): Table[] {
	const note = `${fmt.size(size)} per run, ${runsOf(rounds)}; ceiling and sequential approach measured in the same rounds.`;
	const table = (title: string, points: Config[]) => ({ title, note, ...tabulate(rowsOf(points, summaries), COLUMNS) });
	const { partSizeMiB, parallel } = DEFAULTS;
	const byPartSize = PART_SIZES.map((p) => multipart(p, parallel));
	const byParallel = PARALLELISMS.map((n) => multipart(partSizeMiB, n));
	return [
		table(`Sweep: part size at ${parallel} parallel uploads`, byPartSize),
		table(`Sweep: parallel uploads at ${partSizeMiB} MiB parts`, byParallel),
	];
}
