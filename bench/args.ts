/** Command-line flags of `npm run bench -- ...`. */
import { parseArgs as parseFlags } from 'node:util';

export const SCENARIOS = [
	'throughput',
	'sweep',
	'latency',
	'far',
	'many',
	'many-real',
	'connections',
	'single',
	'list',
	'real-n8n',
] as const;
/**
 * Asked for by name only (`--only scale`, `--only sources`): too long and too much disk for every
 * run. `far-threshold` is part of `far`; by name it runs alone.
 */
export const EXTRA_SCENARIOS = ['scale', 'sources', 'far-threshold'] as const;
export type ScenarioName = (typeof SCENARIOS)[number] | (typeof EXTRA_SCENARIOS)[number];

/** What the issue asks the bench to assume of a far service. */
export const FAR_DEFAULT = { latencyMs: 40, connectionDelayMs: 80, connectionRateMiBps: 16 };
export type FarProfile = typeof FAR_DEFAULT;

export const USAGE = `Usage: npm run bench -- [flags]

  --size <n>[GiB|MiB|MB]   large file: ceiling, multipart, switch, real n8n (default 1GiB)
  --sweep-size <n>[..]     file of the part-size and parallelism sweeps (default 256MiB, at most --size)
  --runs <n>               runs per large-file configuration; tables show medians (default 3)
  --small-runs <n>         runs of the single-upload and list scenarios (default: runs + 2)
  --single-size <n>[..]    file of the Single Upload scenario (default 50MB)
  --list-entries <n>       entries listed by List Contents, Return All (default 10000)
  --latency-ms <n>         delay per request in the latency scenario (default 20)
  --far <ms>,<ms>,<MiB/s>  far-service profile: latency per answer, delay per new connection, rate
                           cap per connection (0: no cap) (default ${FAR_DEFAULT.latencyMs},${FAR_DEFAULT.connectionDelayMs},${FAR_DEFAULT.connectionRateMiBps});
                           the connections scenario uses it without the rate cap
  --far-size <n>[..]       file of the far scenario's main table (default: --size)
  --far-sweep-size <n>[..] file per point of the far sweep (default 256MiB, at most --far-size)
  --many-count <n>         files of the many-files scenario (default 200; --quick 24)
  --many-size <n>[..]      size of each of them (default 64KiB)
  --many-real-count <n>    files of the many-real scenario, through real n8n (default 1000; --quick 24)
  --quick                  smoke run of every scenario at small sizes, one run each (under 3 min);
                           writes the report into a temp folder unless --out is given
  --only <a,b>             scenarios: ${SCENARIOS.join(', ')} (default all);
                           also scale: --scale-size and --size through real n8n (needs about
                           3 × --scale-size of free disk while it runs; not part of the default);
                           also sources: Binary Field and URL sources side by side
                           (not part of the default); also far-threshold: only the far
                           scenario's Upload threshold part (far includes it)
  --scale-size <n>[..]     large file of the scale scenario (default 10GiB)
  --out <file>             report file (default BENCHMARKS.md; --no-write prints only)
  --no-write               do not write the report
  --etags <random|md5>     part ETags of the emulator (default random: no hashing on this machine)
  --profile <dir>          write a V8 CPU profile of every child process into <dir>
  --on-this-node           measure on this Node.js; by default a bench started on Node.js < 24
                           runs on the Node.js 24 of the real-n8n runtime (what n8n 2.x needs)
                           and adds a row for the node on the Node.js it was started with
  --help
`;

const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1 << 20, gib: 1 << 30, kb: 1e3, mb: 1e6, gb: 1e9 };

export function parseSize(text: string): number {
	const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
	const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
	if (!match || unit === undefined) throw new Error(`not a size: "${text}" (e.g. 1GiB, 256MiB, 50MB)`);
	return Math.round(Number(match[1]) * unit);
}

function positiveInt(text: string, flag: string): number {
	if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`--${flag} needs a whole number >= 1, got "${text}"`);
	return Number(text);
}

function farProfile(text: string): FarProfile {
	const parts = text.split(',').map((v) => v.trim());
	if (parts.length !== 3 || parts.some((v) => !/^\d+(\.\d+)?$/.test(v))) {
		throw new Error(`--far needs <latency ms>,<connection ms>,<MiB/s>, e.g. 40,80,16; got "${text}"`);
	}
	const [latencyMs, connectionDelayMs, connectionRateMiBps] = parts.map(Number);
	return { latencyMs, connectionDelayMs, connectionRateMiBps };
}

