/** The far-service scenario: main table and Part Size × Parallel Uploads sweep (bench/README.md). */
import type { FarProfile } from './args';
import type { EmulatorProcess } from './children';
import {
	QUICK_THRESHOLD_SIZES_MIB,
	runThreshold,
	THRESHOLD_SIZES_MIB,
	thresholdTable,
	V3,
	V3_IN_FLIGHT,
	type ThresholdResult,
} from './far-threshold';
import { runRounds, type Config, type InputFile, type Run } from './runner';
import { fmt, median, mibPerSecond, runsOf } from './stats';
import type { Table } from './table';
import {
	CEILING,
	DEFAULTS,
	atDefaults,
	boundOf,
	multipart,
	sequentialApproach,
	summarize,
	type Summary,
} from './throughput';

export const FAR_PART_SIZES = [5, 8, 16, 32, 64];
export const FAR_PARALLELISMS = [1, 2, 4, 8, 16];
/** The smoke run's grid: still every kind of point, the defaults among them. */
const QUICK_PART_SIZES = [5, DEFAULTS.partSizeMiB];
const QUICK_PARALLELISMS = [1, DEFAULTS.parallel];

export interface FarSummary extends Summary {
	/** Median over rounds of this run's speed / what the network allowed it in that round. */
	vsLimit: number;
	/** Median limit: min(parallel × cap, the round's loopback ceiling), MiB/s. */
	limit: number;
	connectionsOpened: number;
	requests: number;
}

export interface FarPart {
	configs: Config[];
	summaries: Map<string, FarSummary>;
	size: number;
	rounds: number;
}

export interface FarResult {
	profile: FarProfile;
	main?: FarPart;
	sweep?: FarPart;
	/** Upload at version 3 around the Multipart Threshold, one request against parts. */
	threshold?: ThresholdResult;
	grid: { partSizes: number[]; parallelisms: number[] };
}

export function describeProfile(p: FarProfile): string {
	return `${p.latencyMs} ms per answer, ${p.connectionDelayMs} ms per new connection, ${p.connectionRateMiBps} MiB/s per connection`;
}

function parallelOf(config: Config): number {
	if (config.kind === 'curl') return 1;
	return config.parallel ?? DEFAULTS.parallel;
}

/** What the network lets a configuration reach in a round whose loopback ceiling was `ceiling` MiB/s. */
function limitOf(config: Config, profile: FarProfile, ceiling: number): number {
	// No cap (0): only the loopback ceiling limits.
	const cap = profile.connectionRateMiBps || Infinity;
	return Math.min(parallelOf(config) * cap, ceiling);
}

function farSummaries(
	configs: Config[],
	runs: Map<string, Run[]>,
	size: number,
	profile: FarProfile,
): Map<string, FarSummary> {
	const base = summarize(runs, size);
	const ceilingRuns = runs.get(CEILING.id) ?? [];
	const out = new Map<string, FarSummary>();
	for (const config of configs) {
		const list = runs.get(config.id);
		const s = base.get(config.id);
		if (!list || !s) continue;
		const limits = list.map((_, i) =>
			ceilingRuns[i] ? limitOf(config, profile, mibPerSecond(size, ceilingRuns[i].ms)) : NaN,
		);
		out.set(config.id, {
			...s,
			vsLimit: median(list.map((run, i) => mibPerSecond(size, run.ms) / limits[i])),
			limit: median(limits),
			connectionsOpened: median(list.map((r) => r.connections?.opened ?? NaN)),
			requests: median(list.map((r) => r.connections?.requests ?? NaN)),
		});
	}
	return out;
}

/** The main table: the loopback ceiling, a keep-alive minimal client, the defaults, the sequential approach. */
function farMainConfigs(): Config[] {
	return [
		CEILING,
		{
			id: 'raw',
			label: `minimal multipart client, keep-alive, ${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel}`,
			kind: 'raw',
			partSizeMiB: DEFAULTS.partSizeMiB,
			parallel: DEFAULTS.parallel,
		},
		atDefaults(),
		sequentialApproach(),
		v3ClientPerRequest(),
		v3Defaults(),
	];
}

