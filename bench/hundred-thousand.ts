/**
 * `npm run bench:100k` (after `npm run build`): one File Storage Trigger poll and one Folder → Delete
 * over a folder of 100,000 files in the emulator: time, list requests, and memory of a fresh process
 * per measurement (peak RSS over the process's RSS before the run, peak JS heap). Writes its
 * section to bench/hundred-thousand-results.md, which BENCHMARKS.md includes. `--files <n>` to try
 * fewer.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { EmulatorProcess, runScenario, type EmulatorInfo } from './children';
import { runClient } from './many-files';
import { procStatus, resetPeak, RssSampler } from './memory';
import { fmt } from './stats';
import { renderTable } from './table';

const HUNDRED_K_FILE = join(__dirname, 'hundred-thousand-results.md');
const HEADING = '## A trigger poll and Folder → Delete over 100,000 files';
const METHOD = [
	'- The emulator (`test/emulator`) in its own process, the folder filled by the minimal client before anything is measured.',
	'- Each measurement runs in a fresh process through n8n-core (the trigger through `PollContext`, Folder → Delete through',
	"  the engine as a workflow runs it). RSS growth = the kernel's peak (VmHWM, reset before the run) over the RSS before it;",
	'  the heap is sampled every 20 ms. The output items (one per file for Folder → Delete) are part of what is held.',
];

/** The kept section, for BENCHMARKS.md. */
export function hundredThousandSection(): string[] {
	return existsSync(HUNDRED_K_FILE) ? [readFileSync(HUNDRED_K_FILE, 'utf8').trim(), ''] : [];
}

/** Puts the section into BENCHMARKS.md now, in place of its last version (before the findings otherwise). */
function spliceIntoReport(section: string): void {
	const file = join(__dirname, '..', 'BENCHMARKS.md');
	const report = readFileSync(file, 'utf8');
	const at = report.indexOf(HEADING);
	const end = at < 0 ? -1 : report.indexOf('\n## ', at + HEADING.length);
	const before = at >= 0 ? at : report.indexOf('## Where the time and memory go');
	const after = at >= 0 ? (end < 0 ? report.length : end + 1) : before;
	writeFileSync(file, `${report.slice(0, before)}${section}\n${report.slice(after)}`);
}
const FOLDER = 'watch/';
const log = (line: string) => process.stderr.write(`${line}\n`);

interface PollFigures {
	ms: number;
	rssGrowth: number;
	heapGrowth: number;
	stateBytes: number;
	emitted: number;
}

/** In the child: polls the folder `count` times, each measured from the RSS before it. */
async function pollChild(info: EmulatorInfo, count: number): Promise<PollFigures[]> {
	const { runPoll } = await import('../test/harness');
	const credentials = { fileStorageApi: { accessKey: info.accessKey, secretKey: info.secretKey, baseUrl: info.url } };
	const parameters = { bucketName: info.bucket.name, region: info.bucket.region, folder: FOLDER };
	let staticData = {};
	// Loads n8n-core and the node before anything is measured.
	await runPoll({ credentials, parameters: { ...parameters, folder: 'nothing-here/' } });
	const figures: PollFigures[] = [];
	for (let poll = 0; poll < count; poll++) {
		global.gc?.();
		const before = procStatus().rss;
		const heapBefore = process.memoryUsage().heapUsed;
		resetPeak();
		let peakHeap = heapBefore;
		const heap = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
		const sampler = new RssSampler();
		sampler.start();
		const started = Date.now();
		const result = await runPoll({ credentials, parameters, staticData });
		const ms = Date.now() - started;
		clearInterval(heap);
		if (result.error) throw result.error;
		staticData = result.staticData;
		const stateBytes = JSON.stringify(staticData).length;
		figures.push({
			ms,
			rssGrowth: sampler.stop() - before,
			heapGrowth: peakHeap - heapBefore,
			stateBytes,
			emitted: result.items.length,
		});
	}
	return figures;
}

