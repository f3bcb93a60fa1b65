/**
 * `npm run dev`: build and watch the package, start the emulator and a real n8n with the package
 * loaded as a user's install, an owner account, the example credential and workflows; Ctrl-C
 * stops all of it.
 *
 *   DEV_N8N_PORT (5678)  DEV_EMULATOR_PORT (9480)  DEV_OWNER_EMAIL  DEV_OWNER_PASSWORD
 *   npm run dev -- --reset    start from empty data (deletes .dev-data/)
 *   npm run dev -- --queue    n8n in queue mode: PostgreSQL, Redis, one main and two workers
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { DEFAULTS as EMULATOR_DEFAULTS } from '../../test/emulator/config';
import { ensureRuntime } from '../real-n8n/install';
import { start, stopStarted } from '../real-n8n/process';
import { PACKAGE_ROOT, PROFILES } from '../real-n8n/profiles';
import { bannerWorkflowLines } from './examples';
import { onParentExit } from './parentWatch';
import { preparePackageCopy, startStack, type Stack } from './stack';

const DATA_DIR = path.join(PACKAGE_ROOT, '.dev-data');

function say(line: string): void {
	process.stdout.write(`[dev] ${line}\n`);
}

function port(name: string, fallback: number): number {
	const value = process.env[name];
	if (!value) return fallback;
	if (!/^\d+$/.test(value) || Number(value) > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
	return Number(value);
}

/**
 * `tsc --watch` compiling the node into the package copy n8n loads; resolves once the first
 * compile is done. Later compiles make n8n reload the node.
 */
async function watch(outDir: string): Promise<void> {
	const tsc = [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir];
	let compiles = 0;
	const show = (chunk: string) => {
		for (const line of chunk.split('\n')) {
			const text = stripVTControlCharacters(line).trim();
			if (/error TS/.test(text)) say(`build: ${text}`);
			const errors = /Found (\d+) errors?/.exec(text)?.[1];
			if (errors === undefined) continue;
			if (++compiles === 1) {
				if (errors !== '0') say(`build: ${errors} TypeScript error(s); n8n gets what compiled`);
			} else {
				say(errors === '0' ? 'build: compiled; n8n reloads the node' : `build: ${errors} TypeScript error(s)`);
			}
		}
		return chunk;
	};
	await start(process.execPath, [...tsc, '--watch', '--preserveWatchOutput'], {
		what: 'tsc --watch',
		ready: () => compiles > 0,
		timeoutMs: 10 * 60 * 1000,
		cwd: PACKAGE_ROOT,
		show,
	});
}

let stopping: Promise<void> | undefined;
/** The stack stops its own processes first, in order: PostgreSQL gets a fast shutdown once n8n is gone. */
let stopStack: (() => Promise<void>) | undefined;

/** Ends everything started so far, whichever step of the start-up we are in. */
function shutdown(why: string, code: number): Promise<void> {
	return (stopping ??= (async () => {
		say(`${why}: stopping what was started (n8n, the emulator, the compiler)`);
		await stopStack?.();
		await stopStarted();
		say('stopped');
		process.exit(code);
	})());
}

async function main(): Promise<void> {
	const started = Date.now();
	process.on('SIGINT', () => void shutdown('Ctrl-C', 0));
	process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
	process.on('SIGHUP', () => void shutdown('SIGHUP', 0));
	onParentExit(() => void shutdown('the npm process that started this ended', 0));
	if (process.argv.includes('--reset')) {
		say(`deleting ${path.relative(process.cwd(), DATA_DIR)}`);
		await fsp.rm(DATA_DIR, { recursive: true, force: true });
	}
	await ensureRuntime(PROFILES.current, say);
	const packageDir = path.join(DATA_DIR, 'package');
	say(`building the package into ${path.relative(process.cwd(), packageDir)} and watching nodes/ and credentials/`);
	await preparePackageCopy(packageDir);
	await watch(path.join(packageDir, 'dist'));
	const queue = process.argv.includes('--queue');
	const ports = {
		n8nPort: port('DEV_N8N_PORT', 5678),
		emulatorPort: port('DEV_EMULATOR_PORT', EMULATOR_DEFAULTS.port),
	};
	let dev: Stack;
	try {
		dev = await startStack({ dataDir: DATA_DIR, packageDir, ...ports, hotReload: !queue, queue, log: say });
		stopStack = dev.stop;
	} catch (err) {
		say(`could not start: ${(err as Error).message}`);
		await shutdown('start failed', 1);
		return;
	}
	const up = dev.workers.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null);
	const mode = queue ? ` (queue mode: main + ${up.length} workers up, PostgreSQL, Redis)` : '';
	const logs = queue ? ' (main.log, worker-1.log, worker-2.log, postgres.log, redis.log)' : '';
	const seconds = Math.round((Date.now() - started) / 1000);
	const { name, region } = EMULATOR_DEFAULTS.buckets[0];
	const logDir = path.relative(process.cwd(), dev.logDir);
	process.stdout.write(
		[
			'',
			`  n8n editor   ${dev.editorUrl}${mode}`,
			`  log in as    ${dev.owner.email} / ${dev.owner.password}`,
			`  emulator     ${dev.emulatorUrl} (bucket ${name}, region ${region})`,
			`  credential   "File Storage (local emulator)"`,
			...bannerWorkflowLines(queue),
			`  browser      ${dev.pageUrl} uploads a file through the browser SDK (examples/browser-upload/)`,
			// As the examples README shows it: a form names the file itself, no ?key= needed.
			`  webhook      curl -F file=@some-file '${dev.editorUrl}/webhook/file-storage-upload'`,
			`  logs         ${logDir}/${logs}`,
			queue
				? `  ready after ${seconds} s. No hot reload in queue mode: restart to load a rebuilt node. Ctrl-C stops everything.`
				: `  ready after ${seconds} s; edit nodes/ or credentials/ and n8n reloads the node. Ctrl-C stops everything.`,
			'',
		].join('\n') + '\n',
	);
	const why = await dev.died;
	await shutdown(`${why}; see ${logDir}/`, 1);
}

main().catch((err: Error) => {
	process.stderr.write(`[dev] ${err.stack ?? err.message}\n`);
	void shutdown('error', 1);
});
