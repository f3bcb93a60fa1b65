/** The far-service scenario: main table and Part Size × Parallel Uploads sweep (bench/README.md). */
import type { FarProfile } from './args';
import { runThreshold, thresholdTable, v3Configs, type ThresholdResult } from './far-threshold';
import { runRounds, type Config, type InputFile, type Rig, type Run } from './runner';
import { fmt, median, mibPerSecond, runsOf } from './stats';
import { tabulate, type Column, type Table } from './table';
import {
	AT_DEFAULTS,
	CEILING,
	columns,
	DEFAULTS,
	atDefaults,
	multipart,
	rawClient,
	rowsOf,
	sequentialApproach,
	summarize,
	type Measured,
	type Row,
	type Summary,
} from './throughput';

const GRID = { partSizes: [5, 8, 16, 32, 64], parallelisms: [1, 2, 4, 8, 16] };
/** The smoke run's grid: still every kind of point, the defaults among them. */
const QUICK_GRID = { partSizes: [5, DEFAULTS.partSizeMiB], parallelisms: [1, DEFAULTS.parallel] };

export interface FarSummary extends Summary {
	/** Median over rounds of this run's speed / what the network allowed it in that round. */
	vsLimit: number;
	/** Median limit: min(parallel × cap, the round's loopback ceiling), MiB/s. */
	limit: number;
}

export interface FarResult {
	profile: FarProfile;
	main?: Measured<FarSummary>;
	sweep?: Measured<FarSummary>;
	/** Upload at version 3 around the Multipart Threshold, one request against parts. */
	threshold?: ThresholdResult;
	grid: { partSizes: number[]; parallelisms: number[] };
}

export function describeProfile(p: FarProfile): string {
	return `${p.latencyMs} ms per answer, ${p.connectionDelayMs} ms per new connection, ${p.connectionRateMiBps} MiB/s per connection`;
}

function parallelOf(config: Config): number {
	return config.kind === 'curl' ? 1 : (config.parallel ?? DEFAULTS.parallel);
}

function farSummaries(configs: Config[], runs: Map<string, Run[]>, size: number, profile: FarProfile) {
	const ceilingRuns = runs.get(CEILING.id)!;
	// No cap (0): only the loopback ceiling limits.
	const cap = profile.connectionRateMiBps || Infinity;
	return new Map<string, FarSummary>(
		rowsOf(configs, summarize(runs, size)).map(({ config, s }) => {
			const list = runs.get(config.id)!;
			// What the network let this configuration reach in each round.
			const limits = list.map((_, i) => Math.min(parallelOf(config) * cap, mibPerSecond(size, ceilingRuns[i].ms)));
			const vsLimit = median(list.map((run, i) => mibPerSecond(size, run.ms) / limits[i]));
			return [config.id, { ...s, vsLimit, limit: median(limits) }];
		}),
	);
}

/** A file of random bytes of `size` for `use`, deleted after it. */
export type FarInput = <T>(name: string, size: number, use: (file: InputFile) => Promise<T>) => Promise<T>;

/** All three parts, or with `thresholdOnly` (`--only far-threshold`) the threshold part alone. */
export async function runFar({ emulator, o, log }: Rig, withInput: FarInput, thresholdOnly: boolean) {
	const grid = o.quick ? QUICK_GRID : GRID;
	const result: FarResult = { profile: o.far, grid };
	// The loopback ceiling runs without the profile; everything else against the far service.
	const prepare = (config: Config) => emulator.setProfile(config.kind === 'curl' ? undefined : o.far);
	const measure = (name: string, configs: Config[], size: number, rounds = o.runs, what?: string) =>
		withInput(name, size, (file) => runRounds({ emulator, log }, what, configs, file, rounds, prepare));
	const part = async (what: string, name: string, configs: Config[], size: number, rounds: number) => {
		const summaries = farSummaries(configs, await measure(name, configs, size, rounds, what), size, o.far);
		return { configs, summaries, size, rounds };
	};
	try {
		if (!thresholdOnly) {
			// The loopback ceiling, a keep-alive minimal client, the defaults, the sequential approach, version 3.
			const main = [
				{ ...CEILING, label: 'curl, one streamed PUT on loopback, no profile (ceiling)' },
				rawClient('raw', `minimal multipart client, keep-alive, ${AT_DEFAULTS}`),
				atDefaults(),
				sequentialApproach(),
				...v3Configs(),
			];
			result.main = await part(`far service (${describeProfile(o.far)}),`, 'far.bin', main, o.farSize, o.runs);
			// One round: the sweep shows the shape; the main table's rounds carry the targets.
			const sweep = [CEILING, ...grid.partSizes.flatMap((p) => grid.parallelisms.map((n) => multipart(p, n)))];
			result.sweep = await part('far service sweep,', 'far-sweep.bin', sweep, o.farSweepSize, 1);
		}
		result.threshold = await runThreshold(measure, o, log);
	} finally {
		await emulator.setProfile();
	}
	return result;
}

/** Empty in the ceiling's row: it ran on loopback, without the profile. */
const notCurl = (r: Row, cell: string) => (r.config.kind === 'curl' ? '' : cell);
const count = (n: number) => (Number.isFinite(n) ? String(n) : '–');

const COLUMNS: Column<Row<FarSummary>>[] = [
	...columns('configuration', 'time', 'throughput'),
	['Limit', (r) => notCurl(r, fmt.rate(r.s.limit))],
	['× limit', (r) => notCurl(r, fmt.ratio(r.s.vsLimit))],
	['× sequential 5 MiB', (r) => notCurl(r, fmt.ratio(r.s.vsSequential))],
	['Connections opened', (r) => count(r.s.connectionsOpened)],
	['Requests', (r) => count(r.s.requests)],
	...columns('growth', 'bound'),
];

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
			...tabulate(rowsOf(configs, summaries), COLUMNS),
		});
	}
	if (far.sweep) {
		const { configs, summaries, size } = far.sweep;
		const ceiling = summaries.get(CEILING.id);
		const nodes = configs.filter((c) => c.kind === 'node');
		tables.push({
			title: `Far service sweep: Part Size × Parallel Uploads, ${fmt.size(size)} per run`,
			note:
				`${profile}; one run per point, the loopback ceiling (${ceiling ? fmt.rate(ceiling.rate) : '–'}) in the same round. ` +
				`A ${fmt.size(size)} file has ${far.grid.partSizes.map((p) => `${Math.ceil(size / (p * 1024 * 1024))}`).join(' / ')} parts at ` +
				`${far.grid.partSizes.join(' / ')} MiB: more parallel uploads than parts cannot all be busy.`,
			...tabulate(rowsOf(nodes, summaries), [
				['Part Size', ({ config }) => `${config.kind === 'node' ? config.partSizeMiB : ''} MiB`],
				['Parallel Uploads', ({ config }) => String(parallelOf(config))],
				['Parts', ({ s }) => String(s.parts)],
				...COLUMNS.slice(1),
			]),
		});
	}
	if (far.threshold) tables.push(thresholdTable(far.threshold, far.profile, profile));
	return tables;
}
