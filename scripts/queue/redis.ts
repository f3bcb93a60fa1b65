/**
 * redis-server for n8n's job queue: a free port on 127.0.0.1, a password, no persistence (no RDB
 * snapshots, no AOF), its working folder ours. Never the system service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';

import { freePort, stopGroup, track } from '../real-n8n/process';
import { INSTALL_HINT } from './postgres';

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
	const child = track(spawn('redis-server', ['-'], { cwd: dir, detached: true, stdio: ['pipe', 'pipe', 'pipe'] }));
	child.stdin?.end(`${config}\n`);
	const log = createWriteStream(logFile, { flags: 'a' });
	child.once('exit', () => log.end());
	let output = '';
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`redis-server did not start in time:\n${output}`)), 30000);
		const onData = (chunk: string) => {
			output = (output + chunk).slice(-20000);
			log.write(chunk);
			if (/Ready to accept connections/.test(output)) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout?.setEncoding('utf8').on('data', onData);
		child.stderr?.setEncoding('utf8').on('data', onData);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`redis-server exited (${code}) while starting:\n${output}`));
		});
	}).catch(async (err: Error) => {
		await stopGroup(child, 5000);
		throw err;
	});
	return { host: '127.0.0.1', port, password, child, stop: () => stopGroup(child, 10000) };
}
