/**
 * BENCHMARKS.md: how the numbers were made, the tables of this run, which targets are met, and
 * the profile findings kept in bench/findings.md (written by hand from `--profile` runs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { BenchOptions } from './args';
import { describeProfile, type FarResult, type FarSummary } from './far';
import { thresholdTarget, V3_ID } from './far-threshold';
import type { RealN8nResult } from './real-n8n';
import { hundredThousandSection } from './hundred-thousand';
import { folderMoveSection } from './folder-move';
import { scaleSection } from './scale';
import { fmt, verdict } from './stats';
import { MANY_OPERATIONS, manyGrowthBound, nodeVsClient, type ManyResult } from './many-files';
import { REAL_VS_IN_PROCESS_GOAL, realVsInProcess, type ManyRealResult } from './many-real';
import { renderTable, type Table } from './table';
import { DEFAULT_ID, DEFAULTS, memoryBound, rowsOf, SEQUENTIAL_ID, type Summary } from './throughput';

export interface ReportInput {
	options: BenchOptions;
	machine: string;
	loadBefore: string;
	loadAfter: string;
	command: string;
	tables: Table[];
	durationMs: number;
	/** Uploads whose stored bytes matched the input's sha256. */
	verifiedUploads: number;
	throughput?: Map<string, Summary>;
	realN8n?: RealN8nResult;
	far?: FarResult;
	many?: ManyResult;
	manyReal?: ManyRealResult;
}

function manyTargets(many: ManyResult | undefined): string[] {
	if (!many) return [];
	return MANY_OPERATIONS.map((op) => {
		const ratio = nodeVsClient(many, op);
		return `- Many files (${many.count}), ${op}: the node at version 3 defaults ≤ 2 × the minimal client sending 16 at a time on kept connections: ${ratio.toFixed(2)}× — ${verdict(ratio <= 2)}.`;
	});
}

function manyRealTargets(real: ManyRealResult | undefined): string[] {
	if (!real) return [];
	if (real.skipped) return [`- Many files through real n8n: ${real.skipped}.`];
	return MANY_OPERATIONS.map((op) => {
		const ratio = realVsInProcess(real, op);
		const growth = Math.max(...real.rounds.map((r) => r.real.get(op)?.rssGrowth ?? NaN));
		const bound = manyGrowthBound(real, op);
		return (
			`- Many files (${real.count}) through real n8n, ${op}: (node ÷ 16-at-a-time client) within ${REAL_VS_IN_PROCESS_GOAL} × the in-process figure: ${fmt.ratio(ratio)} — ${verdict(ratio <= REAL_VS_IN_PROCESS_GOAL)}; ` +
			`n8n's RSS growth during the node's run ≤ ${fmt.mib(bound)}: ${fmt.mib(growth)} — ${verdict(growth <= bound)}.`
		);
	});
}

/** The lines that apply: a line whose value is false, undefined or '' is left out. */
const present = (lines: Array<string | false | undefined>) => lines.filter((line): line is string => Boolean(line));

