/**
 * `npm run bench`: upload throughput and memory of the File Storage node against the curl
 * ceiling and the sequential 5 MiB approach, Single Upload, List Contents and real n8n.
 * Prints one table per scenario and writes BENCHMARKS.md. Flags: bench/args.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { parseArgs, USAGE, type BenchOptions, type ScenarioName } from './args';
import { EmulatorProcess } from './children';
import { connectionConfigs, connectionsTable, runConnections } from './connections';
import { curlVersion } from './curl';
import { writeRandomFile } from './data';
import { farTables, runFar } from './far';
import { LIST_CONFIGS, listTable, runList, seedFolder } from './list';
import { manyFilesTable, runManyFiles } from './many-files';
import { runManyReal } from './many-real';
import { loadAverage, machineDescription } from './machine';
import { realN8nRow } from './real-n8n';
import { olderNode, restartOnCurrentNode } from './runtime';
import { renderReport, type ReportInput } from './report';
import { runRounds, verified, type InputFile } from './runner';
import { runScale, writeScaleSection } from './scale';
import { singleConfigs, singleTable } from './single';
import { sourcesTable } from './sources';
import { fmt } from './stats';
import { renderTable, type Table } from './table';
import {
	latencyConfigs,
	latencyTable,
	summarize,
	sweepConfigs,
	sweepTables,
	throughputConfigs,
	throughputTable,
} from './throughput';

const log = (line: string) => process.stderr.write(`${line}\n`);
const REPO = resolve(__dirname, '..');

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

function makeInput(dir: string, name: string, size: number): InputFile {
	const path = join(dir, name);
	const started = Date.now();
	const sha256 = writeRandomFile(path, size);
	log(`generated ${fmt.size(size)} of random bytes in ${fmt.seconds(Date.now() - started)}`);
	return { path, name, size, sha256 };
}

async function bench(options: BenchOptions, dir: string): Promise<ReportInput> {
	const started = Date.now();
	const report: ReportInput = {
		options,
		machine: machineDescription(),
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

	const emulator = await EmulatorProcess.start();
	try {
		if (['throughput', 'sweep', 'far'].some((s) => options.only.has(s as ScenarioName)) && !curlVersion()) {
			throw new Error('curl is not installed (apt-get install curl): it measures the ceiling');
		}
		if (options.only.has('throughput')) {
			const file = makeInput(dir, 'large.bin', options.size);
			const configs = throughputConfigs(options.size, olderNode());
			log(`\nupload of ${fmt.size(options.size)}: ${configs.length} configurations × ${options.runs} rounds`);
			const summaries = summarize(await runRounds(configs, file, emulator, options.runs, log), options.size);
			report.throughput = { configs, summaries };
			print(throughputTable(configs, summaries, options.size, options.runs));
			rmSync(file.path, { force: true });
		}
		if (options.only.has('sweep')) {
			const file = makeInput(dir, 'sweep.bin', options.sweepSize);
			// The smoke run keeps one point off the defaults on each axis.
			const configs = options.quick ? sweepConfigs([16], [1]) : sweepConfigs();
			log(`\nsweeps at ${fmt.size(options.sweepSize)}: ${configs.length} configurations × ${options.runs} rounds`);
			const summaries = summarize(await runRounds(configs, file, emulator, options.runs, log), options.sweepSize);
			report.sweep = { configs, summaries };
			sweepTables(configs, summaries, options.sweepSize, options.runs).forEach(print);
			rmSync(file.path, { force: true });
		}
		if (options.only.has('latency')) {
			const file = makeInput(dir, 'latency.bin', options.sweepSize);
			const configs = latencyConfigs();
			log(
				`\nwith ${options.latencyMs} ms per request, ${fmt.size(options.sweepSize)}: ${configs.length} configurations × ${options.runs} rounds`,
			);
			await emulator.call('setLatency', { ms: options.latencyMs });
			try {
				const summaries = summarize(await runRounds(configs, file, emulator, options.runs, log), options.sweepSize);
				print(latencyTable(configs, summaries, options.sweepSize, options.runs, options.latencyMs));
			} finally {
				await emulator.call('setLatency', { ms: 0 });
			}
			rmSync(file.path, { force: true });
		}
		if (options.only.has('far') || options.only.has('far-threshold')) {
			const far = await runFar(
				emulator,
				{
					profile: options.far,
					size: options.farSize,
					sweepSize: options.farSweepSize,
					runs: options.runs,
					quick: options.quick,
					input: (name, size) => makeInput(dir, name, size),
					done: (file) => rmSync(file.path, { force: true }),
					thresholdOnly: !options.only.has('far'),
				},
				log,
			);
			report.far = far;
			farTables(far).forEach(print);
		}
		if (options.only.has('many')) {
			log(
				`\nmany files: ${options.manyCount} × ${fmt.size(options.manySize)}, Upload, Download and Delete at the far profile, ${options.runs} rounds`,
			);
			const many = await runManyFiles(
				emulator,
				{
					dir: join(dir, 'many'),
					count: options.manyCount,
					size: options.manySize,
					profile: options.far,
					rounds: options.runs,
				},
				log,
			);
			report.many = many;
			print(manyFilesTable(many));
		}
		if (options.only.has('many-real')) {
			log(
				`\nmany files through real n8n: ${options.manyRealCount} × ${options.manySize / 1024} KiB, Upload, Download and Delete at the far profile, ${options.runs} rounds`,
			);
			const manyReal = await runManyReal(
				emulator,
				{
					dir: join(dir, 'many-real'),
					count: options.manyRealCount,
					size: options.manySize,
					profile: options.far,
					rounds: options.runs,
				},
				log,
			);
			report.manyReal = manyReal;
			print(manyReal.table);
		}
		if (options.only.has('connections')) {
			const file = makeInput(dir, 'connections.bin', options.sweepSize);
			const configs = connectionConfigs();
			// Without the rate cap: the cost of a new connection is what this scenario isolates.
			const far = { ...options.far, connectionRateMiBps: 0 };
			const { latencyMs, connectionDelayMs, connectionRateMiBps } = far;
			log(
				`\nfar service (${latencyMs} ms per answer, ${connectionDelayMs} ms per new connection, ${connectionRateMiBps || 'no'} MiB/s cap per connection), ` +
					`${fmt.size(options.sweepSize)}: ${configs.length} configurations × ${options.runs} rounds`,
			);
			const results = await runConnections(configs, file, emulator, far, options.runs, log);
			print(connectionsTable(results, options.sweepSize, options.runs, far));
			rmSync(file.path, { force: true });
		}
		if (options.only.has('single')) {
			const file = makeInput(dir, 'single.bin', options.singleSize);
			const configs = singleConfigs();
			log(
				`\nsingle upload of ${fmt.size(options.singleSize)}: ${configs.length} configurations × ${options.smallRuns} rounds`,
			);
			const runs = await runRounds(configs, file, emulator, options.smallRuns, log);
			report.single = summarize(runs, options.singleSize);
			print(singleTable(configs, runs, options.singleSize, options.smallRuns));
		}
		if (options.only.has('list')) {
			log(`\nlist: filling a folder with ${options.listEntries} files`);
			log(`  filled in ${fmt.seconds(await seedFolder(emulator, options.listEntries))}`);
			const results = await runList(emulator, options.listEntries, options.smallRuns, log);
			report.list = { configs: LIST_CONFIGS, results };
			print(listTable(results, options.listEntries, options.smallRuns));
		}
		if (options.only.has('sources')) {
			const file = makeInput(dir, 'sources.bin', options.size);
			print(await sourcesTable(file, emulator, options.runs, log));
			rmSync(file.path, { force: true });
		}
		if (options.only.has('real-n8n')) {
			log('\nreal n8n');
			const row = await realN8nRow(emulator, dir, options.size, options.runs, log);
			report.realN8n = row;
			print(row.table);
		}
		if (options.only.has('scale')) {
			log(`\nscale: ${fmt.size(options.size)} and ${fmt.size(options.scaleSize)} through real n8n`);
			const loadBefore = loadAverage();
			const scale = await runScale(emulator, join(dir, 'scale'), [options.size, options.scaleSize, options.size], log);
			print(scale.table);
			if (!scale.skipped) writeScaleSection(scale, `${loadBefore}; after: ${loadAverage()}`, log);
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
	process.once('SIGINT', () => {
		cleanUp();
		process.exit(130);
	});
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
