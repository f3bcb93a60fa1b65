/**
 * `npm run emulator [-- flags]`: the File Storage API emulator as a process. See README.md.
 */
import { DEFAULTS } from './config';
import { parseFaultSpec } from './faults';
import { PATH_FAMILIES, start, type EmulatorOptions, type FaultRule, type PathFamilies } from './index';

const USAGE = `Usage: npm run emulator -- [flags]

Local File Storage API v1 emulator (development and tests only).

  --host <addr>             listen address (default ${DEFAULTS.host})
  --port <n>                port, 0 = any free port (default ${DEFAULTS.port})
  --access-key <key>        access key clients send (default ${DEFAULTS.accessKey})
  --secret-key <secret>     signing secret (default ${DEFAULTS.secretKey})
  --access-id <id>          access id in file locations (default ${DEFAULTS.accessId})
  --bucket <name@region>    a bucket; repeatable; replaces the default ${DEFAULTS.buckets[0].name}@${DEFAULTS.buckets[0].region}
  --data-dir <dir>          keep data here across restarts (default: fresh temp folder, deleted on exit)
  --clock-tolerance <s>     accepted X-Timestamp skew in seconds (default ${DEFAULTS.clockToleranceSeconds})
  --min-part-size <bytes>   minimum size of every multipart part but the last (default ${DEFAULTS.minPartSize})
  --max-body-bytes <bytes>  larger request bodies get 413 (default ${DEFAULTS.maxBodyBytes})
  --latency <ms>            delay added before every API response (default 0)
  --connection-delay <ms>   delay before the first request of each new connection is read (default 0)
  --connection-rate <MiB/s> cap on how fast one connection's request bodies are read; 0 = none (default 0)
  --cdn-cache <seconds>     the CDN keeps public answers this long, until purged; 0 = off (default 0)
  --etags <md5|random>      part ETags: md5 of the bytes, or random without hashing (default ${DEFAULTS.etags})
  --paths <both|reference|sdk>
                            path families answered (default ${DEFAULTS.paths}): reference is
                            /files/list, /multipart/{id}/upload, /multipart/{id}/cancel; sdk is
                            /files/contents, POST and DELETE /multipart/{id}
  --fault <spec>            inject faults; repeatable. <spec> is
                            <op>:<kind>[:p=<0..1>][:nth=1,3][:times=N][:seed=N][:parts=1,2]
                            <kind> is 500, 503, 429, reset, hang or drop; for cdn also
                            truncate=<bytes>, stall=<bytes>, gzip or redirect; for an API
                            operation also rewrite=<JSON object of data fields>
                            <op> is list, upload, start, uploadPart, complete, cancel, delete,
                            signedUrl, purge, cdn or *
  --help                    show this help
`;

class UsageError extends Error {}

function integer(flag: string, value: string): number {
	if (!/^\d+$/.test(value)) throw new UsageError(`${flag} needs a non-negative integer, got "${value}"`);
	return Number(value);
}

export function parseArgs(argv: string[]): EmulatorOptions | 'help' {
	const options: EmulatorOptions = {};
	const buckets: Array<{ name: string; region: string }> = [];
	const faults: FaultRule[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') return 'help';
		if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
		const eq = arg.indexOf('=');
		const flag = eq === -1 ? arg : arg.slice(0, eq);
		let value: string;
		if (eq !== -1) value = arg.slice(eq + 1);
		else {
			if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
			value = argv[++i];
		}
		switch (flag) {
			case '--host':
				options.host = value;
				break;
			case '--port':
				options.port = integer(flag, value);
				if (options.port > 65535) throw new UsageError('--port must be at most 65535');
				break;
			case '--access-key':
				options.accessKey = value;
				break;
			case '--secret-key':
				options.secretKey = value;
				break;
			case '--access-id':
				options.accessId = value;
				break;
			case '--bucket': {
				const at = value.indexOf('@');
				if (at <= 0 || at === value.length - 1) throw new UsageError(`--bucket needs name@region, got "${value}"`);
				buckets.push({ name: value.slice(0, at), region: value.slice(at + 1) });
				break;
			}
			case '--data-dir':
				options.dataDir = value;
				break;
			case '--clock-tolerance':
				options.clockToleranceSeconds = integer(flag, value);
				break;
			case '--min-part-size':
				options.minPartSize = integer(flag, value);
				break;
			case '--max-body-bytes':
				options.maxBodyBytes = integer(flag, value);
				break;
			case '--latency':
				options.latencyMs = integer(flag, value);
				break;
			case '--connection-delay':
				options.connectionDelayMs = integer(flag, value);
				break;
			case '--connection-rate':
				if (!/^\d+(\.\d+)?$/.test(value)) {
					throw new UsageError(`${flag} needs MiB/s as a non-negative number, got "${value}"`);
				}
				options.connectionRateMiBps = Number(value);
				break;
			case '--cdn-cache':
				options.cdnCacheSeconds = integer(flag, value);
				break;
			case '--etags':
				if (value !== 'md5' && value !== 'random') throw new UsageError(`--etags needs md5 or random, got "${value}"`);
				options.etags = value;
				break;
			case '--paths':
				if (!PATH_FAMILIES.includes(value as PathFamilies)) {
					throw new UsageError(`--paths needs ${PATH_FAMILIES.join(', ')}, got "${value}"`);
				}
				options.paths = value as PathFamilies;
				break;
			case '--fault':
				try {
					faults.push(parseFaultSpec(value));
				} catch (err) {
					throw new UsageError((err as Error).message);
				}
				break;
			default:
				throw new UsageError(`unknown flag ${flag}`);
		}
	}
	if (buckets.length > 0) options.buckets = buckets;
	if (faults.length > 0) options.faults = faults;
	return options;
}

async function main(): Promise<void> {
	let options: EmulatorOptions | 'help';
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (err) {
		if (!(err instanceof UsageError)) throw err;
		process.stderr.write(`emulator: ${err.message}\n\n${USAGE}`);
		process.exit(2);
	}
	if (options === 'help') {
		process.stdout.write(USAGE);
		return;
	}
	const emulator = await start({ port: DEFAULTS.port, ...options });
	process.stdout.write(
		`listening on ${emulator.url}\n` +
			`  access key ${emulator.accessKey}\n` +
			// A secret someone chose is not echoed to logs; the documented default is.
			`  secret key ${emulator.secretKey === DEFAULTS.secretKey ? emulator.secretKey : '(as given, not shown)'}\n` +
			`  access id  ${emulator.accessId}\n` +
			`  paths      ${options.paths ?? DEFAULTS.paths}\n` +
			`  buckets    ${emulator.buckets.map((b) => `${b.name}@${b.region}`).join(', ')}\n` +
			`  data dir   ${emulator.dataDir}${options.dataDir === undefined ? ' (temporary)' : ''}\n`,
	);
	let stopping = false;
	const shutdown = (signal: NodeJS.Signals) => {
		if (stopping) {
			// A second signal means "now": skip the clean-up.
			process.exit(1);
		}
		stopping = true;
		process.stdout.write(`${signal}: stopping\n`);
		emulator.stop().then(
			() => process.exit(0),
			(err) => {
				process.stderr.write(`emulator: stop failed: ${(err as Error).message}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
}

if (require.main === module) {
	main().catch((err) => {
		process.stderr.write(`emulator: ${(err as Error).message}\n`);
		process.exit(1);
	});
}