function targets(report: ReportInput): string[] {
	const s = report.throughput;
	const node = s?.get(DEFAULT_ID);
	if (!s || !node) return ['- Throughput targets: not measured in this run (`--only` left them out).'];
	const bound = memoryBound(DEFAULTS.partSizeMiB, DEFAULTS.parallel);
	const raw = s.get('raw');
	const real = report.realN8n;
	return present([
		`- Multipart Upload at defaults (${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel}) ≥ 0.8 × the curl ceiling: ${fmt.ratio(node.vsCeiling)} — ${verdict(node.vsCeiling >= 0.8)}.`,
		`- ≥ 1.5 × the sequential 5 MiB approach: ${fmt.ratio(node.vsSequential)} — ${verdict(node.vsSequential >= 1.5)}.`,
		`- Peak RSS growth ≤ part size × (parallelism + 1) + 64 MiB = ${fmt.mib(bound)}: ${fmt.mib(node.maxGrowth)} (worst run) — ${verdict(node.maxGrowth <= bound)}; ` +
			`buffer memory held at most ${fmt.mib(node.maxBuffersHeld)} (the pool of ${DEFAULTS.parallel + 1} request bodies is ${fmt.mib(DEFAULTS.partSizeMiB * (DEFAULTS.parallel + 1) * 1024 * 1024)}).`,
		raw &&
			`- The emulator as a limit: a minimal multipart client (no n8n, no copies) reaches ${fmt.ratio(raw.vsCeiling)} of the ceiling at the same settings; ` +
				`the node reaches ${fmt.ratio(node.vsCeiling / raw.vsCeiling)} of that client. See the findings for what each side spends.`,
		// n8n's own start-up sets much of its peak, so the difference of peaks is a floor, not the upload's growth.
		real?.peakRss !== undefined &&
			real.controlPeakRss !== undefined &&
			`- Real n8n: peak RSS of the n8n process ${fmt.mib(real.peakRss)} for ${fmt.size(report.options.size)}; the same workflow without the upload peaks at ` +
				`${fmt.mib(real.controlPeakRss)} (n8n's start-up sets much of both peaks, so the difference is not the upload's own growth).`,
		real?.vsInProcess !== undefined
			? `- Real n8n ≥ 0.85 × the same upload in-process, same rounds: ${fmt.ratio(real.vsInProcess)} — ${verdict(real.vsInProcess >= 0.85)}.`
			: real?.skipped && `- Real n8n: ${real.skipped}.`,
	]);
}

function farTargets(far: FarResult | undefined): string[] {
	const summary = (id: string) => far?.main?.summaries.get(id);
	const node = summary(DEFAULT_ID);
	if (!far || !node) {
		return [
			'- Far service targets: not measured in this run (`--only` left them out).',
			...thresholdTarget(far?.threshold),
		];
	}
	const [v3, perRequest, raw, sequential] = [V3_ID, 'raw-v3-per-request', 'raw', SEQUENTIAL_ID].map(summary);
	// The fastest node point of the sweep (the first of equals).
	const { configs, summaries } = far.sweep ?? { configs: [], summaries: new Map<string, FarSummary>() };
	const nodes = configs.filter((c) => c.kind === 'node');
	const best = rowsOf(nodes, summaries).sort((a, b) => b.s.rate - a.s.rate)[0];
	return present([
		`- Far service (${describeProfile(far.profile)}), defaults ≥ 0.85 × the limit (${fmt.rate(node.limit)}): ${fmt.ratio(node.vsLimit)} — ${verdict(node.vsLimit >= 0.85)}.`,
		`- Far service, defaults ≥ 3 × the sequential 5 MiB approach: ${fmt.ratio(node.vsSequential)} — ${verdict(node.vsSequential >= 3)}.`,
		v3 &&
			`- Far service, version 3 defaults ≥ 0.85 × the limit (${fmt.rate(v3.limit)}): ${fmt.ratio(v3.vsLimit)} — ${verdict(v3.vsLimit >= 0.85)}; ${fmt.rate(v3.rate)}, ${fmt.ratio(v3.rate / node.rate)} the version 2 defaults.`,
		v3 &&
			perRequest &&
			`- The same parts from a minimal client that also opens a connection per request: ${fmt.ratio(perRequest.vsLimit)} of the same limit; the node reaches ${fmt.ratio(v3.rate / perRequest.rate)} of its speed.`,
		raw &&
			sequential &&
			`- Connections: the node opened ${node.connectionsOpened} for ${node.requests} requests (the sequential approach ${sequential.connectionsOpened} for ${sequential.requests}); ` +
				`the keep-alive minimal client ${raw.connectionsOpened} for ${raw.requests}, at ${fmt.ratio(raw.vsLimit)} of the same limit.`,
		best?.config.kind === 'node' &&
			`- Sweep: fastest point ${best.config.partSizeMiB} MiB × ${best.config.parallel} at ${fmt.rate(best.s.rate)} (${fmt.ratio(best.s.vsLimit)} of its limit).`,
		...thresholdTarget(far.threshold),
	]);
}

