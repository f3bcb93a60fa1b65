/** Command-line flags of `npm run bench -- ...`. */

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

export interface BenchOptions {
	/** Bytes of the large file (ceiling, multipart, automatic switch, real n8n). */
	size: number;
	/** Bytes per sweep run. */
	sweepSize: number;
	/** Runs of each large-file configuration. */
	runs: number;
	/** Runs of the small, quick scenarios (single upload, list). */
	smallRuns: number;
	singleSize: number;
	listEntries: number;
	/** Delay the emulator adds before every answer in the latency scenario. */
	latencyMs: number;
	/** The large file of the scale scenario (real n8n, next to a run of --size). */
	scaleSize: number;
	only: Set<ScenarioName>;
	/** Where the report goes; undefined: print only. */
	out: string | undefined;
	/** Folder for V8 CPU profiles of every child process. */
	profile: string | undefined;
	/** How the emulator makes part ETags. */
	etags: 'random' | 'md5';
	/** Measure on the Node.js the bench was started with, even if n8n 2.x cannot run there. */
	onThisNode: boolean;
	/** The far-service profile of the emulator in the `far` scenario. */
	far: FarProfile;
	/** Bytes of the far scenario's main table (defaults, sequential); 0: --size. */
	farSize: number;
	/** Bytes per point of the far sweep. */
	farSweepSize: number;
	/** A smoke run: small sizes, one run, a smaller far sweep, the report in a temp folder. */
	quick: boolean;
	/** Files of the many-files scenario, and the size of each. */
	manyCount: number;
	manySize: number;
	/** Files of the many-real scenario (real n8n), each of --many-size. */
	manyRealCount: number;
}

export interface FarProfile {
	latencyMs: number;
	connectionDelayMs: number;
	connectionRateMiBps: number;
}

/** What the issue asks the bench to assume of a far service. */
export const FAR_DEFAULT: FarProfile = { latencyMs: 40, connectionDelayMs: 80, connectionRateMiBps: 16 };

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

const UNITS: Record<string, number> = {
	'': 1,
	b: 1,
	kib: 1024,
	mib: 1024 ** 2,
	gib: 1024 ** 3,
	kb: 1e3,
	mb: 1e6,
	gb: 1e9,
};

export function parseSize(text: string): number {
	const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
	const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
	if (!match || unit === undefined) throw new Error(`not a size: "${text}" (e.g. 1GiB, 256MiB, 50MB)`);
	return Math.round(Number(match[1]) * unit);
}

function farProfile(text: string): FarProfile {
	const parts = text.split(',').map((v) => v.trim());
	if (parts.length !== 3 || parts.some((v) => !/^\d+(\.\d+)?$/.test(v))) {
		throw new Error(`--far needs <latency ms>,<connection ms>,<MiB/s>, e.g. 40,80,16; got "${text}"`);
	}
	const [latencyMs, connectionDelayMs, connectionRateMiBps] = parts.map(Number);
	return { latencyMs, connectionDelayMs, connectionRateMiBps };
}

/** Sizes of the smoke run: every scenario, in well under the 3 minutes the test allows. */
function quickPreset(options: BenchOptions): void {
	Object.assign(options, {
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
	});
}

function positiveInt(flag: string, text: string): number {
	if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`${flag} needs a whole number >= 1, got "${text}"`);
	return Number(text);
}

export function parseArgs(argv: string[]): BenchOptions | 'help' {
	const options: BenchOptions = {
		size: 1024 ** 3,
		sweepSize: 0,
		runs: 3,
		smallRuns: 0,
		singleSize: 50e6,
		listEntries: 10_000,
		latencyMs: 20,
		scaleSize: 10 * 1024 ** 3,
		only: new Set(SCENARIOS),
		out: 'BENCHMARKS.md',
		profile: undefined,
		etags: 'random',
		onThisNode: false,
		far: { ...FAR_DEFAULT },
		farSize: 0,
		farSweepSize: 0,
		quick: false,
		manyCount: 200,
		manySize: 64 * 1024,
		manyRealCount: 1000,
	};
	// Flags after --quick still apply on top of it, wherever it stands.
	if (argv.includes('--quick')) quickPreset(options);
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = () => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		switch (flag) {
			case '--help':
			case '-h':
				return 'help';
			case '--size':
				options.size = parseSize(value());
				break;
			case '--scale-size':
				options.scaleSize = parseSize(value());
				break;
			case '--sweep-size':
				options.sweepSize = parseSize(value());
				break;
			case '--runs':
				options.runs = positiveInt(flag, value());
				break;
			case '--small-runs':
				options.smallRuns = positiveInt(flag, value());
				break;
			case '--single-size':
				options.singleSize = parseSize(value());
				break;
			case '--list-entries':
				options.listEntries = positiveInt(flag, value());
				break;
			case '--latency-ms':
				options.latencyMs = positiveInt(flag, value());
				break;
			case '--only': {
				const names = value()
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean);
				const known: readonly string[] = [...SCENARIOS, ...EXTRA_SCENARIOS];
				for (const name of names) {
					if (!known.includes(name)) throw new Error(`unknown scenario "${name}"; known: ${known.join(', ')}`);
				}
				options.only = new Set(names as ScenarioName[]);
				break;
			}
			case '--out':
				options.out = value();
				break;
			case '--no-write':
				options.out = undefined;
				break;
			case '--etags': {
				const mode = value();
				if (mode !== 'random' && mode !== 'md5') throw new Error(`--etags needs random or md5, got "${mode}"`);
				options.etags = mode;
				break;
			}
			case '--quick':
				break;
			case '--far':
				options.far = farProfile(value());
				break;
			case '--many-count':
				options.manyCount = positiveInt(flag, value());
				break;
			case '--many-real-count':
				options.manyRealCount = positiveInt(flag, value());
				break;
			case '--many-size':
				options.manySize = parseSize(value());
				break;
			case '--far-size':
				options.farSize = parseSize(value());
				break;
			case '--far-sweep-size':
				options.farSweepSize = parseSize(value());
				break;
			case '--on-this-node':
				options.onThisNode = true;
				break;
			case '--profile':
				options.profile = value();
				break;
			default:
				throw new Error(`unknown flag ${flag}`);
		}
	}
	if (options.size < 5 * 1024 ** 2) throw new Error('--size must be at least 5MiB (one multipart part)');
	options.sweepSize ||= Math.min(options.size, 256 * 1024 ** 2);
	options.farSize ||= options.size;
	if (options.farSize < 5 * 1024 ** 2) throw new Error('--far-size must be at least 5MiB (one multipart part)');
	options.farSweepSize ||= Math.min(options.farSize, 256 * 1024 ** 2);
	// Small scenarios are cheap: more runs steady their medians, unless a quick single run was asked for.
	options.smallRuns ||= options.runs === 1 ? 1 : options.runs + 2;
	return options;
}
