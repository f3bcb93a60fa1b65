/**
 * `npm run bench`: upload throughput and memory of the File Storage node against the curl
 * ceiling and the sequential 5 MiB approach, Single Upload, List Contents and real n8n.
 * Prints one table per scenario and writes BENCHMARKS.md. Flags: bench/args.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem, type as osType } from 'node:os';
import { join, resolve } from 'node:path';

import { parseArgs, USAGE, type BenchOptions, type ScenarioName } from './args';
import { EmulatorProcess } from './children';
import { connectionsTable } from './connections';
import { curlVersion } from './curl';
import { writeRandomFile } from './data';
import { farTables, runFar, type FarInput } from './far';
import { listTable } from './list';
import { manyFilesTable, runManyFiles } from './many-files';
import { runManyReal } from './many-real';
import { realN8nRow } from './real-n8n';
import { exitOnInterrupt, olderNode, restartOnCurrentNode } from './runtime';
import { renderReport, type ReportInput } from './report';
import { verified, type InputFile, type Rig } from './runner';
import { runScale, writeScaleSection } from './scale';
import { singleConfigs, singleTable } from './single';
import { sourcesTable } from './sources';
import { fmt } from './stats';
import { renderTable, type Table } from './table';
import {
	latencyConfigs,
	latencyTable,
	measure,
	sweepConfigs,
	sweepTables,
	throughputConfigs,
	throughputTable,
} from './throughput';

const log = (line: string) => process.stderr.write(`${line}\n`);
const REPO = resolve(__dirname, '..');
const loadAverage = () =>
	loadavg()
		.map((v) => v.toFixed(2))
		.join(' / ');
/** What the report says about the machine: generic on purpose (no host names or paths). */
const machine = () =>
	`${cpus().length} vCPU, ${Math.round(totalmem() / 1024 ** 3)} GiB RAM, ${osType()}, Node ${process.versions.node.split('.')[0]}.x`;

/**
 * The node runs from a copy of the build taken now: others rebuilding dist/ in this work tree
 * while the bench runs (rm -rf dist && tsc) would otherwise pull it away mid-run.
 * BENCH_PACKAGE_DIR, when set, is used as it is.
 */
function snapshotPackage(dir: string): void {
	if (process.env.BENCH_PACKAGE_DIR) return;
	const copy = join(dir, 'package');
	mkdirSync(copy);
	cpSync(join(REPO, 'package.json'), join(copy, 'package.json'));
	cpSync(join(REPO, 'dist'), join(copy, 'dist'), { recursive: true });
	// n8n-workflow and the rest resolve from the project's own node_modules, as from the work tree.
	symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
	process.env.BENCH_PACKAGE_DIR = copy;
}

type Bench = Rig & {
	report: ReportInput;
	dir: string;
	print(table: Table): void;
};

/** A file of random bytes for `use`, deleted after it. */
async function withInput<T>(b: Bench, name: string, size: number, use: (file: InputFile) => Promise<T>): Promise<T> {
	const path = join(b.dir, name);
	const started = Date.now();
	const sha256 = writeRandomFile(path, size);
	log(`generated ${fmt.size(size)} of random bytes in ${fmt.seconds(Date.now() - started)}`);
	return await use({ path, name, size, sha256 }).finally(() => rmSync(path, { force: true }));
}

async function far(b: Bench, thresholdOnly: boolean): Promise<void> {
	const input: FarInput = (name, size, use) => withInput(b, name, size, use);
	b.report.far = await runFar(b, input, thresholdOnly);
	farTables(b.report.far).forEach(b.print);
}

async function many({ o, emulator, dir, report, print }: Bench, real: boolean): Promise<void> {
	const count = real ? o.manyRealCount : o.manyCount;
	log(
		`\nmany files${real ? ' through real n8n' : ''}: ${count} × ${o.manySize / 1024} KiB, Upload, Download and Delete at the far profile, ${o.runs} rounds`,
	);
	const folder = join(dir, real ? 'many-real' : 'many');
	const options = { dir: folder, count, size: o.manySize, profile: o.far, rounds: o.runs };
	if (real) print((report.manyReal = await runManyReal(emulator, options, log)).table);
	else print(manyFilesTable((report.many = await runManyFiles(emulator, options, log))));
}

