/**
 * `--only scale` (bench/README.md): whether the upload's cost stays linear in the file's size, and
 * n8n's RSS growth from the moment the emulator sees the upload start.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';

import type { EmulatorProcess } from './children';
import { writeRandomFile } from './data';
import { PhaseWatch, type PhaseResult } from './phase-watch';
import { binaryStore, execute, setUpN8n, workflow, type N8nSetUp } from './real-n8n';
import { importWorkflows } from '../scripts/real-n8n/instance';
import { bucketTarget, signedSend } from './signing';
import type { Rig } from './runner';
import { fmt, median, mibPerSecond, MIB, verdict, type Log } from './stats';
import { renderTable, tabulate, type Table } from './table';
import { AT_DEFAULTS, DEFAULTS, memoryBound } from './throughput';

/** The key workflow() stores under. */
const STORED_KEY = 'bench/real-n8n.bin';
/** The README's memory the upload holds, and the bench's RSS growth bound. */
const HELD = DEFAULTS.partSizeMiB * (DEFAULTS.parallel + 1) * MIB + MIB;
const BOUND = memoryBound(DEFAULTS.partSizeMiB, DEFAULTS.parallel);
const rateOf = (run: ScaleRun) => mibPerSecond(run.size, run.uploadMs);

type ScaleRun = Awaited<ReturnType<typeof scaleRun>>;

type ScaleResult = { table: Table; runs: ScaleRun[]; skipped?: string };

/**
 * Throughput of each GiB of parts within one upload, from when the emulator had seen the part
 * requests that open it and the next one: whether the pace holds over the file's length.
 */
function perGibRates(watch: PhaseWatch): number[] {
	const perGib = 1024 / DEFAULTS.partSizeMiB;
	const base = watch.base?.requests.uploadPart ?? 0;
	// When the emulator had seen the first part request of each GiB (the counts only grow).
	const opened: number[] = [];
	for (const { at, stats } of watch.samples) {
		while (stats.requests.uploadPart - base >= opened.length * perGib + 1) opened.push(at);
	}
	return opened.slice(1).map((at, i) => 1024 / ((at - opened[i]) / 1000));
}

/** One upload of `size` through real n8n, its input, n8n's copy and the stored object deleted after it. */
async function scaleRun(
	emulator: EmulatorProcess,
	{ instance, files }: N8nSetUp,
	dir: string,
	index: number,
	size: number,
	log: Log,
) {
	const id = `benchScaleRun${String(index).padStart(2, '0')}`;
	const input = join(files, `${id}.bin`);
	try {
		let started = Date.now();
		const sha256 = writeRandomFile(input, size);
		log(`  generated ${fmt.size(size)} in ${fmt.seconds(Date.now() - started)}`);
		const definition = join(dir, `${id}.json`);
		writeFileSync(definition, JSON.stringify(workflow(id, input, true)));
		await importWorkflows(instance, [definition]);
		// n8n's RSS from the emulator seeing the upload start to its Complete: n8n's start-up and Read file's copy stay out.
		const watch = new PhaseWatch(emulator, [{ name: 'upload', first: 'start', last: 'complete' }], 1);
		await watch.arm();
		let phase: PhaseResult | undefined;
		started = Date.now();
		const execution = await execute(instance, emulator, id, (pid) => watch.start(pid)).finally(async () => {
			phase = (await watch.stop()).get('upload');
		});
		const { uploadMs, partCount } = execution;
		const { rssBefore, rssGrowth } = phase!;
		log(
			`  ${fmt.size(size)}: upload ${fmt.seconds(uploadMs)} (${fmt.rate(mibPerSecond(size, uploadMs))}), ` +
				`RSS ${fmt.mib(rssBefore)} before the upload, +${fmt.mib(rssGrowth)} during it; wall ${fmt.seconds(Date.now() - started)}`,
		);
		const stored = await emulator.sha256(STORED_KEY);
		if (stored !== sha256) throw new Error(`scale ${fmt.size(size)}: the stored object differs from the input file`);
		return { size, uploadMs, rssBefore, rssGrowth, partCount, gibRates: perGibRates(watch) };
	} finally {
		rmSync(input, { force: true });
		rmSync(binaryStore(dir), { recursive: true, force: true });
		const requestTarget = bucketTarget(emulator.info, '/api/v1/files/delete', [['key', STORED_KEY]]);
		await signedSend(emulator.info, new Agent(), 'DELETE', requestTarget).catch(() => undefined);
	}
}

