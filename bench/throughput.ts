/**
 * The large-file scenarios: the curl ceiling, a minimal multipart client, this node at its
 * defaults, the sequential 5 MiB approach and the Upload operation switching to multipart; and
 * the part-size and parallelism sweeps. Each set runs in shared rounds, so every ratio is same-run.
 */
import { nodeVersion } from '../nodes/FileStorage/versions';

import type { Config, Run } from './runner';
import type { OlderNode } from './runtime';
import { fmt, median, mibPerSecond, MIB, perRoundRatio, runsOf } from './stats';
import type { Table } from './table';

/** The defaults of a node that uploads on its own (version 2): Part Size × Parallel Uploads. */
const V2 = nodeVersion(2);
export const DEFAULTS = {
	partSizeMiB: V2.partSizeMiB,
	parallel: V2.parallelUploads!,
	thresholdMiB: V2.multipartThresholdMiB,
};
export const PART_SIZES = [5, 8, 16, 32, 64];
export const PARALLELISMS = [1, 2, 4, 8];

/** Memory the design promises for a multipart upload: the parts in flight and one being read, plus slack. */
export function memoryBound(partSizeMiB: number, parallel: number): number {
	return (partSizeMiB * (parallel + 1) + 64) * MIB;
}

type NodeConfig = Extract<Config, { kind: 'node' }>;

export const multipart = (partSizeMiB: number, parallel: number, label?: string): NodeConfig => ({
	id: `node-${partSizeMiB}x${parallel}`,
	label: label ?? `Multipart Upload, ${partSizeMiB} MiB × ${parallel}`,
	kind: 'node',
	parameters: { resource: 'file', operation: 'multipartUpload', partSize: partSizeMiB, parallelUploads: parallel },
	partSizeMiB,
	parallel,
});

export const CEILING: Config = { id: 'curl', label: 'curl, one streamed PUT (ceiling)', kind: 'curl' };
export const DEFAULT_ID = `node-${DEFAULTS.partSizeMiB}x${DEFAULTS.parallel}`;
export const atDefaults = () =>
	multipart(
		DEFAULTS.partSizeMiB,
		DEFAULTS.parallel,
		`this node, defaults (${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel})`,
	);
export const sequentialApproach = () => multipart(5, 1, 'sequential 5 MiB parts (n8n S3 node approach)');
export const SEQUENTIAL_ID = 'node-5x1';

