/**
 * List Contents with Return All over one folder of many files: time, requests and memory.
 * The folder is filled once by the minimal client (small single uploads), outside any measurement.
 */
import { runScenario, type EmulatorProcess, type MeasuredRun } from './children';
import { runClient } from './many-files';
import type { Rig } from './runner';
import { fmt, medianOf, runsOf } from './stats';
import { tabulate, type Table } from './table';

const LIST_FOLDER = 'list/';

async function seedFolder(emulator: EmulatorProcess, entries: number): Promise<number> {
	const started = Date.now();
	const width = String(entries).length;
	const files = Array.from({ length: entries }, (_, i) => {
		const key = `${LIST_FOLDER}file-${String(i).padStart(width, '0')}.txt`;
		return { path: '', name: 'f.txt', key, bytes: Buffer.from(key) };
	});
	await runClient(emulator.info, 'upload', files, 8);
	return Date.now() - started;
}

const LIST_CONFIGS: Array<{ label: string; pageSize?: number }> = [
	{ label: 'Return All, default page size (1000)' },
	{ label: 'Return All, Page Size 100', pageSize: 100 },
];

/** Fills the folder, then lists it with each configuration in rounds. */
export async function listTable({ emulator, o, log }: Rig): Promise<Table> {
	const { listEntries: entries, smallRuns: rounds } = o;
	log(`\nlist: filling a folder with ${entries} files`);
	log(`  filled in ${fmt.seconds(await seedFolder(emulator, entries))}`);
	const { info } = emulator;
	const credentials = { accessKey: info.accessKey, secretKey: info.secretKey, baseUrl: info.url };
	const results = new Map(LIST_CONFIGS.map((c) => [c, [] as Array<MeasuredRun & { requests: number }>]));
	for (let round = 1; round <= rounds; round++) {
		for (const config of LIST_CONFIGS) {
			await emulator.call('resetStats');
			const parameters = {
				resource: 'bucket',
				operation: 'listContents',
				bucketName: info.bucket.name,
				region: info.bucket.region,
				folder: LIST_FOLDER,
				returnAll: true,
				options: config.pageSize ? { pageSize: config.pageSize } : {},
			};
			const run = await runScenario({ parameters, credentials }, emulator);
			if (run.error) throw new Error(`List Contents failed: ${run.error}`);
			if (run.items !== entries) throw new Error(`List Contents returned ${run.items} items, expected ${entries}`);
			const requests = (await emulator.stats()).requests.list;
			results.get(config)!.push({ ...run, requests });
			log(`  [${round}/${rounds}] List Contents, ${config.label}: ${fmt.seconds(run.ms)}, ${requests} requests`);
		}
	}
	const rows = [...results].map(([config, runs]) => ({ config, runs, ms: medianOf(runs, 'ms') }));
	return {
		title: `List Contents, Return All over ${entries.toLocaleString('en-US')} entries`,
		note: `One folder holding ${entries.toLocaleString('en-US')} files; one output item per entry; ${runsOf(rounds)}.`,
		...tabulate(rows, [
			['Configuration', (r) => r.config.label],
			['Time', (r) => fmt.seconds(r.ms)],
			['Entries/s', (r) => (entries / (r.ms / 1000)).toFixed(0)],
			['Requests', (r) => String(medianOf(r.runs, 'requests'))],
			['Peak RSS', (r) => fmt.mib(medianOf(r.runs, 'peakRss'))],
			['RSS growth (max)', (r) => fmt.mib(Math.max(...r.runs.map((x) => x.peakRss - x.baselineRss)))],
			['Client CPU', (r) => fmt.cpu(medianOf(r.runs, 'cpuSeconds'))],
			['Emulator CPU', (r) => fmt.cpu(medianOf(r.runs, 'emulatorCpuSeconds'))],
		]),
	};
}
