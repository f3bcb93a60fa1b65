/**
 * `npm run dev`: build and watch the package, start the emulator and a real n8n with the package
 * loaded as a user's install, an owner account, the example credential and workflows; Ctrl-C
 * stops all of it.
 *
 *   DEV_N8N_PORT (5678)  DEV_EMULATOR_PORT (9480)  DEV_OWNER_EMAIL  DEV_OWNER_PASSWORD
 *   npm run dev -- --reset    start from empty data (deletes .dev-data/)
 *   npm run dev -- --queue    n8n in queue mode: PostgreSQL, Redis, one main and two workers
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { DEFAULTS as EMULATOR_DEFAULTS } from '../../test/emulator/config';
import { ensureRuntime } from '../real-n8n/install';
import { stopStarted, track } from '../real-n8n/process';
import { PACKAGE_ROOT, PROFILES } from '../real-n8n/profiles';
import { startQueueDev } from '../queue/dev';
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
async function watch(outDir: string): Promise<ChildProcess> {
	const args = [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir];
	const options: SpawnOptions = { cwd: PACKAGE_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
	const child = track(spawn(process.execPath, [...args, '--watch', '--preserveWatchOutput'], options));
	let compiles = 0;
	let firstDone: () => void = () => undefined;
	const first = new Promise<void>((resolve) => (firstDone = resolve));
	const show = (chunk: string) => {
		for (const line of chunk.split('\n')) {
			const text = line.replace(/\u001b\[[0-9;]*m/g, '').trim();
			if (!text) continue;
			if (/error TS/.test(text)) say(`build: ${text}`);
			const found = /Found (\d+) errors?/.exec(text);
			if (!found) continue;
			compiles++;
			if (compiles === 1) {
				if (found[1] !== '0') say(`build: ${found[1]} TypeScript error(s); n8n gets what compiled`);
				firstDone();
			} else {
				say(found[1] === '0' ? 'build: compiled; n8n reloads the node' : `build: ${found[1]} TypeScript error(s)`);
			}
		}
	};
	child.stdout?.setEncoding('utf8').on('data', show);
	child.stderr?.setEncoding('utf8').on('data', show);
	const exited = new Promise<void>((_, reject) =>
		child.once('exit', (code) => reject(new Error(`tsc --watch exited (${code})`))),
	);
	await Promise.race([first, exited]);
	return child;
}

let stopping: Promise<void> | undefined;
/** Queue mode stops its own processes first: PostgreSQL gets a fast shutdown, not a kill. */
let stopQueue: (() => Promise<void>) | undefined;

/** Ends everything started so far, whichever step of the start-up we are in. */
function shutdown(why: string, code: number): Promise<void> {
	return (stopping ??= (async () => {
		say(`${why}: stopping what was started (n8n, the emulator, the compiler)`);
		await stopQueue?.().catch(() => undefined);
		await stopStarted(20000);
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
	let dev: Pick<Stack, 'editorUrl' | 'emulatorUrl' | 'owner' | 'logDir' | 'died'> & { pageUrl?: string };
	let mode: string;
	let logs = '';
	try {
		if (queue) {
			const queueDev = await startQueueDev({ dataDir: DATA_DIR, packageDir, ...ports, log: say });
			stopQueue = queueDev.stack.stop;
			const up = queueDev.stack.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
			dev = queueDev;
			mode = ` (queue mode: main + ${up.length} workers up, PostgreSQL, Redis)`;
			logs = ' (main.log, worker-1.log, worker-2.log, postgres.log, redis.log)';
		} else {
			dev = await startStack({ dataDir: DATA_DIR, packageDir, ...ports, hotReload: true, log: say });
			mode = '';
		}
	} catch (err) {
		say(`could not start: ${(err as Error).message}`);
		await shutdown('start failed', 1);
		return;
	}
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
			...(queue
				? [
						'  workflows    the examples; every run (webhook or editor) runs on a worker: see "Worker started',
						'               execution" in the workers\' logs',
					]
				: [
						'  workflows    File Storage example: upload a file / multipart-upload a large generated file /',
						'               list the bucket / upload what is POSTed to a webhook / sign browser uploads',
					]),
			...(dev.pageUrl
				? [`  browser      ${dev.pageUrl} uploads a file through the browser SDK (examples/browser-upload/)`]
				: []),
			`  webhook      curl -H 'content-type: application/octet-stream' --data-binary @some-file '${dev.editorUrl}/webhook/file-storage-upload?key=some-file'`,
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