/** The main table: ceiling, minimal client, this node at its defaults, the sequential approach, the switch. */
export function throughputConfigs(fileSize: number, older?: OlderNode): Config[] {
	const configs: Config[] = [
		CEILING,
		{
			id: 'raw',
			label: `minimal multipart client, ${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel}`,
			kind: 'raw',
			partSizeMiB: DEFAULTS.partSizeMiB,
			parallel: DEFAULTS.parallel,
		},
		atDefaults(),
		sequentialApproach(),
	];
	if (older) {
		configs.push({
			...multipart(DEFAULTS.partSizeMiB, DEFAULTS.parallel),
			id: `${DEFAULT_ID}-older-node`,
			label: `this node, defaults, on Node.js ${older.version.split('.')[0]} (n8n 1.x)`,
			execPath: older.execPath,
		});
	}
	if (fileSize > DEFAULTS.thresholdMiB * MIB) {
		configs.push({
			id: 'upload-auto',
			label: `Upload operation, ${fmt.size(fileSize)} > ${DEFAULTS.thresholdMiB} MiB threshold`,
			kind: 'node',
			parameters: { resource: 'file', operation: 'upload' },
			partSizeMiB: DEFAULTS.partSizeMiB,
			parallel: DEFAULTS.parallel,
		});
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

export function latencyTable(
	configs: Config[],
	summaries: Map<string, Summary>,
	size: number,
	rounds: number,
	latencyMs: number,
): Table {
	return {
		title: `Upload of ${fmt.size(size)} with ${latencyMs} ms of latency per request`,
		note:
			`The emulator waits ${latencyMs} ms before every answer (start, each part, complete), as a service farther away than ` +
			`loopback would; ${runsOf(rounds)}. No curl row: one request pays the latency once.`,
		head: ['Configuration', 'Time', 'Throughput', '× sequential 5 MiB', 'Requests'],
		rows: configs
			.filter((c) => summaries.has(c.id))
			.map((c) => {
				const s = summaries.get(c.id)!;
				return [c.label, fmt.seconds(s.ms), fmt.rate(s.rate), fmt.ratio(s.vsSequential), String(s.parts + 2)];
			}),
	};
}

/**
 * The sweeps: part size at the default parallelism and parallelism at the default part size, two
 * axes crossing at the defaults, with the ceiling and the sequential approach in the same rounds
 * for the ratios.
 */
export function sweepConfigs(partSizes = PART_SIZES, parallelisms = PARALLELISMS): Config[] {
	const configs: Config[] = [CEILING, multipart(5, 1)];
	const have = new Set(configs.map((c) => c.id));
	for (const config of [
		...partSizes.map((p) => multipart(p, DEFAULTS.parallel)),
		...parallelisms.map((n) => multipart(DEFAULTS.partSizeMiB, n)),
	]) {
		if (!have.has(config.id)) configs.push(config);
		have.add(config.id);
	}
	return configs;
}

export interface Summary {
	ms: number;
	rate: number;
	/** Median over rounds of this run's speed / the same round's ceiling speed. */
	vsCeiling: number;
	vsSequential: number;
	peakRss: number;
	baselineRss: number;
	/** Largest growth of any run: the memory target is about the worst case. */
	maxGrowth: number;
	/** Largest buffer memory held by any run. */
	maxBuffersHeld: number;
	clientCpu: number;
	clientGcMs: number;
	emulatorCpu: number;
	parts: number;
}

export function summarize(runs: Map<string, Run[]>, size: number): Map<string, Summary> {
	const out = new Map<string, Summary>();
	for (const [id, list] of runs) {
		const nodeRuns = list.map((r) => r.node).filter((n) => n !== undefined);
		out.set(id, {
			ms: median(list.map((r) => r.ms)),
			rate: median(list.map((r) => mibPerSecond(size, r.ms))),
			vsCeiling: perRoundRatio(list, runs.get(CEILING.id)),
			vsSequential: perRoundRatio(list, runs.get(SEQUENTIAL_ID)),
			peakRss: median(nodeRuns.map((n) => n.peakRss)),
			baselineRss: median(nodeRuns.map((n) => n.baselineRss)),
			maxGrowth: nodeRuns.length ? Math.max(...nodeRuns.map((n) => n.peakRss - n.baselineRss)) : NaN,
			maxBuffersHeld: nodeRuns.length ? Math.max(...nodeRuns.map((n) => n.buffersHeld)) : NaN,
			clientCpu: median(nodeRuns.map((n) => n.cpuSeconds)),
			clientGcMs: median(nodeRuns.map((n) => n.gc.pauseMs)),
			emulatorCpu: median(list.map((r) => r.emulatorCpuSeconds)),
			parts: median(list.map((r) => r.parts ?? NaN)),
		});
	}
	return out;
}

/** A node row's RSS growth bound (bytes; NaN for other rows): its own, or part size × (parallel + 1) + 64 MiB. */
export function boundOf(config: Config): number {
	if (config.kind !== 'node') return NaN;
	if (config.memoryBoundMiB !== undefined) return config.memoryBoundMiB * MIB;
	return config.partSizeMiB !== undefined && config.parallel !== undefined
		? memoryBound(config.partSizeMiB, config.parallel)
		: NaN;
}

function boundCell(config: Config, s: Summary): string {
	const bound = boundOf(config);
	return Number.isNaN(bound) ? '' : `${fmt.mib(bound)} ${s.maxGrowth <= bound ? 'met' : '**not met**'}`;
}

const HEAD = [
	'Configuration',
	'Time',
	'Throughput',
	'× ceiling',
	'× sequential 5 MiB',
	'Peak RSS',
	'RSS growth (max)',
	'Buffers held (max)',
	'Growth bound',
	'Client CPU',
	'Client GC',
	'Emulator CPU',
];

function row(config: Config, s: Summary): string[] {
	const isNode = config.kind === 'node';
	return [
		config.label,
		fmt.seconds(s.ms),
		fmt.rate(s.rate),
		config.kind === 'curl' ? '1.00×' : fmt.ratio(s.vsCeiling),
		isNode ? fmt.ratio(s.vsSequential) : '',
		isNode ? fmt.mib(s.peakRss) : '',
		isNode ? fmt.mib(s.maxGrowth) : '',
		isNode ? fmt.mib(s.maxBuffersHeld) : '',
		boundCell(config, s),
		isNode ? fmt.cpu(s.clientCpu) : '',
		isNode ? fmt.cpu(s.clientGcMs / 1000) : '',
		fmt.cpu(s.emulatorCpu),
	];
}

export function throughputTable(
	configs: Config[],
	summaries: Map<string, Summary>,
	size: number,
	rounds: number,
): Table {
	return {
		title: `Upload of ${fmt.size(size)}: ceiling, this node, the sequential approach`,
		note:
			`Random bytes; one fresh process per node run; ${runsOf(rounds)}; ratios are medians of per-round ratios. ` +
			"RSS growth is over the idle baseline (n8n-core loaded, binary stored); buffers held is the peak of ArrayBuffer memory over its level before the upload (sampled every 10 ms); CPU is CPU time during the upload; GC is the client's main-thread GC pause time.",
		head: HEAD,
		rows: configs.filter((c) => summaries.has(c.id)).map((c) => row(c, summaries.get(c.id)!)),
	};
}

export function sweepTables(configs: Config[], summaries: Map<string, Summary>, size: number, rounds: number): Table[] {
	const byId = new Map(configs.map((c) => [c.id, c]));
	const pick = (ids: string[]) =>
		ids.filter((id) => byId.has(id) && summaries.has(id)).map((id) => row(byId.get(id)!, summaries.get(id)!));
	const note = `${fmt.size(size)} per run, ${runsOf(rounds)}; ceiling and sequential approach measured in the same rounds.`;
	return [
		{
			title: `Sweep: part size at ${DEFAULTS.parallel} parallel uploads`,
			note,
			head: HEAD,
			rows: pick(PART_SIZES.map((p) => `node-${p}x${DEFAULTS.parallel}`)),
		},
		{
			title: `Sweep: parallel uploads at ${DEFAULTS.partSizeMiB} MiB parts`,
			note,
			head: HEAD,
			rows: pick(PARALLELISMS.map((n) => `node-${DEFAULTS.partSizeMiB}x${n}`)),
		},
	];
}
