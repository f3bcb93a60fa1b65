/**
 * n8n in queue mode on one machine: a throw-away PostgreSQL and Redis, one main (`n8n start`, which
 * takes webhooks and the editor and puts executions on the queue) and `n8n worker` processes that
 * run them. All share the encryption key and one user folder, where this package is linked in as a
 * user's install. Used by `npm run test:queue` and `npm run dev -- --queue`.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import type { InstalledRuntime } from '../real-n8n/install';
import { baseEnv, startN8n, type Env, type N8nInstance, type RunningN8n } from '../real-n8n/n8n';
import { exited, freePort, killGroup, startLogged, stopGroup, waitReady } from '../real-n8n/process';
import { startPostgres, type Postgres } from './postgres';
import { startRedis, type Redis } from './redis';

export interface Worker {
	name: string;
	child: ChildProcess;
	brokerPort: number;
	/** Everything this worker printed so far. */
	output(): string;
	/** Execution ids this worker logged as started ("Worker started execution <id>"). */
	executions(): string[];
	stop(): Promise<void>;
}

export interface QueueStackOptions {
	runtime: InstalledRuntime;
	/** PostgreSQL's cluster, Redis' folder, the n8n user folder and the logs live here. */
	dataDir: string;
	/** Settings for every n8n process (encryption key, file access, owner, …). */
	env: Env;
	workers?: number;
	/** Jobs each worker runs at once. */
	concurrency?: number;
	/** N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE in MiB (n8n's default: 512). */
	binaryDatabaseMaxMiB?: number;
	n8nPort?: number;
	/** Called after the database exists and before n8n starts: import credentials and workflows here. */
	prepare?: (instance: N8nInstance) => Promise<void>;
	/** Webhook paths main must have registered before the stack counts as up. */
	webhookPaths?: string[];
	log?: (line: string) => void;
}

export interface QueueStack {
	instance: N8nInstance;
	main: RunningN8n;
	workers: Worker[];
	postgres: Postgres;
	redis: Redis;
	logDir: string;
	/** Starts one more worker (after one was killed, for example). */
	addWorker(name: string): Promise<Worker>;
	stop(): Promise<void>;
}

export const WORKER_STARTED = /Worker started execution (\d+) \(job (\S+)\)/g;

/** Starts `n8n worker` and resolves once it logs that it is ready. */
async function startWorker(instance: N8nInstance, name: string, concurrency: number, logFile: string): Promise<Worker> {
	const brokerPort = await freePort();
	const env = baseEnv(instance, { N8N_RUNNERS_BROKER_PORT: String(brokerPort) });
	const args = [instance.runtime.n8nBin, 'worker', `--concurrency=${concurrency}`];
	const started = startLogged(instance.runtime.nodeBin, args, { cwd: instance.userFolder, env, logFile });
	const { child, output } = started;
	await waitReady(started, name, () => /n8n worker is now ready/.test(output()), 120000);
	return {
		name,
		child,
		brokerPort,
		output,
		executions: () => [...output().matchAll(WORKER_STARTED)].map((match) => match[1]),
		stop: () => stopGroup(child, 20000),
	};
}

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const log = options.log ?? (() => undefined);
	const logDir = path.join(options.dataDir, 'logs');
	const userFolder = path.join(options.dataDir, 'n8n');
	await fsp.mkdir(logDir, { recursive: true });
	await fsp.mkdir(userFolder, { recursive: true });
	const stops: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
	};
	try {
		log('starting PostgreSQL (a cluster of its own, on a private port)');
		const postgres = await startPostgres(path.join(options.dataDir, 'postgres'), path.join(logDir, 'postgres.log'));
		stops.push(postgres.stop);
		log('starting Redis (a private port, no persistence)');
		const redis = await startRedis(path.join(options.dataDir, 'redis'), path.join(logDir, 'redis.log'));
		stops.push(redis.stop);
		// Every n8n process gets every setting, so none falls back to a default of its own.
		const env: Env = {
			EXECUTIONS_MODE: 'queue',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			DB_POSTGRESDB_SCHEMA: 'public',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			QUEUE_BULL_REDIS_PASSWORD: redis.password,
			QUEUE_BULL_REDIS_DB: '0',
			QUEUE_BULL_PREFIX: 'bull',
			// A worker's health server is off; on, its default port would collide with main's.
			QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: String(options.binaryDatabaseMaxMiB ?? 512),
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('base64url'),
			...options.env,
		};
		const instance: N8nInstance = { runtime: options.runtime, userFolder, env };
		await options.prepare?.(instance);
		log(
			`starting n8n ${options.runtime.profile.n8nVersion} main (log in ${path.relative(process.cwd(), path.join(logDir, 'main.log'))})`,
		);
		const main = await startN8n(instance, {
			port: options.n8nPort,
			logFile: path.join(logDir, 'main.log'),
			webhookPaths: options.webhookPaths,
		});
		stops.push(main.stop);
		const concurrency = options.concurrency ?? 5;
		const addWorker = async (name: string) => {
			const worker = await startWorker(instance, name, concurrency, path.join(logDir, `${name}.log`));
			stops.push(worker.stop);
			return worker;
		};
		const count = options.workers ?? 2;
		log(`starting ${count} workers (concurrency ${concurrency} each)`);
		const workers = await Promise.all(Array.from({ length: count }, (_, i) => addWorker(`worker-${i + 1}`)));
		return { instance, main, workers, postgres, redis, logDir, addWorker, stop: stopAll };
	} catch (err) {
		await stopAll();
		throw err;
	}
}

/** Kills a worker at once, as a crash or an out-of-memory kill would, its task runner with it. */
export async function killWorker(worker: Worker): Promise<void> {
	killGroup(worker.child, 'SIGKILL');
	await exited(worker.child);
}
