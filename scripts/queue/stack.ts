/**
 * n8n in queue mode on one machine: a throw-away PostgreSQL and Redis, one main (`n8n start`, which
 * takes webhooks and the editor and puts executions on the queue) and two `n8n worker` processes
 * that run them. All share the encryption key and one user folder, where this package is linked in
 * as a user's install. Used by `npm run test:queue` and `npm run dev -- --queue`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';

import type { InstalledRuntime } from '../real-n8n/install';
import { baseEnv, startN8n, type Env, type N8nInstance } from '../real-n8n/n8n';
import { capture, freePort, start, stopGroup, tail } from '../real-n8n/process';

const INSTALL_HINT =
	'sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql redis-server';

/** The newest PostgreSQL server installed from Debian's packages, or undefined. */
function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? path.join(root, versions[0], 'bin') : undefined;
}

const redisInstalled = () => spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** Throws, saying how to install them, unless PostgreSQL and Redis are both installed. */
export function requireQueueServices(): void {
	const missing = [postgresBinDir() ? undefined : 'PostgreSQL', redisInstalled() ? undefined : 'Redis'].filter(Boolean);
	if (missing.length > 0) {
		throw new Error(
			`${missing.join(' and ')} not installed; queue mode needs both. On Debian or Ubuntu:\n  ${INSTALL_HINT}`,
		);
	}
}

async function runOk(what: string, command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
	const result = await capture(command, args, { timeoutMs: 120000, env });
	if (result.code !== 0)
		throw new Error(`${what} failed (${result.code}):\n${tail(result.stdout + result.stderr, 30)}`);
	return result.stdout;
}

/**
 * A PostgreSQL cluster of our own: `initdb` into `dir` on first use (the password is kept there),
 * a server on a private port of 127.0.0.1 and a private socket folder, never a system service.
 * PostgreSQL refuses to run as root; as root, its programs run as the unprivileged `postgres` user
 * the Debian package creates.
 */
async function startPostgres(dir: string, logFile: string) {
	const binDir = postgresBinDir()!;
	const asRoot = process.getuid?.() === 0;
	const asServer = (program: string, args: string[]): [string, string[]] => {
		const bin = path.join(binDir, program);
		return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
	};
	const chownForServer = async () => {
		if (asRoot) await runOk(`chown of ${dir}`, 'chown', ['-R', 'postgres:', dir]);
	};
	const dataDir = path.join(dir, 'data');
	const passwordFile = path.join(dir, 'password');
	const user = 'n8n';
	const socketDir = path.join(dir, 'socket');
	await fsp.mkdir(socketDir, { recursive: true, mode: 0o700 });
	if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
		await fsp.rm(dataDir, { recursive: true, force: true });
		await fsp.writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
		await chownForServer();
		const auth = [`--pwfile=${passwordFile}`, '--auth=scram-sha-256'];
		await runOk('initdb', ...asServer('initdb', ['-D', dataDir, '-U', user, ...auth, '--encoding=UTF8', '--no-sync']));
	}
	await chownForServer();
	const password = (await fsp.readFile(passwordFile, 'utf8')).trim();
	const port = await freePort();
	// A throw-away cluster: speed over durability.
	const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
	const [command, args] = asServer('postgres', [
		...['-D', dataDir, '-p', String(port), '-k', socketDir],
		...[...settings, 'max_connections=100'].flatMap((setting) => ['-c', setting]),
	]);
	const env = { ...process.env, PGPASSWORD: password };
	const where = ['-h', '127.0.0.1', '-p', String(port), '-U', user];
	const server = await start(command, args, {
		what: 'PostgreSQL',
		ready: async () =>
			(await capture(path.join(binDir, 'pg_isready'), [...where, '-d', 'postgres'], { timeoutMs: 10000, env })).code ===
			0,
		timeoutMs: 60000,
		// SIGINT is PostgreSQL's fast shutdown: it does not wait for n8n's pooled connections.
		stopSignal: 'SIGINT',
		cwd: dir,
		logFile,
	});
	try {
		const query = "SELECT 1 FROM pg_database WHERE datname = 'n8n'";
		const exists = await runOk('psql', path.join(binDir, 'psql'), [...where, '-d', 'postgres', '-tAc', query], env);
		if (exists.trim() !== '1') await runOk('createdb', path.join(binDir, 'createdb'), [...where, 'n8n'], env);
	} catch (err) {
		await server.stop();
		throw err;
	}
	return {
		stop: server.stop,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: password,
			DB_POSTGRESDB_SCHEMA: 'public',
		},
	};
}

