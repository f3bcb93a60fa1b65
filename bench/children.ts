/**
 * Parent side of the bench's child processes: the emulator (one for the whole bench) and one
 * fresh process per measured run of the node.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { on, once } from 'node:events';
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
	if (!dir) return [];
	return [
		'--cpu-prof',
		`--cpu-prof-dir=${dir}`,
		`--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
		'--cpu-prof-interval=500',
	];
}

function forkTs(script: string, extraArgs: string[] = [], execPath?: string): ChildProcess {
	return fork(join(__dirname, script), [], {
		execPath,
		execArgv: [...extraArgs, ...cpuProfileFlags(script.replace(/\.ts$/, '')), ...TS],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		env: { ...process.env, TS_NODE_PROJECT: join(__dirname, 'tsconfig.json') },
	});
}

/**
 * The child's first message from now on that passes `test`. Rejects when the child exits first, or
 * says it `failed` (a scenario run that threw).
 */
async function reply<T>(child: ChildProcess, what: string, test: (m: T) => boolean): Promise<T> {
	if (child.exitCode === null) {
		for await (const [message] of on(child, 'message', { close: ['exit'] })) {
			if (message.failed !== undefined) throw new Error(`${what} failed: ${message.failed}`);
			if (test(message)) return message;
		}
	}
	throw new Error(`${what} exited (code ${child.exitCode}) before answering`);
}

export type EmulatorInfo = Service;

export type EmulatorStats = { requests: Record<string, number>; connections: { opened: number; requests: number } };

type Answer<T> = { id: number; ok: boolean; value: T; error?: string };

export class EmulatorProcess {
	private nextId = 1;

	private constructor(
		private readonly child: ChildProcess,
		readonly info: EmulatorInfo,
	) {}

	static async start(): Promise<EmulatorProcess> {
		const child = forkTs('emulator-process.ts');
		const info = await reply<EmulatorInfo & { ready?: boolean }>(child, 'the emulator', (m) => m.ready === true);
		return new EmulatorProcess(child, info);
	}

	async call<T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
		const id = this.nextId++;
		const answer = reply<Answer<T>>(this.child, 'the emulator', (m) => m.id === id);
		this.child.send({ id, cmd, ...args });
		const { ok, value, error } = await answer;
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

	cpuSeconds(): Promise<number> {
		return this.call<number>('cpu');
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = once(this.child, 'exit');
		await this.call('stop').catch(() => this.child.kill('SIGTERM'));
		await exited;
	}
}

export type MeasuredRun = ScenarioResult & { emulatorCpuSeconds: number };

/**
 * One run of the node in a fresh process; the emulator's CPU is counted over the same span. The
 * emulator's bucket and credentials unless the job says otherwise.
 */
export async function runScenario(
	job: Omit<ScenarioJob, 'credentials'> & { credentials?: Partial<ScenarioJob['credentials']> },
	emulator: EmulatorProcess,
	execPath?: string,
): Promise<MeasuredRun> {
	const { info } = emulator;
	// BENCH_NODE_FLAGS: extra V8/Node flags for the measured process (e.g. --trace-gc) while investigating.
	const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
	const child = forkTs('run-scenario.ts', ['--expose-gc', ...extra], execPath);
	try {
		const ready = reply<{ ready?: boolean }>(child, 'scenario run', (m) => m.ready === true);
		child.send({
			...job,
			parameters: { bucketName: info.bucket.name, region: info.bucket.region, ...job.parameters },
			credentials: { accessKey: info.accessKey, secretKey: info.secretKey, baseUrl: info.url, ...job.credentials },
		});
		await ready;
		const cpuBefore = await emulator.cpuSeconds();
		const result = reply<{ result?: ScenarioResult }>(child, 'scenario run', (m) => m.result !== undefined);
		child.send({ go: true });
		const measured = (await result).result!;
		return { ...measured, emulatorCpuSeconds: (await emulator.cpuSeconds()) - cpuBefore };
	} finally {
		// It disconnects and exits by itself after answering; give it a moment to clean up.
		const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
		if (child.exitCode === null) await once(child, 'exit');
		clearTimeout(timer);
	}
}