/**
 * The node at version 3 defaults: 24 MiB parts, as many in flight as Upload Memory holds (96 ÷ 24
 * = 4) and Parallel Requests allows (32). Its limit counts those 4.
 */
export const V3_ID = 'node-v3';
export function v3Defaults(): Config {
	return {
		id: V3_ID,
		label: `this node, version 3 defaults (${V3.partSizeMiB} MiB parts, ${V3_IN_FLIGHT} in flight)`,
		kind: 'node',
		parameters: { resource: 'file', operation: 'multipartUpload' },
		partSizeMiB: V3.partSizeMiB,
		parallel: V3_IN_FLIGHT,
		typeVersion: 3,
		memoryBoundMiB: V3.parallelItems!.uploadMemoryMiB + 64,
	};
}

/** What version 3's defaults allow a client that, like the node (findings §6), opens a connection per request. */
function v3ClientPerRequest(): Config {
	return {
		id: 'raw-v3-per-request',
		label: `minimal multipart client, a new connection per request, ${V3.partSizeMiB} MiB × ${V3_IN_FLIGHT}`,
		kind: 'raw',
		partSizeMiB: V3.partSizeMiB,
		parallel: V3_IN_FLIGHT,
		newConnectionPerRequest: true,
	};
}

function farSweepConfigs(partSizes: number[], parallelisms: number[]): Config[] {
	return [CEILING, ...partSizes.flatMap((p) => parallelisms.map((n) => multipart(p, n)))];
}

export async function runFar(
	emulator: EmulatorProcess,
	o: {
		profile: FarProfile;
		size: number;
		sweepSize: number;
		runs: number;
		quick: boolean;
		input: (name: string, size: number) => InputFile;
		done: (file: InputFile) => void;
		/** Only the threshold part (`--only far-threshold`); by default all three. */
		thresholdOnly?: boolean;
	},
	log: (line: string) => void,
): Promise<FarResult> {
	const grid = o.quick
		? { partSizes: QUICK_PART_SIZES, parallelisms: QUICK_PARALLELISMS }
		: { partSizes: FAR_PART_SIZES, parallelisms: FAR_PARALLELISMS };
	const result: FarResult = { profile: o.profile, grid };
	// The loopback ceiling runs without the profile; everything else against the far service.
	const prepare = (config: Config) => emulator.setProfile(config.kind === 'curl' ? undefined : o.profile);
	try {
		if (!o.thresholdOnly) await runMainAndSweep(result, emulator, o, prepare, log);
		result.threshold = await runThreshold(
			emulator,
			{
				sizesMiB: o.quick ? QUICK_THRESHOLD_SIZES_MIB : THRESHOLD_SIZES_MIB,
				runs: o.runs,
				input: o.input,
				done: o.done,
				prepare,
			},
			log,
		);
	} finally {
		await emulator.setProfile();
	}
	return result;
}

async function runMainAndSweep(
	result: FarResult,
	emulator: EmulatorProcess,
	o: Parameters<typeof runFar>[1],
	prepare: (config: Config) => Promise<unknown>,
	log: (line: string) => void,
): Promise<void> {
	const { grid } = result;
	const mainFile = o.input('far.bin', o.size);
	const mainConfigs = farMainConfigs();
	log(
		`\nfar service (${describeProfile(o.profile)}), ${fmt.size(o.size)}: ${mainConfigs.length} configurations × ${o.runs} rounds`,
	);
	const mainRuns = await runRounds(mainConfigs, mainFile, emulator, o.runs, log, prepare);
	result.main = {
		configs: mainConfigs,
		summaries: farSummaries(mainConfigs, mainRuns, o.size, o.profile),
		size: o.size,
		rounds: o.runs,
	};
	o.done(mainFile);

	// One round: the sweep shows the shape; the main table's rounds carry the targets.
	const sweepFile = o.input('far-sweep.bin', o.sweepSize);
	const sweepConfigs = farSweepConfigs(grid.partSizes, grid.parallelisms);
	log(`\nfar service sweep, ${fmt.size(o.sweepSize)}: ${sweepConfigs.length} configurations × 1 round`);
	const sweepRuns = await runRounds(sweepConfigs, sweepFile, emulator, 1, log, prepare);
	result.sweep = {
		configs: sweepConfigs,
		summaries: farSummaries(sweepConfigs, sweepRuns, o.sweepSize, o.profile),
		size: o.sweepSize,
		rounds: 1,
	};
	o.done(sweepFile);
}

