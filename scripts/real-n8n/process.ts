/**
 * Child processes for real n8n, the dev stack and queue mode: each in its own process group, so
 * stopping one also stops what it started (n8n's task runner), and every wait is bounded.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureRuntime } from './install';
import { PACKAGE_ROOT, type Profile } from './profiles';

export type Started = Awaited<ReturnType<typeof start>>;

const started = new Set<ChildProcess>();

/** Spawns `command` as the leader of a new process group, remembered until it exits for `stopStarted`. */
function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
	const child = spawn(command, args, { ...options, detached: true });
	started.add(child);
	child.once('exit', () => started.delete(child));
	return child;
}

/** Stops every child that is still running (a Ctrl-C in the middle of starting up). */
export async function stopStarted(): Promise<void> {
	await Promise.allSettled([...started].map((child) => stopGroup(child)));
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		// A group id is not reused while any member lives, so this reaches only what we started.
		process.kill(-child.pid, signal);
	} catch {
		// the whole group is gone already
	}
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

async function exited(child: ChildProcess): Promise<void> {
	if (!hasExited(child)) await once(child, 'exit');
}

/**
 * `signal` to the group, SIGKILL to what is left of it after `graceMs` (or at once, if the leader is
 * gone). The default grace is what n8n may take to finish running executions when stopped.
 */
export async function stopGroup(child: ChildProcess, graceMs = 20000, signal: NodeJS.Signals = 'SIGTERM') {
	if (!hasExited(child)) {
		killGroup(child, signal);
		await Promise.race([exited(child), sleep(graceMs, undefined, { ref: false })]);
	}
	// What the leader started may outlive it for a moment.
	killGroup(child, 'SIGKILL');
	await exited(child);
}

/** The last lines of some output, each cut short: a run's JSON can hold megabytes of base64 on one line. */
export function tail(text: string, lines: number): string {
	return text
		.trimEnd()
		.split('\n')
		.slice(-lines)
		.map((line) => (line.length > 400 ? `${line.slice(0, 400)}… (${line.length} characters)` : line))
		.join('\n');
}

export interface StartOptions extends Omit<SpawnOptions, 'stdio' | 'detached'> {
	/** Names it in errors. */
	what: string;
	/** Ready once its output matches, or once this holds (polled every `everyMs`). */
	ready: RegExp | (() => boolean | Promise<boolean>);
	timeoutMs: number;
	everyMs?: number;
	logFile?: string;
	/** Written to its stdin, which is then closed. */
	input?: string;
	/** Rewrites each chunk of output before it is kept (to hide a secret, or to act on its lines). */
	show?: (chunk: string) => string;
	stopSignal?: NodeJS.Signals;
}

/**
 * Starts a long-running command in a process group of its own, its output kept (and copied to
 * `logFile`), and resolves once `ready` holds. When it ends first or `timeoutMs` passes, stops its
 * group and throws with the end of its output. `output()` is what it printed so far: the start and
 * the last megabyte (a dev session may run for hours); `stop()` stops its group with `stopSignal`
 * (SIGTERM unless told), SIGKILL after 20 s.
 */
export async function start(command: string, args: string[], options: StartOptions) {
	const { what, ready, logFile, input, show = (chunk: string) => chunk } = options;
	const stdin = input === undefined ? 'ignore' : 'pipe';
	const child = spawnGroup(command, args, { ...options, stdio: [stdin, 'pipe', 'pipe'] });
	child.stdin?.end(input);
	const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
	child.once('exit', () => log?.end());
	let output = '';
	for (const stream of [child.stdout, child.stderr]) {
		stream?.setEncoding('utf8').on('data', (chunk: string) => {
			const shown = show(chunk);
			output = output.length > 2_000_000 ? output.slice(0, 200_000) + output.slice(-1_000_000) : output;
			output += shown;
			log?.write(shown);
		});
	}
	const stop = () => stopGroup(child, undefined, options.stopSignal);
	const isReady = ready instanceof RegExp ? () => ready.test(output) : ready;
	const deadline = Date.now() + options.timeoutMs;
	while (!hasExited(child) && Date.now() <= deadline) {
		if (await isReady()) return { child, output: () => output, stop };
		await sleep(options.everyMs ?? 200);
	}
	const why = hasExited(child)
		? `exited (${child.exitCode ?? child.signalCode}) before it was ready`
		: 'was not ready in time';
	await stopGroup(child, 5000);
	throw new Error(`${what} ${why}:\n${tail(output, 40)}`);
}

type CaptureOptions = SpawnOptions & { timeoutMs: number; onSpawn?: (pid: number) => void };

/**
 * Runs a command to its end (or `timeoutMs`), capturing its output. Output goes through files, not
 * pipes: n8n exits right after printing a run of many megabytes, and a pipe would lose the rest.
 */
export async function capture(command: string, args: string[], options: CaptureOptions) {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'real-n8n-output-'));
	const files = [path.join(dir, 'stdout'), path.join(dir, 'stderr')];
	const [out, err] = await Promise.all(files.map((file) => fsp.open(file, 'w')));
	try {
		const child = spawnGroup(command, args, { ...options, stdio: ['ignore', out.fd, err.fd] });
		options.onSpawn?.(child.pid!);
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			void stopGroup(child, 5000);
		}, options.timeoutMs);
		const [code, signal] = (await once(child, 'exit').finally(() => clearTimeout(timer))) as [
			number | null,
			NodeJS.Signals | null,
		];
		// What n8n started (its task runner) may outlive it for a moment; never leave it behind.
		killGroup(child, 'SIGKILL');
		const [stdout, stderr] = await Promise.all(files.map((file) => fsp.readFile(file, 'utf8')));
		return { code, signal, stdout, stderr, timedOut };
	} finally {
		await Promise.all([out.close(), err.close()]);
		await fsp.rm(dir, { recursive: true, force: true });
	}
}

/** Listens on `port` of 127.0.0.1 (0: any) for a moment: the port it got, or undefined if it is taken. */
function tryPort(port: number): Promise<number | undefined> {
	return new Promise((resolve) => {
		const server = net.createServer().unref();
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => {
			const { port: got } = server.address() as net.AddressInfo;
			server.close(() => resolve(got));
		});
	});
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
	return (await tryPort(0)) ?? Promise.reject(new Error('no free port on 127.0.0.1'));
}

export const isPortFree = async (port: number) => (await tryPort(port)) !== undefined;

/**
 * An npm script's jest run on a real n8n: `check` first, the runtime of `profile` installed, the
 * package built unless it is; exits with jest's code. `label` starts every line it prints.
 */
export function jestOnProfile(o: {
	label: string;
	profile: Profile;
	what: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
	check?: () => void;
}): void {
	const run = (command: string, args: string[], env = process.env) => {
		const result = spawnSync(command, args, { cwd: PACKAGE_ROOT, env, stdio: 'inherit' });
		if (result.error) throw result.error;
		return result.status ?? 1;
	};
	const main = async () => {
		o.check?.();
		console.log(`${o.label}: n8n ${o.profile.n8nVersion} ${o.what}`);
		await ensureRuntime(o.profile, (line) => console.log(line));
		const dist = path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js');
		const built = existsSync(dist) ? 0 : run('npm', ['run', 'build']);
		return built !== 0 ? built : run(process.execPath, [require.resolve('jest/bin/jest'), ...o.args], o.env);
	};
	main().then(
		(code) => process.exit(code),
		(err: Error) => {
			console.error(`${o.label}: ${err.message}`);
			process.exit(1);
		},
	);
}
