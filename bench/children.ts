/**
 * Parent side of the bench's child processes: the emulator (one for the whole bench) and one
 * fresh process per measured run of the node.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { FarProfile } from './args';
import type { ScenarioJob, ScenarioResult } from './run-scenario';
import type { Service } from './signing';

const TS = ['-r', 'ts-node/register/transpile-only'];

/**
 * `--profile DIR` of the bench (BENCH_PROFILE_DIR in its children): every process it starts writes
 * a V8 CPU profile there (Node's own --cpu-prof; open it in Chrome DevTools or speedscope).
 */
export function cpuProfileFlags(name: string): string[] {
	const dir = process.env.BENCH_PROFILE_DIR;
	return dir
		? [
				'--cpu-prof',
				`--cpu-prof-dir=${dir}`,
				`--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
				'--cpu-prof-interval=500',
			]
		: [];
}

function forkTs(script: string, extraArgs: string[] = [], execPath?: string): ChildProcess {
	return fork(join(__dirname, script), [], {
		execPath,
		execArgv: [...extraArgs, ...cpuProfileFlags(script.replace(/\.ts$/, '')), ...TS],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		env: { ...process.env, TS_NODE_PROJECT: join(__dirname, 'tsconfig.json') },
	});
}

function firstMessage<T>(child: ChildProcess, what: string, test: (m: T) => boolean): Promise<T> {
	const answer = new Promise<T>((resolve, reject) => {
		const onMessage = (message: T) => {
			if (!test(message)) return;
			cleanup();
			resolve(message);
		};
		const onExit = (code: number | null) => {
			cleanup();
			reject(new Error(`${what} exited (code ${code}) before answering`));
		};
		const cleanup = () => {
			child.off('message', onMessage);
			child.off('exit', onExit);
		};
		child.on('message', onMessage);
		child.once('exit', onExit);
	});
	// Callers race several of these; the losers reject when the child exits, harmlessly.
	answer.catch(() => undefined);
	return answer;
}

export type EmulatorInfo = Service;

export interface EmulatorStats {
	requests: Record<string, number>;
	connections: { opened: number; requests: number };
}

export class EmulatorProcess {
	private nextId = 1;

	private constructor(
		readonly child: ChildProcess,
		readonly info: EmulatorInfo,
	) {}

	static async start(): Promise<EmulatorProcess> {
		const child = forkTs('emulator-process.ts');
		const info = await firstMessage<EmulatorInfo & { ready?: boolean }>(child, 'the emulator', (m) => m.ready === true);
		return new EmulatorProcess(child, info);
	}

	get pid(): number {
		return this.child.pid as number;
	}

	async call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
		const id = this.nextId++;
		const reply = firstMessage<{ id: number; ok: boolean; value: T; error?: string }>(
			this.child,
			'the emulator',
			(m) => m.id === id,
		);
		this.child.send({ id, cmd, ...args });
		const { ok, value, error } = await reply;
		if (!ok) throw new Error(`emulator ${cmd}: ${error}`);
		return value;
	}

	/** The emulator's counts since the last resetStats. */
	stats(): Promise<EmulatorStats> {
		return this.call<EmulatorStats>('stats');
	}

	/** The far-service profile; none: loopback as it is. */
	setProfile(profile: FarProfile = { latencyMs: 0, connectionDelayMs: 0, connectionRateMiBps: 0 }): Promise<unknown> {
		return this.call('setNetworkProfile', { profile });
	}

	sha256(key: string): Promise<string> {
		return this.call<string>('sha256', { bucket: this.info.bucket.name, region: this.info.bucket.region, key });
	}

	async cpuSeconds(): Promise<number> {
		return (await this.call<{ cpuSeconds: number }>('cpu')).cpuSeconds;
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		await this.call('stop').catch(() => this.child.kill('SIGTERM'));
		await exited;
	}
}

export interface MeasuredRun extends ScenarioResult {
	emulatorCpuSeconds: number;
}

/** One run of the node in a fresh process; the emulator's CPU is counted over the same span. */
export async function runScenario(
	job: ScenarioJob,
	emulator: EmulatorProcess,
	execPath?: string,
): Promise<MeasuredRun> {
	// BENCH_NODE_FLAGS: extra V8/Node flags for the measured process (e.g. --trace-gc) while investigating.
	const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
	const child = forkTs('run-scenario.ts', ['--expose-gc', ...extra], execPath);
	try {
		const failed = firstMessage<{ failed: string }>(child, 'a scenario run', (m) => 'failed' in m).then((m) => {
			throw new Error(`scenario run failed: ${m.failed}`);
		});
		const ready = firstMessage<{ ready: boolean }>(child, 'a scenario run', (m) => m.ready === true);
		child.send(job);
		await Promise.race([ready, failed]);
		const result = firstMessage<{ result: ScenarioResult }>(child, 'a scenario run', (m) => 'result' in m);
		const cpuBefore = await emulator.cpuSeconds();
		child.send({ go: true });
		const { result: measured } = await Promise.race([result, failed]);
		const emulatorCpuSeconds = (await emulator.cpuSeconds()) - cpuBefore;
		return { ...measured, emulatorCpuSeconds };
	} finally {
		if (child.exitCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			// It disconnects and exits by itself after answering; give it a moment to clean up.
			const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
			await exited;
			clearTimeout(timer);
		}
	}
}
