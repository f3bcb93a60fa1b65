/**
 * The large multipart workflow in a real n8n (`n8n execute`): Read Files from Disk streams the
 * file into n8n's filesystem binary store, then this node uploads it at its defaults. Peak RSS is
 * the n8n process's own (its task runner is a separate process and does not take part). A control
 * run that reads the same file but uploads nothing gives the RSS n8n needs anyway. Each round also
 * runs the same upload in-process (the harness, n8n-core's engine without the n8n application),
 * so the ratio of the two is measured in the same run. Uses the install of scripts/real-n8n.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { installedRuntime, type InstalledRuntime } from '../scripts/real-n8n/install';
import { importCredential, importWorkflows, linkPackage, NODE_TYPE } from '../scripts/real-n8n/instance';
import { baseEnv, parseRun, type ExecutionRun, type N8nInstance } from '../scripts/real-n8n/n8n';
import { capture, tail } from '../scripts/real-n8n/process';
import { profileByName } from '../scripts/real-n8n/profiles';

import { cpuProfileFlags, runScenario, type EmulatorProcess, type MeasuredRun } from './children';
import { writeRandomFile } from './data';
import { RssSampler } from './memory';
import { OBJECT_KEY, settleDisk } from './runner';
import { fmt, median, mibPerSecond, runsOf } from './stats';
import { skippedTable, type Table } from './table';
import { DEFAULTS } from './throughput';

const NODE_NAME = 'Upload to File Storage';
const UPLOAD_ID = 'benchLargeUpld1';
const CONTROL_ID = 'benchCtrlUpload';
const NOT_INSTALLED =
	'real n8n not installed (run `node -r ts-node/register/transpile-only scripts/real-n8n/install.ts current`, ' +
	'~10 min, then `npm run bench -- --only real-n8n`)';

export interface RealN8nResult {
	table: Table;
	skipped?: string;
	peakRss?: number;
	controlPeakRss?: number;
	/** Median over rounds of in-process time ÷ real n8n time (1 = as fast as in-process). */
	vsInProcess?: number;
}

function title(runtime?: InstalledRuntime): string {
	return `Real n8n${runtime ? ` ${runtime.profile.n8nVersion}` : ''}: Multipart Upload workflow through \`n8n execute\``;
}

export const CREDENTIALS = { fileStorageApi: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)' } };

type WorkflowNode = { name: string; type: string; typeVersion: number; parameters: object; credentials?: object };