/** redis-server for n8n's job queue: a free port on 127.0.0.1, a password, no persistence, its folder ours. */
async function startRedis(dir: string, logFile: string) {
	await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
	const port = await freePort();
	const password = randomBytes(18).toString('base64url');
	// The password goes in on stdin as a config file, not on the command line where `ps` shows it.
	const config = [
		`port ${port}`,
		'bind 127.0.0.1',
		'protected-mode yes',
		`requirepass ${password}`,
		'save ""',
		'appendonly no',
		`dir ${dir}`,
		'daemonize no',
		'loglevel notice',
	];
	const server = await start('redis-server', ['-'], {
		what: 'redis-server',
		ready: /Ready to accept connections/,
		timeoutMs: 30000,
		cwd: dir,
		logFile,
		input: `${config.join('\n')}\n`,
	});
	return {
		stop: server.stop,
		env: {
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(port),
			QUEUE_BULL_REDIS_PASSWORD: password,
			QUEUE_BULL_REDIS_DB: '0',
			QUEUE_BULL_PREFIX: 'bull',
		},
	};
}

export type Worker = Awaited<ReturnType<typeof startWorker>>;

export interface QueueStackOptions {
	runtime: InstalledRuntime;
	/** PostgreSQL's cluster, Redis' folder, the n8n user folder and the logs live here. */
	dataDir: string;
	/** Settings for every n8n process (encryption key, file access, owner, …). */
	env: Env;
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

export type QueueStack = Awaited<ReturnType<typeof startQueueStack>>;

/**
 * Starts `n8n worker` and resolves once it logs that it is ready. `executions()`: the execution ids
 * it logged as started ("Worker started execution <id>").
 */
async function startWorker(instance: N8nInstance, name: string, concurrency: number, logFile: string) {
	const args = [instance.runtime.n8nBin, 'worker', `--concurrency=${concurrency}`];
	const worker = await start(instance.runtime.nodeBin, args, {
		what: name,
		ready: /n8n worker is now ready/,
		timeoutMs: 120000,
		cwd: instance.userFolder,
		env: await baseEnv(instance),
		logFile,
	});
	const started = /Worker started execution (\d+) \(job (\S+)\)/g;
	return { ...worker, name, executions: () => [...worker.output().matchAll(started)].map((match) => match[1]) };
}

export async function startQueueStack(options: QueueStackOptions) {
	requireQueueServices();
	const log = options.log ?? (() => undefined);
	const logDir = path.join(options.dataDir, 'logs');
	const userFolder = path.join(options.dataDir, 'n8n');
	await fsp.mkdir(logDir, { recursive: true });
	await fsp.mkdir(userFolder, { recursive: true });
	const stops: Array<() => Promise<void>> = [];
	const stop = async () => {
		for (const stopOne of stops.splice(0).reverse()) await stopOne().catch(() => undefined);
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
			...postgres.env,
			...redis.env,
			// A worker's health server is off; on, its default port would collide with main's.
			QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: String(options.binaryDatabaseMaxMiB ?? 512),
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('base64url'),
			...options.env,
		};
		const instance: N8nInstance = { runtime: options.runtime, userFolder, env };
		await options.prepare?.(instance);
		const logFile = path.join(logDir, 'main.log');
		log(`starting n8n ${options.runtime.profile.n8nVersion} main (log in ${path.relative(process.cwd(), logFile)})`);
		const main = await startN8n(instance, {
			port: options.n8nPort,
			logFile,
			webhookPaths: options.webhookPaths,
		});
		stops.push(main.stop);
		const concurrency = options.concurrency ?? 5;
		log(`starting 2 workers (concurrency ${concurrency} each)`);
		const workers = await Promise.all(
			['worker-1', 'worker-2'].map(async (name) => {
				const worker = await startWorker(instance, name, concurrency, path.join(logDir, `${name}.log`));
				stops.push(worker.stop);
				return worker;
			}),
		);
		return { main, workers, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}

/** Kills a worker at once, as a crash or an out-of-memory kill would, its task runner with it. */
export async function killWorker(worker: Worker): Promise<void> {
	await stopGroup(worker.child, 0, 'SIGKILL');
}