/** Each scenario, in the order they run. */
const SCENARIO_RUNS: Record<ScenarioName, (b: Bench) => Promise<void>> = {
	throughput: (b) =>
		withInput(b, 'large.bin', b.o.size, async (file) => {
			const measured = await measure(b, 'upload of', throughputConfigs(b.o.size, olderNode()), file);
			b.report.throughput = measured.summaries;
			b.print(throughputTable(measured));
		}),
	sweep: (b) =>
		withInput(b, 'sweep.bin', b.o.sweepSize, async (file) => {
			// The smoke run keeps one point off the defaults on each axis.
			const configs = b.o.quick ? sweepConfigs([16], [1]) : sweepConfigs();
			sweepTables(await measure(b, 'sweeps at', configs, file)).forEach(b.print);
		}),
	latency: (b) =>
		withInput(b, 'latency.bin', b.o.sweepSize, async (file) => {
			await b.emulator.call('setLatency', { ms: b.o.latencyMs });
			try {
				const measured = await measure(b, `with ${b.o.latencyMs} ms per request,`, latencyConfigs(), file);
				b.print(latencyTable(measured, b.o.latencyMs));
			} finally {
				await b.emulator.call('setLatency', { ms: 0 });
			}
		}),
	far: (b) => far(b, false),
	// Part of `far`; by name alone, only the threshold part.
	'far-threshold': (b) => (b.o.only.has('far') ? Promise.resolve() : far(b, true)),
	many: (b) => many(b, false),
	'many-real': (b) => many(b, true),
	connections: (b) =>
		withInput(b, 'connections.bin', b.o.sweepSize, async (file) => b.print(await connectionsTable(b, file))),
	single: (b) =>
		withInput(b, 'single.bin', b.o.singleSize, async (file) => {
			b.print(singleTable(await measure(b, 'single upload of', singleConfigs(), file, b.o.smallRuns)));
		}),
	list: async (b) => b.print(await listTable(b)),
	sources: (b) => withInput(b, 'sources.bin', b.o.size, async (file) => b.print(await sourcesTable(b, file))),
	'real-n8n': async ({ o, emulator, dir, report, print }) => {
		log('\nreal n8n');
		report.realN8n = await realN8nRow(emulator, dir, o.size, o.runs, log);
		print(report.realN8n.table);
	},
	scale: async (b) => {
		const loadBefore = loadAverage();
		const scale = await runScale(b, join(b.dir, 'scale'));
		b.print(scale.table);
		if (!scale.skipped) writeScaleSection(scale, `${loadBefore}; after: ${loadAverage()}`, log);
	},
};

async function bench(options: BenchOptions, dir: string): Promise<ReportInput> {
	const started = Date.now();
	const report: ReportInput = {
		options,
		machine: machine(),
		loadBefore: loadAverage(),
		loadAfter: '',
		command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
		tables: [],
		durationMs: 0,
		verifiedUploads: 0,
	};
	const print = (table: Table) => {
		report.tables.push(table);
		process.stdout.write(`\n${renderTable(table)}\n\n`);
	};
	log(`machine: ${report.machine}; load average (1/5/15 min): ${report.loadBefore}`);
	if (['throughput', 'sweep', 'far'].some((s) => options.only.has(s as ScenarioName)) && !curlVersion()) {
		throw new Error('curl is not installed (apt-get install curl): it measures the ceiling');
	}
	const emulator = await EmulatorProcess.start();
	try {
		for (const [name, run] of Object.entries(SCENARIO_RUNS)) {
			if (options.only.has(name as ScenarioName)) await run({ o: options, emulator, log, report, dir, print });
		}
	} finally {
		await emulator.stop();
	}
	report.verifiedUploads = verified.uploads;
	report.loadAfter = loadAverage();
	report.durationMs = Date.now() - started;
	return report;
}

async function main(): Promise<void> {
	let options: BenchOptions | 'help';
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
		process.exit(2);
	}
	if (options === 'help') {
		process.stdout.write(USAGE);
		return;
	}
	if (options.profile) {
		mkdirSync(options.profile, { recursive: true });
		// The children read it: each process the bench starts writes a CPU profile there.
		process.env.BENCH_PROFILE_DIR = resolve(options.profile);
	}
	if (!options.onThisNode) {
		const exitCode = await restartOnCurrentNode(log);
		if (exitCode !== undefined) process.exit(exitCode);
	}
	process.env.BENCH_ETAGS = options.etags;
	// A smoke run never overwrites the committed report: it writes into a folder of its own.
	if (options.quick && options.out === undefined && !process.argv.includes('--no-write')) {
		options.out = join(mkdtempSync(join(tmpdir(), 'file-storage-bench-quick-')), 'BENCHMARKS.md');
	}
	const dir = mkdtempSync(join(tmpdir(), 'file-storage-bench-'));
	snapshotPackage(dir);
	const cleanUp = () => rmSync(dir, { recursive: true, force: true });
	exitOnInterrupt(cleanUp);
	try {
		const report = await bench(options, dir);
		log(`\nbench finished in ${fmt.seconds(report.durationMs)}; load average after: ${report.loadAfter}`);
		log(`bytes checked: ${report.verifiedUploads} uploads stored exactly the input (sha256)`);
		if (options.out) {
			writeFileSync(options.out, renderReport(report));
			log(`wrote ${options.out}`);
		}
		if (options.profile && existsSync(options.profile)) {
			log(`CPU profiles in ${options.profile}: open them in Chrome DevTools (Performance) or speedscope`);
		}
	} finally {
		cleanUp();
	}
}

main().catch((error: Error) => {
	process.stderr.write(`bench: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