/** A manual trigger, then `nodes` one after the other, as `n8n import:workflow` takes it. */
export function chainWorkflow(id: string, nodes: WorkflowNode[]): object {
	const all = [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} }, ...nodes];
	const connect = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id,
		name: `File Storage bench ${id}`,
		nodes: all.map((node, i) => ({ id: `${id}-${i + 1}`, position: [200 * i, 0], ...node })),
		connections: Object.fromEntries(all.slice(0, -1).map((node, i) => [node.name, connect(all[i + 1].name)])),
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/** Read file → this node (Multipart Upload at its defaults), or → No Operation for the control. */
export function workflow(id: string, filePath: string, upload: boolean): object {
	// Part size and parallelism left out: the node's defaults are what is measured.
	const parameters = { resource: 'file', operation: 'multipartUpload', bucketName: 'my-bucket', region: 'us-east-1' };
	const read = { operation: 'read', fileSelector: filePath, options: {} };
	return chainWorkflow(id, [
		{ name: 'Read file', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1.1, parameters: read },
		upload
			? {
					name: NODE_NAME,
					type: NODE_TYPE,
					typeVersion: 1,
					parameters: { ...parameters, key: 'bench/real-n8n.bin', options: {} },
					credentials: CREDENTIALS,
				}
			: { name: NODE_NAME, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

export const taskOf = (run: ExecutionRun | undefined, node: string) => run?.data.resultData.runData[node]?.[0];

/**
 * Runs `n8n execute --id=… --rawOutput` once, sampling the process's RSS, stopped after 15 minutes.
 * Throws unless it ran and each node of `items` put out that many items, none of them an error.
 */
export async function runExecute(
	instance: N8nInstance,
	id: string,
	items: Record<string, number>,
	onStarted?: (pid: number) => void,
) {
	const args = [...cpuProfileFlags(`n8n-${id}`), instance.runtime.n8nBin, 'execute', `--id=${id}`, '--rawOutput'];
	let sampler: RssSampler | undefined;
	const { code, stdout, stderr } = await capture(instance.runtime.nodeBin, args, {
		cwd: instance.userFolder,
		env: await baseEnv(instance),
		timeoutMs: 15 * 60_000,
		onSpawn: (pid) => {
			sampler = new RssSampler(pid);
			sampler.start();
			onStarted?.(pid);
		},
	});
	const peakRss = sampler!.stop();
	const run = parseRun(stdout);
	const failure =
		run?.data.resultData.error?.message ??
		(code !== 0 || !run ? tail(`${stdout}\n${stderr}`, 15) : undefined) ??
		Object.entries(items)
			.map(([node, count]) => {
				const out = taskOf(run, node)?.data?.main?.[0] ?? [];
				const failed = out.filter((item) => item.json.error !== undefined).length;
				return out.length !== count || failed ? `${node}: ${out.length} items, ${failed} failed` : '';
			})
			.find(Boolean);
	if (failure || !run) throw new Error(`n8n execute ${id} failed (exit ${code}): ${failure}`);
	return { run, peakRss };
}

type Execution = Awaited<ReturnType<typeof execute>>;
type RealN8nRuns = { large: Execution[]; control: Execution[]; inProcess: MeasuredRun[] };

export async function execute(
	instance: N8nInstance,
	emulator: EmulatorProcess,
	id: string,
	/** Called with the n8n process's pid once it runs (the scale scenario watches its memory). */
	onStarted?: (pid: number) => void,
) {
	const emulatorCpuBefore = await emulator.cpuSeconds();
	const started = Date.now();
	const { run, peakRss } = await runExecute(instance, id, { [NODE_NAME]: 1 }, onStarted);
	const task = taskOf(run, NODE_NAME);
	return {
		wallMs: Date.now() - started,
		uploadMs: task?.executionTime ?? NaN,
		peakRss,
		partCount: Number(task?.data?.main[0][0].json.partCount ?? 0),
		emulatorCpuSeconds: (await emulator.cpuSeconds()) - emulatorCpuBefore,
	};
}

/** The same upload through the in-process harness, from the same file, at the same defaults. */
async function inProcess(emulator: EmulatorProcess, filePath: string, size: number): Promise<MeasuredRun> {
	const run = await runScenario(
		{
			parameters: { resource: 'file', operation: 'multipartUpload', key: OBJECT_KEY },
			files: [{ path: filePath, name: 'large.bin', mimeType: 'application/octet-stream' }],
		},
		emulator,
	);
	if (run.error) throw new Error(`in-process run failed: ${run.error}`);
	if (run.first?.size !== size)
		throw new Error(`in-process run stored ${String(run.first?.size)} bytes, expected ${size}`);
	return run;
}

export interface N8nSetUp {
	instance: N8nInstance;
	runtime: InstalledRuntime;
	/** The folder n8n may read files from. */
	files: string;
}

/**
 * A real n8n user folder under `dir`: filesystem binary mode with its store in `dir/binary-data`
 * (so a run's binary copy can be deleted), this build linked as an installed package, and the
 * emulator's credential imported.
 */
export async function setUpN8n(emulator: EmulatorProcess, dir: string): Promise<N8nSetUp | { skipped: string }> {
	const runtime = installedRuntime(profileByName('current'));
	if (!runtime) return { skipped: NOT_INSTALLED };
	const userFolder = join(dir, 'n8n-user');
	const files = join(dir, 'n8n-files');
	mkdirSync(files, { recursive: true });
	const instance: N8nInstance = {
		runtime,
		userFolder,
		env: {
			N8N_RESTRICT_FILE_ACCESS_TO: files,
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_BINARY_DATA_STORAGE_PATH: binaryStore(dir),
		},
	};
	// The same build the other scenarios measured (see main.ts), as a user's installed package.
	await linkPackage(userFolder, process.env.BENCH_PACKAGE_DIR ?? undefined);
	const { info } = emulator;
	await importCredential(instance, { accessKey: info.accessKey, secretKey: info.secretKey, baseUrl: info.url });
	return { instance, runtime, files };
}

/** Where n8n keeps the binary copies Read Files from Disk makes. */
export function binaryStore(dir: string): string {
	return join(dir, 'binary-data');
}

export async function realN8nRow(
	emulator: EmulatorProcess,
	dir: string,
	size: number,
	runs: number,
	log: (line: string) => void,
): Promise<RealN8nResult> {
	const setUp = await setUpN8n(emulator, dir);
	if ('skipped' in setUp) {
		log(`  skipped: ${setUp.skipped}`);
		return { skipped: setUp.skipped, table: skippedTable(title(), 'Read file → Multipart Upload', setUp.skipped) };
	}
	const { instance, files, runtime } = setUp;
	const input = join(files, 'large.bin');
	writeRandomFile(input, size);
	const paths = [UPLOAD_ID, CONTROL_ID].map((id) => {
		const path = join(dir, `${id}.json`);
		writeFileSync(path, JSON.stringify(workflow(id, input, id === UPLOAD_ID)));
		return path;
	});
	await importWorkflows(instance, paths);
	const measured: RealN8nRuns = { large: [], control: [], inProcess: [] };
	const rate = (ms: number) => `${fmt.seconds(ms)} (${fmt.rate(mibPerSecond(size, ms))})`;
	for (let round = 1; round <= runs; round++) {
		const tag = `  [${round}/${runs}]`;
		const c = await execute(instance, emulator, CONTROL_ID);
		measured.control.push(c);
		log(`${tag} control (read the file, no upload): peak RSS ${fmt.mib(c.peakRss)}`);
		settleDisk();
		const p = await inProcess(emulator, input, size);
		measured.inProcess.push(p);
		log(`${tag} in-process: upload ${rate(p.nodeExecutionMs)}`);
		settleDisk();
		const l = await execute(instance, emulator, UPLOAD_ID);
		measured.large.push(l);
		log(`${tag} real n8n: upload ${rate(l.uploadMs)}, peak RSS ${fmt.mib(l.peakRss)}`);
	}
	return realN8nResult(measured, size, runs, runtime);
}

function realN8nResult(measured: RealN8nRuns, size: number, runs: number, runtime: InstalledRuntime): RealN8nResult {
	const { large, control, inProcess: inProcessRuns } = measured;
	const peakRss = median(large.map((r) => r.peakRss));
	const controlPeakRss = median(control.map((r) => r.peakRss));
	const uploadMs = median(large.map((r) => r.uploadMs));
	const inProcessMs = median(inProcessRuns.map((r) => r.nodeExecutionMs));
	const vsInProcess = median(large.map((r, i) => inProcessRuns[i].nodeExecutionMs / r.uploadMs));
	const rows = [
		[
			`Read file → Multipart Upload, ${fmt.size(size)} (${large[0].partCount} parts)`,
			fmt.seconds(median(large.map((r) => r.wallMs))),
			fmt.seconds(uploadMs),
			fmt.rate(mibPerSecond(size, uploadMs)),
			fmt.ratio(vsInProcess),
			fmt.cpu(median(large.map((r) => r.emulatorCpuSeconds))),
			fmt.mib(peakRss),
			fmt.mib(peakRss - controlPeakRss),
		],
		[
			'same upload in-process (harness, same rounds)',
			'',
			fmt.seconds(inProcessMs),
			fmt.rate(mibPerSecond(size, inProcessMs)),
			'1.00×',
			fmt.cpu(median(inProcessRuns.map((r) => r.emulatorCpuSeconds))),
			'',
			'',
		],
		[
			'control: Read file → No Operation (no upload)',
			fmt.seconds(median(control.map((r) => r.wallMs))),
			...['', '', '', ''],
			fmt.mib(controlPeakRss),
			'',
		],
	];
	return {
		peakRss,
		controlPeakRss,
		vsInProcess,
		table: {
			title: title(runtime),
			note: `Node ${runtime.profile.nodeVersion.split('.')[0]}.x, filesystem binary mode, node defaults (${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel}). Upload time is the node's own execution time from the run data (in both rows); the wall time includes n8n's start and reading the file into its binary store. × in-process is the median of per-round ratios (in-process time ÷ real n8n time) over the same rounds. ${runsOf(runs).replace(/^./, (c) => c.toUpperCase())}.`,
			head: [
				'Workflow',
				'Wall time of `n8n execute`',
				'Upload (node execution time)',
				'Upload throughput',
				'× in-process',
				'Emulator CPU',
				'Peak RSS of n8n',
				'Peak − control peak',
			],
			rows,
		},
	};
}
