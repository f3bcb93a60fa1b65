/**
 * Folder → Move against File → Move item by item, at the far profile: N files of 64 KiB moved
 * from one folder to another, once as one Folder → Move item, once as N File → Move items (what a
 * workflow did before: List Contents, then Move per item), both at node version 3 defaults, each
 * in a fresh process, the moved bytes compared after every run. Writes bench/folder-move-results.md,
 * which BENCHMARKS.md includes (report.ts).
 *
 * node -r ts-node/register/transpile-only bench/folder-move.ts [--count 200] [--runs 3]
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

import { FAR_DEFAULT } from './args';
import { EmulatorProcess, runScenario } from './children';
import { makeFiles, runClient, type SmallFile } from './many-files';
import { settleDisk } from './runner';
import { exitOnInterrupt, restartOnCurrentNode } from './runtime';
import { fmt, medianOf, runsOf } from './stats';
import { renderTable, tabulate, type Table } from './table';

const RESULTS = join(__dirname, 'folder-move-results.md');
const log = (line: string) => process.stderr.write(`${line}\n`);
const WAYS = ['folder', 'items'] as const;
type Way = (typeof WAYS)[number];
const LABEL = { folder: 'Folder → Move, one item', items: 'File → Move, one item per file' } as const;
type Run = { ms: number; requests: number; connections: number; rssGrowth: number; buffersHeld: number };

function job(way: Way, files: SmallFile[], to: string) {
	if (way === 'folder') {
		const folder = (value: string) => ({ __rl: true, mode: 'path', value });
		return {
			parameters: { resource: 'folder', operation: 'move', folder: folder('many/'), destinationFolder: folder(to) },
			jsonItems: [{}],
		};
	}
	return {
		parameters: { resource: 'file', operation: 'move', fileKey: '={{ $json.key }}', destinationKey: '={{ $json.to }}' },
		jsonItems: files.map((file) => ({ key: file.key, to: `${to}${file.name}` })),
	};
}

/** One run: the files stored (no profile), then moved at the far profile, then compared. */
async function moveOnce(emulator: EmulatorProcess, files: SmallFile[], way: Way, round: number): Promise<Run> {
	await emulator.setProfile();
	await runClient(emulator.info, 'upload', files, 16);
	settleDisk();
	// A Move waits out a source written moments before it reads it (api-choices.md): not what is measured.
	await new Promise((resolve) => setTimeout(resolve, 5000));
	const to = `moved-${way}-${round}/`;
	await emulator.setProfile(FAR_DEFAULT);
	await emulator.call('resetStats');
	const run = await runScenario({ ...job(way, files, to), typeVersion: 3 }, emulator).finally(() =>
		emulator.setProfile(),
	);
	if (run.error || run.failedItems) throw new Error(`folder move, ${way}: ${run.error ?? `${run.failedItems} failed`}`);
	const { connections } = await emulator.stats();
	if (run.items !== files.length) throw new Error(`folder move, ${way}: ${run.items} items for ${files.length} files`);
	for (const file of files) {
		const expected = createHash('sha256').update(file.bytes).digest('hex');
		if ((await emulator.sha256(`${to}${file.name}`)) !== expected) throw new Error(`${way}: ${file.name} differs`);
	}
	return {
		ms: run.nodeExecutionMs,
		requests: connections.requests,
		connections: connections.opened,
		rssGrowth: run.peakRss - run.baselineRss,
		buffersHeld: run.buffersHeld,
	};
}

function table(runs: Map<Way, Run[]>, count: number, rounds: number): Table {
	const rows = WAYS.map((way) => ({ way, runs: runs.get(way) ?? [] }));
	const folderMs = medianOf(runs.get('folder') ?? [], 'ms');
	return {
		title: `Folder → Move: ${count} files of 64 KiB against a far service`,
		note:
			`Emulator far profile: ${FAR_DEFAULT.latencyMs} ms before every answer, ${FAR_DEFAULT.connectionDelayMs} ms per new connection, ${FAR_DEFAULT.connectionRateMiBps} MiB/s per connection. ` +
			`Node version 3 defaults (Parallel Requests 32, Upload Memory 96 MiB), in a fresh process per run; time is the node's execution time from the run data. ` +
			`Each file is a checked copy then a delete of its source, either way; the moved bytes were compared after every run. Requests and connections are the emulator's counts; ${runsOf(rounds)}.`,
		...tabulate(rows, [
			['Workflow', (r) => LABEL[r.way]],
			['Time', (r) => fmt.seconds(medianOf(r.runs, 'ms'))],
			['Files/s', (r) => (count / (medianOf(r.runs, 'ms') / 1000)).toFixed(0)],
			['÷ Folder → Move', (r) => fmt.ratio(medianOf(r.runs, 'ms') / folderMs)],
			['Requests', (r) => String(medianOf(r.runs, 'requests'))],
			['Connections opened', (r) => String(medianOf(r.runs, 'connections'))],
			['RSS growth (max)', (r) => fmt.mib(Math.max(...r.runs.map((run) => run.rssGrowth)))],
			['Buffers held (max)', (r) => fmt.mib(Math.max(...r.runs.map((run) => run.buffersHeld)))],
		]),
	};
}

/** The kept section, for BENCHMARKS.md. */
export function folderMoveSection(): string[] {
	return existsSync(RESULTS) ? [readFileSync(RESULTS, 'utf8').trim(), ''] : [];
}

async function main() {
	const code = await restartOnCurrentNode(log);
	if (code !== undefined) process.exit(code);
	const flag = (name: string, fallback: number) => {
		const at = process.argv.indexOf(name);
		return at === -1 ? fallback : Number(process.argv[at + 1]);
	};
	const [count, rounds] = [flag('--count', 200), flag('--runs', 3)];
	const dir = mkdtempSync(join(tmpdir(), 'bench-folder-move-'));
	exitOnInterrupt(() => rmSync(dir, { recursive: true, force: true }));
	const emulator = await EmulatorProcess.start();
	try {
		const files = makeFiles(dir, count, 64 * 1024);
		const runs = new Map<Way, Run[]>();
		for (let round = 1; round <= rounds; round++) {
			for (const way of WAYS) {
				const run = await moveOnce(emulator, files, way, round);
				runs.set(way, [...(runs.get(way) ?? []), run]);
				log(`  [${round}/${rounds}] ${LABEL[way]}: ${fmt.seconds(run.ms)}, ${run.requests} requests`);
			}
		}
		const text = renderTable(table(runs, count, rounds));
		process.stdout.write(`${text}\n`);
		const load = loadavg()
			.map((value) => value.toFixed(1))
			.join(' / ');
		const from = `From \`node -r ts-node/register/transpile-only bench/folder-move.ts\` (${new Date().toISOString().slice(0, 10)}); load average (1/5/15 min) after: ${load}.`;
		writeFileSync(RESULTS, ['## Folder → Move', '', from, '', text, ''].join('\n'));
		log(`wrote ${RESULTS}`);
	} finally {
		await emulator.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

if (require.main === module) void main();