const HEAD = [
	'Configuration',
	'Time',
	'Throughput',
	'Limit',
	'× limit',
	'× sequential 5 MiB',
	'Connections opened',
	'Requests',
	'RSS growth (max)',
	'Growth bound',
];

function row(config: Config, s: FarSummary, label = config.label): string[] {
	const isCurl = config.kind === 'curl';
	const isNode = config.kind === 'node';
	const bound = boundOf(config);
	return [
		label,
		fmt.seconds(s.ms),
		fmt.rate(s.rate),
		isCurl ? '' : fmt.rate(s.limit),
		isCurl ? '' : fmt.ratio(s.vsLimit),
		isCurl ? '' : fmt.ratio(s.vsSequential),
		Number.isFinite(s.connectionsOpened) ? String(s.connectionsOpened) : '–',
		Number.isFinite(s.requests) ? String(s.requests) : '–',
		isNode ? fmt.mib(s.maxGrowth) : '',
		isNode ? `${fmt.mib(bound)} ${s.maxGrowth <= bound ? 'met' : '**not met**'}` : '',
	];
}

export function farTables(far: FarResult): Table[] {
	const tables: Table[] = [];
	const profile = describeProfile(far.profile);
	const cap = far.profile.connectionRateMiBps;
	if (far.main) {
		const { configs, summaries, size, rounds } = far.main;
		tables.push({
			title: `Far service: upload of ${fmt.size(size)} at ${profile}`,
			note:
				`The emulator waits ${far.profile.latencyMs} ms before each answer, ${far.profile.connectionDelayMs} ms before the first request of each new ` +
				`connection (the TCP and TLS handshakes) and reads each connection's bodies at ${cap} MiB/s at most. Limit = ` +
				`min(Parallel Uploads × ${cap} MiB/s, the loopback ceiling of the same round: the curl row, run without the profile). ` +
				`Connections opened and requests are the emulator's counts for one run; ${runsOf(rounds)}; ratios are medians of per-round ratios.`,
			head: HEAD,
			rows: configs
				.filter((c) => summaries.has(c.id))
				.map((c) =>
					row(
						c,
						summaries.get(c.id)!,
						c.kind === 'curl' ? 'curl, one streamed PUT on loopback, no profile (ceiling)' : c.label,
					),
				),
		});
	}
	if (far.sweep) {
		const { configs, summaries, size } = far.sweep;
		const nodeConfigs = configs.filter((c) => c.kind === 'node' && summaries.has(c.id));
		const ceiling = summaries.get(CEILING.id);
		tables.push({
			title: `Far service sweep: Part Size × Parallel Uploads, ${fmt.size(size)} per run`,
			note:
				`${profile}; one run per point, the loopback ceiling (${ceiling ? fmt.rate(ceiling.rate) : '–'}) in the same round. ` +
				`A ${fmt.size(size)} file has ${far.grid.partSizes.map((p) => `${Math.ceil(size / (p * 1024 * 1024))}`).join(' / ')} parts at ` +
				`${far.grid.partSizes.join(' / ')} MiB: more parallel uploads than parts cannot all be busy.`,
			head: ['Part Size', 'Parallel Uploads', 'Parts', ...HEAD.slice(1)],
			rows: nodeConfigs.map((c) => {
				const s = summaries.get(c.id)!;
				const cells = row(c, s);
				return [
					`${c.kind === 'node' ? c.partSizeMiB : ''} MiB`,
					String(parallelOf(c)),
					String(s.parts),
					...cells.slice(1),
				];
			}),
		});
	}
	if (far.threshold) tables.push(thresholdTable(far.threshold, far.profile, profile));
	return tables;
}