async function measurePolls(emulator: EmulatorProcess): Promise<PollFigures[]> {
	const child = fork(__filename, ['--poll-child'], {
		execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'],
		env: { ...process.env, TS_NODE_PROJECT: join(__dirname, 'tsconfig.json') },
	});
	const answer = once(child, 'message');
	child.send({ info: emulator.info, count: 2 });
	const [message] = (await answer) as [{ figures?: PollFigures[]; failed?: string }];
	if (!message.figures) throw new Error(`the poll failed: ${message.failed}`);
	return message.figures;
}

async function main(): Promise<void> {
	const at = process.argv.indexOf('--files');
	const files = at > 0 ? Number(process.argv[at + 1]) : 100_000;
	const load = () =>
		loadavg()
			.map((v) => v.toFixed(2))
			.join(' / ');
	const loadBefore = load();
	const emulator = await EmulatorProcess.start();
	try {
		log(`filling ${FOLDER} with ${files} files`);
		const width = String(files).length;
		const seed = Array.from({ length: files }, (_, i) => {
			const key = `${FOLDER}file-${String(i).padStart(width, '0')}.txt`;
			return { path: '', name: 'f.txt', key, bytes: Buffer.from(key) };
		});
		await runClient(emulator.info, 'upload', seed, 8);
		await emulator.call('resetStats');
		const polls = await measurePolls(emulator);
		// Each of the two polls makes the same requests; one more is the warm-up poll of an empty folder.
		const pollRequests = (await emulator.stats()).requests.list;
		log(`polls: ${JSON.stringify(polls)}, ${pollRequests} list requests`);
		await emulator.call('resetStats');
		const folder = { __rl: true, mode: 'path', value: FOLDER };
		const run = await runScenario({ parameters: { resource: 'folder', operation: 'delete', folder } }, emulator);
		if (run.error || run.items !== files) throw new Error(`Folder → Delete: ${run.error ?? `${run.items} items`}`);
		const stats = await emulator.stats();
		log(`delete: ${fmt.seconds(run.ms)}, peak RSS ${fmt.mib(run.peakRss)} over ${fmt.mib(run.baselineRss)}`);
		const n = files.toLocaleString('en-US');
		const table = {
			title: `${n} files in one folder: a trigger poll and Folder → Delete`,
			note: `From \`npm run bench:100k\` (${new Date().toISOString().slice(0, 10)}); load average (1/5/15 min) before: ${loadBefore}, after: ${load()}.`,
			head: ['run', 'time', 'list requests', 'RSS growth (peak)', 'JS heap growth (peak)', 'output'],
			rows: [
				...polls.map((poll, i) => [
					i === 0 ? 'Trigger: activation poll (records the baseline)' : 'Trigger: next poll (nothing changed)',
					fmt.seconds(poll.ms),
					String((pollRequests - 1) / 2),
					fmt.mib(poll.rssGrowth),
					fmt.mib(poll.heapGrowth),
					`${poll.emitted} items; static data ${(poll.stateBytes / 1e6).toFixed(2)} MB`,
				]),
				[
					'Folder → Delete (Include Subfolders on)',
					fmt.seconds(run.ms),
					String(stats.requests.list),
					fmt.mib(run.peakRss - run.baselineRss),
					'–',
					`${run.items} items; ${stats.requests.delete} delete requests; kept after the run ${fmt.mib(run.retained)}`,
				],
			],
		};
		const section = [HEADING, '', ...METHOD, '', renderTable(table), ''].join('\n');
		writeFileSync(HUNDRED_K_FILE, section);
		spliceIntoReport(section);
		log(`wrote ${HUNDRED_K_FILE} and BENCHMARKS.md`);
	} finally {
		await emulator.stop();
	}
}

if (require.main !== module) {
	// Imported by the report for its section: nothing runs.
} else if (process.argv.includes('--poll-child')) {
	process.once('message', (job: { info: EmulatorInfo; count: number }) => {
		pollChild(job.info, job.count).then(
			(figures) => process.send!({ figures }, () => process.exit(0)),
			(error: Error) => process.send!({ failed: error.message }, () => process.exit(1)),
		);
	});
} else {
	main().catch((error: Error) => {
		log(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
