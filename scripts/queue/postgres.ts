/**
 * A throw-away PostgreSQL cluster for queue mode: `initdb` into a folder of our own, a server on a
 * private port of 127.0.0.1 and a private socket folder, never a system service. PostgreSQL refuses
 * to run as root; as root, its programs run as the unprivileged `postgres` user the Debian package
 * creates.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';

import { capture, exited, freePort, killGroup, sleep, startLogged, stopGroup, waitReady } from '../real-n8n/process';

export const INSTALL_HINT =
	'sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql redis-server';

const RUN_AS = 'postgres';

export interface Postgres {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	child: ChildProcess;
	stop(): Promise<void>;
}

/** The newest PostgreSQL server installed from Debian's packages, or undefined. */
export function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? path.join(root, versions[0], 'bin') : undefined;
}

const asRoot = () => process.getuid?.() === 0;

/** The command line for one PostgreSQL program, as the unprivileged user when we are root. */
function command(binDir: string, program: string, args: string[]): [string, string[]] {
	const bin = path.join(binDir, program);
	return asRoot() ? ['runuser', ['-u', RUN_AS, '--', bin, ...args]] : [bin, args];
}

async function chownForServer(dir: string): Promise<void> {
	if (!asRoot()) return;
	const result = await capture('chown', ['-R', `${RUN_AS}:`, dir], { timeoutMs: 30000 });
	if (result.code !== 0) throw new Error(`chown of ${dir} failed: ${result.stderr}`);
}

/** Creates `database` unless it exists. */
async function createDatabase(binDir: string, port: number, user: string, database: string, env: NodeJS.ProcessEnv) {
	const where = ['-h', '127.0.0.1', '-p', String(port), '-U', user];
	const query = `SELECT 1 FROM pg_database WHERE datname = '${database}'`;
	const psql = [...where, '-d', 'postgres', '-tAc', query];
	const exists = await capture(path.join(binDir, 'psql'), psql, { timeoutMs: 30000, env });
	if (exists.stdout.trim() === '1') return;
	const created = await capture(path.join(binDir, 'createdb'), [...where, database], { timeoutMs: 30000, env });
	if (created.code !== 0) throw new Error(`createdb failed: ${created.stderr}`);
}

/**
 * Starts PostgreSQL on `dir` (created with `initdb` on first use; the password is kept there) and
 * creates the database. Resolves once it accepts connections.
 */
export async function startPostgres(dir: string, logFile: string): Promise<Postgres> {
	const binDir = postgresBinDir();
	if (!binDir) throw new Error(`PostgreSQL is not installed. On Debian or Ubuntu: ${INSTALL_HINT}`);
	const dataDir = path.join(dir, 'data');
	const socketDir = path.join(dir, 'socket');
	const passwordFile = path.join(dir, 'password');
	const user = 'n8n';
	const database = 'n8n';
	await fsp.mkdir(socketDir, { recursive: true, mode: 0o700 });
	if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
		await fsp.rm(dataDir, { recursive: true, force: true });
		await fsp.writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
		await chownForServer(dir);
		const [cmd, args] = command(binDir, 'initdb', [
			'-D',
			dataDir,
			'-U',
			user,
			`--pwfile=${passwordFile}`,
			'--auth=scram-sha-256',
			'--encoding=UTF8',
			'--no-sync',
		]);
		const result = await capture(cmd, args, { timeoutMs: 120000, cwd: dir });
		if (result.code !== 0) throw new Error(`initdb failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
	}
	await chownForServer(dir);
	const password = (await fsp.readFile(passwordFile, 'utf8')).trim();
	const port = await freePort();
	// A throw-away cluster: speed over durability.
	const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
	const serverArgs = ['-D', dataDir, '-p', String(port), '-k', socketDir];
	const [cmd, args] = command(binDir, 'postgres', [
		...serverArgs,
		...[...settings, 'max_connections=100'].flatMap((setting) => ['-c', setting]),
	]);
	const started = startLogged(cmd, args, { cwd: dir, logFile });
	const { child } = started;
	const stop = async () => {
		// SIGINT is PostgreSQL's fast shutdown: it does not wait for n8n's pooled connections.
		killGroup(child, 'SIGINT');
		await Promise.race([exited(child), sleep(15000)]);
		await stopGroup(child, 5000);
	};
	const env = { ...process.env, PGPASSWORD: password };
	const isReady = async () => {
		const where = ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres'];
		return (await capture(path.join(binDir, 'pg_isready'), where, { timeoutMs: 10000, env })).code === 0;
	};
	await waitReady(started, 'PostgreSQL', isReady, 60000);
	await createDatabase(binDir, port, user, database, env).catch(async (err: Error) => {
		await stop();
		throw err;
	});
	return { host: '127.0.0.1', port, user, password, database, child, stop };
}