function scenarios(text: string): Set<ScenarioName> {
	const known: readonly string[] = [...SCENARIOS, ...EXTRA_SCENARIOS];
	const names = text
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const unknown = names.find((name) => !known.includes(name));
	if (unknown) throw new Error(`unknown scenario "${unknown}"; known: ${known.join(', ')}`);
	return new Set(names as ScenarioName[]);
}

function etags(mode: string): BenchOptions['etags'] {
	if (mode !== 'random' && mode !== 'md5') throw new Error(`--etags needs random or md5, got "${mode}"`);
	return mode;
}

/** The defaults; USAGE says what each option is. 0: derived from another option after parsing. */
function defaults() {
	return {
		size: 1024 ** 3,
		sweepSize: 0,
		runs: 3,
		smallRuns: 0,
		singleSize: 50e6,
		listEntries: 10_000,
		latencyMs: 20,
		scaleSize: 10 * 1024 ** 3,
		only: new Set<ScenarioName>(SCENARIOS),
		out: 'BENCHMARKS.md' as string | undefined,
		profile: undefined as string | undefined,
		etags: 'random' as 'random' | 'md5',
		onThisNode: false,
		far: { ...FAR_DEFAULT },
		farSize: 0,
		farSweepSize: 0,
		quick: false,
		manyCount: 200,
		manySize: 64 * 1024,
		manyRealCount: 1000,
	};
}
export type BenchOptions = ReturnType<typeof defaults>;

/** How a flag's text becomes its option's value, by the placeholder USAGE shows after the flag. */
const PARSERS: Record<string, (text: string, flag: string) => unknown> = {
	'<n>': positiveInt,
	'<n>[..]': parseSize,
	'<n>[GiB|MiB|MB]': parseSize,
	'<ms>,<ms>,<MiB/s>': farProfile,
	'<a,b>': scenarios,
	'<file>': String,
	'<dir>': String,
	'<random|md5>': etags,
};

/** The flags are those USAGE lists: `--many-real-count <n>` sets manyRealCount; one without a placeholder is a switch. */
const FLAGS = [...USAGE.matchAll(/^ {2}--([\w-]+)(?: (<\S+))?/gm)].map(([, flag, placeholder]) => ({
	flag,
	key: flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
	parse: placeholder && PARSERS[placeholder],
}));

/** Sizes of the smoke run: every scenario, in well under the 3 minutes the test allows. */
const QUICK: Partial<BenchOptions> = {
	size: 48 * 1024 ** 2,
	sweepSize: 16 * 1024 ** 2,
	runs: 1,
	smallRuns: 1,
	singleSize: 8 * 1024 ** 2,
	listEntries: 1000,
	farSize: 24 * 1024 ** 2,
	farSweepSize: 16 * 1024 ** 2,
	manyCount: 24,
	manyRealCount: 24,
	quick: true,
	out: undefined,
};

export function parseArgs(argv: string[]): BenchOptions | 'help' {
	const { values } = parseFlags({
		args: argv,
		options: {
			...Object.fromEntries(FLAGS.map(({ flag, parse }) => [flag, { type: parse ? 'string' : 'boolean' } as const])),
			help: { type: 'boolean', short: 'h' },
		},
	}) as { values: Record<string, string | boolean | undefined> };
	if (values.help) return 'help';
	const options: BenchOptions = {
		...defaults(),
		onThisNode: values['on-this-node'] === true,
		// Flags given with --quick still apply on top of it.
		...(values.quick ? QUICK : {}),
	};
	for (const { flag, key, parse } of FLAGS) {
		const text = values[flag];
		if (parse && typeof text === 'string') Object.assign(options, { [key]: parse(text, flag) });
	}
	if (values['no-write']) options.out = undefined;
	if (options.size < 5 * 1024 ** 2) throw new Error('--size must be at least 5MiB (one multipart part)');
	options.sweepSize ||= Math.min(options.size, 256 * 1024 ** 2);
	options.farSize ||= options.size;
	if (options.farSize < 5 * 1024 ** 2) throw new Error('--far-size must be at least 5MiB (one multipart part)');
	options.farSweepSize ||= Math.min(options.farSize, 256 * 1024 ** 2);
	// Small scenarios are cheap: more runs steady their medians, unless a quick single run was asked for.
	options.smallRuns ||= options.runs === 1 ? 1 : options.runs + 2;
	return options;
}