export function renderReport(report: ReportInput): string {
	const { options } = report;
	const findingsFile = join(__dirname, 'findings.md');
	const findings = existsSync(findingsFile) ? readFileSync(findingsFile, 'utf8').trim() : '';
	return [
		'# Benchmarks',
		'',
		'Upload throughput and memory of the File Storage node against the physical limit of this machine (the same',
		"bytes sent by `curl` to the same emulator) and against the sequential 5 MiB approach of n8n's own S3 node.",
		'This file is written by the bench; the findings section comes from `bench/findings.md`.',
		'',
		`- Command: \`${report.command}\` (about ${Math.round(report.durationMs / 60000)} min)`,
		`- Machine: ${report.machine}. The node (client) and the emulator run in separate processes on the same 2 cores, so`,
		"  every byte costs CPU on both sides of the loopback: the ceiling is the machine's, not the network's.",
		`- Load average (1/5/15 min) before: ${report.loadBefore}; after: ${report.loadAfter}. Other work on the machine shows up as spread between rounds.`,
		`- Runs: ${options.runs} per large-file configuration, ${options.smallRuns} for Single Upload and List Contents; tables show medians.`,
		`- Bytes: each configuration's stored object is compared with the input's sha256 in its first round: ${report.verifiedUploads} uploads matched.`,
		'',
		'## Method',
		'',
		`- Input: ${fmt.size(options.size)} of random bytes generated by the bench; the emulator (\`test/emulator\`) in its own process on a loopback port.`,
		'- Ceiling: `curl -F file=@…` streaming one signed `PUT /api/v1/files/upload`.',
		`- Emulator part ETags: \`${options.etags}\`${options.etags === 'random' ? ' (no MD5 over every byte on this machine: the real service hashes on its own servers, and the ceiling is not hashed either; `--etags md5` measures with it)' : " (MD5 of every part byte, on the emulator's event loop)"}.`,
		"- This node: run through n8n-core's real engine by the in-process harness (`test/harness`), from a binary in n8n's",
		"  filesystem store, one fresh process per run. RSS is sampled every 50 ms and read from the kernel's peak (VmHWM, reset",
		'  before the upload), baseline = RSS after n8n-core loaded and the binary was stored. The absolute RSS includes ts-node',
		'  and the TypeScript compiler the bench process runs under (about 50–60 MiB); the growth does not.',
		'- Minimal multipart client (`bench/raw-multipart.ts`): plain `node:http`, reused part buffers, no copies. It separates what',
		"  the emulator's multipart path costs from what the node costs.",
		"- Sequential 5 MiB approach: this node with Part Size 5 and Parallel Uploads 1, i.e. n8n's S3 node design through the same transport.",
		'- Round-robin: each round runs every configuration once; a ratio is the median of the per-round ratios, so it is always',
		'  measured in the same run, minutes apart at most. `sync` runs before each run so write-back of the last run does not land in it.',
		`- Sweeps: part size at the default parallelism and parallelism at the default part size, at ${fmt.size(options.sweepSize)} per run:`,
		'  two axes crossing at the defaults instead of the full 5 × 4 grid, and a smaller file, to keep the whole bench near 20 minutes.',
		`- Latency: the sweep file again, with the emulator waiting ${options.latencyMs} ms before every answer, as a service farther away would.`,
		`- Far service: the emulator's far-service profile (${describeProfile(options.far)}; \`test/emulator\` README) at`,
		`  ${fmt.size(options.farSize)} for the main table and ${fmt.size(options.farSweepSize)} per point of the Part Size × Parallel Uploads sweep (one run per point,`,
		'  to keep the bench near 25 minutes: the sweep shows the shape, the main table the targets). Every configuration is held',
		'  against what the network allows it: min(Parallel Uploads × the per-connection cap, the loopback ceiling of the same',
		'  round), and the emulator counts the TCP connections each run opened.',
		'- Far service, Upload threshold: Upload at node version 3 defaults of files around the Multipart Threshold, each forced',
		'  into one request and into parts in the same rounds (`bench/far-threshold.ts`); the crossover is where parts start to win.',
		'',
		'## Results',
		'',
		...report.tables.flatMap((t) => [renderTable(t), '']),
		'## Targets',
		'',
		...targets(report),
		...(options.only.has('far') || options.only.has('far-threshold') ? farTargets(report.far) : []),
		...manyTargets(report.many),
		...manyRealTargets(report.manyReal),
		'',
		...scaleSection(),
		...hundredThousandSection(),
		...folderMoveSection(),
		...(findings ? [findings, ''] : []),
	].join('\n');
}