/** --size, --scale-size, then --size again, in `dir`. */
export async function runScale({ emulator, o, log }: Rig, dir: string): Promise<ScaleResult> {
	log(`\nscale: ${fmt.size(o.size)} and ${fmt.size(o.scaleSize)} through real n8n`);
	const sizes = [o.size, o.scaleSize, o.size];
	const title = `Scale: ${sizes.map((s) => fmt.size(s)).join(' and ')} through real n8n`;
	const needed = 3 * Math.max(...sizes) + 2 * 1024 ** 3;
	const skip = (reason: string): ScaleResult => {
		log(`  skipped: ${reason}`);
		const table = { title, head: ['Scale', 'Result'], rows: [['', `skipped: ${reason}`]] };
		return { skipped: reason, runs: [], table };
	};
	mkdirSync(dir, { recursive: true });
	const { bavail, bsize } = statfsSync(dir);
	if (bavail * bsize < needed)
		return skip(`needs ${fmt.size(needed)} free on the disk of ${dir}, has ${fmt.mib(bavail * bsize)}`);
	const setUp = await setUpN8n(emulator, dir);
	if ('skipped' in setUp) return skip(setUp.skipped);
	const { runtime } = setUp;

	const runs: ScaleRun[] = [];
	for (const [index, size] of sizes.entries()) runs.push(await scaleRun(emulator, setUp, dir, index, size, log));

	const reference = smallRate(runs);
	const small = fmt.size(sizes[0]);
	return {
		runs,
		table: {
			title,
			note:
				`${runtime.profile.n8nVersion} on Node ${runtime.profile.nodeVersion.split('.')[0]}.x, filesystem binary mode, node defaults (${AT_DEFAULTS}), ` +
				`one invocation, ${small} before and after the larger file. Upload time is the node execution time from the run data. RSS growth is the n8n process's peak RSS ` +
				'during the upload (kernel peak, reset when the emulator saw the upload start) minus its RSS at that moment. ' +
				`× ${small} is against the median of the ${small} runs. Pace: MiB/s of each whole GiB of parts within the upload (first, slowest, fastest, last), from when the emulator saw its part requests. ` +
				`Bounds: the README's memory the upload holds, ${fmt.mib(HELD)}, and the bench's RSS growth bound, ${fmt.mib(BOUND)}. ` +
				"The stored object was checked by sha256 against the input; input, n8n's binary copy and the stored object were deleted after each run.",
			...tabulate(runs, [
				['File', (r) => fmt.size(r.size)],
				['Parts', (r) => String(r.partCount)],
				['Upload time', (r) => fmt.seconds(r.uploadMs)],
				['Throughput', (r) => fmt.rate(rateOf(r))],
				[`× ${small}`, (r) => fmt.ratio(rateOf(r) / reference)],
				['Pace per GiB', (r) => pace(r.gibRates)],
				['RSS before upload', (r) => fmt.mib(r.rssBefore)],
				['RSS growth during upload', (r) => fmt.mib(r.rssGrowth)],
				['Within bound', (r) => withinBound(r.rssGrowth)],
				// A run whose stored object differs from its input throws.
				['sha256', () => 'same'],
			]),
		},
	};
}

function withinBound(growth: number): string {
	if (growth <= HELD) return `${fmt.mib(HELD)}: yes`;
	return growth <= BOUND ? `${fmt.mib(BOUND)}: yes` : '**no**';
}

/** Median throughput of the runs of the smallest size: what the larger file is held against. */
function smallRate(runs: ScaleRun[]): number {
	const smallest = Math.min(...runs.map((r) => r.size));
	return median(runs.filter((r) => r.size === smallest).map(rateOf));
}

/** First, slowest, fastest and last. */
function pace(rates: number[]): string {
	if (rates.length < 2) return '';
	return [rates[0], Math.min(...rates), Math.max(...rates), rates[rates.length - 1]]
		.map((v) => v.toFixed(0))
		.join(', ');
}

/**
 * The scale scenario is too long for every bench run, so its last result is kept in a file of
 * its own and BENCHMARKS.md includes it whichever scenarios a later run measured.
 */
const SCALE_FILE = join(__dirname, 'scale-results.md');

export function writeScaleSection(result: ScaleResult, load: string, log: Log): void {
	const largest = Math.max(...result.runs.map((r) => r.size));
	const large = result.runs.find((r) => r.size === largest);
	const small = result.runs.find((r) => r.size !== largest);
	const from = `From \`npm run bench -- --only scale\` (${new Date().toISOString().slice(0, 10)}); load average (1/5/15 min) before: ${load}.`;
	const lines = ['## Scale', '', from, '', renderTable(result.table), ''];
	if (small && large) {
		const ratio = rateOf(large) / smallRate(result.runs);
		lines.push(
			`- Throughput at ${fmt.size(large.size)} against ${fmt.size(small.size)} (median of its runs): ${fmt.ratio(ratio)}; not slower by more than 10 % (cost linear in size): ${verdict(ratio >= 0.9)}; ` +
				`within ±10 %: ${verdict(Math.abs(1 - ratio) <= 0.1)}` +
				(large.gibRates.length > 1
					? ` (the pace of single GiBs within the ${fmt.size(large.size)} upload ranged ${Math.min(...large.gibRates).toFixed(0)}–${Math.max(...large.gibRates).toFixed(0)} MiB/s at this load).`
					: '.'),
			`- n8n's RSS growth during the ${fmt.size(large.size)} upload ≤ ${fmt.mib(BOUND)} (part size × (parallelism + 1) + 64 MiB): ${fmt.mib(large.rssGrowth)} — ${verdict(large.rssGrowth <= BOUND)} ` +
				`(README: the upload holds at most ${fmt.mib(HELD)}; at ${fmt.size(small.size)} the growth was at most ${fmt.mib(Math.max(...result.runs.filter((r) => r.size !== largest).map((r) => r.rssGrowth)))}).`,
			'',
		);
	}
	writeFileSync(SCALE_FILE, lines.join('\n'));
	log(`wrote ${SCALE_FILE}`);
}

/** The kept scale section, for BENCHMARKS.md. */
export function scaleSection(): string[] {
	return existsSync(SCALE_FILE) ? [readFileSync(SCALE_FILE, 'utf8').trim(), ''] : [];
}
