/**
 * Runs configurations round-robin: round 1 runs every configuration once, then round 2, and so
 * on. Load from anything else on the machine then falls on every configuration alike, and each
 * round's ratio compares runs made minutes apart at most.
 */
import { spawnSync } from 'node:child_process';

import type { INodeParameters } from 'n8n-workflow';

import type { BenchOptions } from './args';
import { runScenario, type EmulatorProcess, type MeasuredRun } from './children';
import { curlUpload } from './curl';
import { rawMultipartUpload } from './raw-multipart';
import { fmt, mibPerSecond, type Log } from './stats';

export type InputFile = { path: string; name: string; size: number; sha256: string };

export type Config =
	| { id: string; label: string; kind: 'curl' }
	| {
			id: string;
			label: string;
			kind: 'raw';
			partSizeMiB: number;
			parallel: number;
			/** As n8n's request helpers do (bench/connections.ts); by default the minimal client keeps its connections. */
			newConnectionPerRequest?: boolean;
	  }
	| {
			id: string;
			label: string;
			kind: 'node';
			parameters: INodeParameters;
			partSizeMiB?: number;
			parallel?: number;
			/** Another Node.js to run the node on than the bench's own. */
			execPath?: string;
			/** The memory bound of the row, MiB, when not part size × (parallel + 1) + 64. */
			memoryBoundMiB?: number;
			/** Node version; default 2, the version these tables were made with (3 runs items in parallel). */
			typeVersion?: number;
			/**
			 * The credential's API Paths. Unset (Automatic), a fresh process's first multipart upload
			 * sends its first part alone to learn the path family, as n8n does once per process.
			 */
			apiPaths?: 'reference' | 'sdk';
	  };

export interface Run {
	ms: number;
	/** Only for the node: measured in its own process. */
	node?: MeasuredRun;
	emulatorCpuSeconds: number;
	parts?: number;
	/** TCP connections that carried the run's requests, and those requests (the emulator's count). */
	connections?: { opened: number; requests: number };
}

/** What a scenario runs with: the emulator, the bench's options, and where it says what it is doing. */
export type Rig = { emulator: EmulatorProcess; o: BenchOptions; log: Log };

export const OBJECT_KEY = 'bench/object.bin';

/** Uploads whose stored object was compared with the input's sha256 (the report says how many). */
export const verified = { uploads: 0 };

/** Write-back of the previous run's files would otherwise land in the middle of the next one. */
export function settleDisk(): void {
	spawnSync('sync');
}

export async function runOnce(config: Config, file: InputFile, emulator: EmulatorProcess): Promise<Run> {
	const { info } = emulator;
	if (config.kind === 'node') {
		const node = await runScenario(
			{
				parameters: { key: OBJECT_KEY, ...config.parameters },
				credentials: config.apiPaths ? { apiPaths: config.apiPaths } : {},
				files: [{ path: file.path, name: file.name, mimeType: 'application/octet-stream' }],
				typeVersion: config.typeVersion ?? 2,
			},
			emulator,
			config.execPath,
		);
		if (node.error) throw new Error(`${config.label}: the node failed: ${node.error}`);
		if (node.first?.size !== file.size)
			throw new Error(`${config.label}: stored ${String(node.first?.size)} bytes, expected ${file.size}`);
		const parts = typeof node.first.partCount === 'number' ? node.first.partCount : 1;
		return { ms: node.ms, node, emulatorCpuSeconds: node.emulatorCpuSeconds, parts };
	}
	const cpuBefore = await emulator.cpuSeconds();
	const { ms, parts = 1 }: { ms: number; parts?: number } =
		config.kind === 'curl'
			? await curlUpload(info, file.path, OBJECT_KEY)
			: await rawMultipartUpload(info, file.path, OBJECT_KEY, config);
	return { ms, emulatorCpuSeconds: (await emulator.cpuSeconds()) - cpuBefore, parts };
}

/** Says what runs (`what`, unless undefined, and the file's size), then runs it. */
export async function runRounds(
	{ emulator, log }: Pick<Rig, 'emulator' | 'log'>,
	what: string | undefined,
	configs: Config[],
	file: InputFile,
	rounds: number,
	/** Before each run, e.g. to set the emulator's network profile for this configuration. */
	prepare?: (config: Config) => Promise<unknown>,
): Promise<Map<string, Run[]>> {
	if (what) {
		const times = `${rounds} round${rounds === 1 ? '' : 's'}`;
		log(`\n${what} ${fmt.size(file.size)}: ${configs.length} configurations × ${times}`);
	}
	const runs = new Map<string, Run[]>(configs.map((c) => [c.id, []]));
	for (let round = 1; round <= rounds; round++) {
		for (const config of configs) {
			settleDisk();
			await prepare?.(config);
			await emulator.call('resetStats');
			const run = await runOnce(config, file, emulator);
			run.connections = (await emulator.stats()).connections;
			// Every configuration's bytes are checked once; later rounds trust the size the node reports.
			// BENCH_VERIFY=0 skips it, for timing an emulator experiment that does not store real bytes.
			if (round === 1 && process.env.BENCH_VERIFY !== '0') {
				const stored = await emulator.sha256(OBJECT_KEY);
				if (stored !== file.sha256) throw new Error(`${config.label}: the stored object differs from the input file`);
				verified.uploads++;
			}
			runs.get(config.id)!.push(run);
			const memory = run.node ? `, RSS +${fmt.mib(run.node.peakRss - run.node.baselineRss)}` : '';
			log(
				`  [${round}/${rounds}] ${config.label}: ${fmt.seconds(run.ms)} (${fmt.rate(mibPerSecond(file.size, run.ms))})${memory}`,
			);
		}
	}
	return runs;
}
