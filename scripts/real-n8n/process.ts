/**
 * Child processes for real n8n: each in its own process group, so stopping one also stops what
 * it started (n8n's task runner), and every wait is bounded.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, existsSync, promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { ensureRuntime } from './install';
import { PACKAGE_ROOT, type Profile } from './profiles';

export interface Captured {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
}

const started = new Set<ChildProcess>();

/** Remembers a child until it exits, so `stopStarted` can end whatever is still running. */
export function track<T extends ChildProcess>(child: T): T {
	started.add(child);
	child.once('exit', () => started.delete(child));
	return child;
}

/** Stops every tracked child that is still running (a Ctrl-C in the middle of starting up). */
export async function stopStarted(graceMs = 15000): Promise<void> {
	await Promise.allSettled([...started].map((child) => stopGroup(child, graceMs)));
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		// A group id is not reused while any member lives, so this reaches only what we started.
		process.kill(-child.pid, signal);
	} catch {
		// the whole group is gone already
	}
}

export function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM to the group, SIGKILL if it is still there after `graceMs`. */
export async function stopGroup(child: ChildProcess, graceMs = 15000): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) {
		killGroup(child, 'SIGKILL');
		return;
	}
	killGroup(child, 'SIGTERM');
	const done = exited(child);
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), graceMs);
	});
	if ((await Promise.race([done, timeout])) === 'timeout') {
		killGroup(child, 'SIGKILL');
		await done;
	}
	clearTimeout(timer);
	// What the leader started may outlive it for a moment.
	killGroup(child, 'SIGKILL');
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

export interface Started {
	child: ChildProcess;
	/** What it printed so far: the start and the last megabyte (a dev session may run for hours). */
	output(): string;
}

/**
 * Starts a long-running command in a process group of its own, tracked for `stopStarted`, its
 * output kept and copied to `logFile`; `show` rewrites each chunk first (to hide a secret).
 */
export function startLogged(
	command: string,
	args: string[],
	options: SpawnOptions & { logFile?: string; stdin?: 'pipe'; show?: (chunk: string) => string },
): Started {
	const stdio = [options.stdin ?? 'ignore', 'pipe', 'pipe'] as const;
	const child = track(spawn(command, args, { ...options, detached: true, stdio: [...stdio] }));
	const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
	child.once('exit', () => log?.end());
	let output = '';
	for (const stream of [child.stdout, child.stderr]) {
		stream?.setEncoding('utf8').on('data', (chunk: string) => {
			const shown = options.show?.(chunk) ?? chunk;
			output = output.length > 2_000_000 ? output.slice(0, 200_000) + output.slice(-1_000_000) : output;
			output += shown;
			log?.write(shown);
		});
	}
	return { child, output: () => output };
}

/**
 * Polls `ready` until it holds. When the process ends first or `timeoutMs` passes, stops its
 * group and throws with the end of its output.
 */
export async function waitReady(
	started: Started,
	what: string,
	ready: () => boolean | Promise<boolean>,
	timeoutMs: number,
	everyMs = 200,
): Promise<void> {
	const { child, output } = started;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) {
			await stopGroup(child, 5000);
			throw new Error(
				`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(output(), 40)}`,
			);
		}
		if (await ready()) return;
		if (Date.now() > deadline) {
			await stopGroup(child, 5000);
			throw new Error(`${what} was not ready in time:\n${tail(output(), 40)}`);
		}
		await sleep(everyMs);
	}
}

/**
 * Runs a command to its end (or `timeoutMs`), capturing its output. Output goes through files, not
 * pipes: n8n exits right after printing a run of many megabytes, and a pipe would lose the rest.
 */
export async function capture(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number },
): Promise<Captured> {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'real-n8n-output-'));
	const outFile = path.join(dir, 'stdout');
	const errFile = path.join(dir, 'stderr');
	const out = await fsp.open(outFile, 'w');
	const err = await fsp.open(errFile, 'w');
	try {
		const child = track(spawn(command, args, { ...options, detached: true, stdio: ['ignore', out.fd, err.fd] }));
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			void stopGroup(child, 5000);
		}, options.timeoutMs);
		const status = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
			child.once('error', reject);
			child.once('exit', (code, signal) => resolve({ code, signal }));
		}).finally(() => clearTimeout(timer));
		// What n8n started (its task runner) may outlive it for a moment; never leave it behind.
		killGroup(child, 'SIGKILL');
		return {
			...status,
			stdout: await fsp.readFile(outFile, 'utf8'),
			stderr: await fsp.readFile(errFile, 'utf8'),
			timedOut,
		};
	} finally {
		await out.close();
		await err.close();
		await fsp.rm(dir, { recursive: true, force: true });
	}
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export async function isPortFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

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
	const here = (command: string, args: string[], env = process.env) =>
		new Promise<number>((resolve, reject) => {
			const child = spawn(command, args, { cwd: PACKAGE_ROOT, env, stdio: 'inherit' });
			child.once('error', reject);
			child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
		});
	const main = async () => {
		o.check?.();
		console.log(`${o.label}: n8n ${o.profile.n8nVersion} ${o.what}`);
		await ensureRuntime(o.profile, (line) => console.log(line));
		if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
			const built = await here('npm', ['run', 'build']);
			if (built !== 0) return built;
		}
		return await here(process.execPath, [require.resolve('jest/bin/jest'), ...o.args], o.env);
	};
	main().then(
		(code) => process.exit(code),
		(err: Error) => {
			console.error(`${o.label}: ${err.message}`);
			process.exit(1);
		},
	);
}
