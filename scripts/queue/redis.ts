/**
 * redis-server for n8n's job queue: a free port on 127.0.0.1, a password, no persistence (no RDB
 * snapshots, no AOF), its working folder ours. Never the system service.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';

import { freePort, startLogged, stopGroup, waitReady } from '../real-n8n/process';
import { INSTALL_HINT, postgresBinDir } from './postgres';

export interface Redis {
	host: string;
	port: number;
	password: string;
	child: ChildProcess;
	stop(): Promise<void>;
}

export function redisInstalled(): boolean {
	return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Throws, saying how to install them, unless PostgreSQL and Redis are both installed. */
export function requireQueueServices(): void {
	const missing = [postgresBinDir() ? undefined : 'PostgreSQL', redisInstalled() ? undefined : 'Redis'].filter(Boolean);
	if (missing.length > 0) {
		throw new Error(
			`${missing.join(' and ')} not installed; queue mode needs both. On Debian or Ubuntu:\n  ${INSTALL_HINT}`,
		);
	}
}

export async function startRedis(dir: string, logFile: string): Promise<Redis> {
	if (!redisInstalled()) throw new Error(`redis-server is not installed. On Debian or Ubuntu: ${INSTALL_HINT}`);
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
	].join('\n');
	const started = startLogged('redis-server', ['-'], { cwd: dir, logFile, stdin: 'pipe' });
	const { child } = started;
	child.stdin?.end(`${config}\n`);
	await waitReady(started, 'redis-server', () => /Ready to accept connections/.test(started.output()), 30000, 100);
	return { host: '127.0.0.1', port, password, child, stop: () => stopGroup(child, 10000) };
}
