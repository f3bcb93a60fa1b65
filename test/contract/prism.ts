/**
 * Prism (Stoplight's OpenAPI tool) as a child process, in mock mode with --errors: it answers a
 * request that breaks the document with a violation (422 for a bad query or body, 401 for a
 * missing auth header, 404 for an unknown path) and any valid request with a made-up 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import * as path from 'node:path';

import { CONTRACT_FILE } from '../emulator/conformance/contract';

const PRISM_BIN = path.resolve(__dirname, '../../node_modules/.bin/prism');

export interface Prism {
	url: string;
	/** Prism's last log lines, for a failure message. */
	log(): string;
	stop(): Promise<void>;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

function accepts(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => resolve(!!socket.end()));
		socket.once('error', () => resolve(false));
	});
}

export async function startPrismMock(deadlineMs = 30_000): Promise<Prism> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		process.execPath,
		[PRISM_BIN, 'mock', CONTRACT_FILE, '--errors', '--host', '127.0.0.1', '--port', String(port)],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	// Drained always (a full pipe would block Prism); the tail is kept for failure messages.
	const lines: string[] = [];
	const keep = (chunk: Buffer) => {
		lines.push(...chunk.toString('utf8').split('\n'));
		lines.splice(0, Math.max(0, lines.length - 40));
	};
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
		await exited;
	};
	const until = Date.now() + deadlineMs;
	while (!(await accepts(port))) {
		if (child.exitCode !== null || Date.now() > until) {
			await stop();
			throw new Error(`Prism did not start listening on ${port}:\n${lines.join('\n')}`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return { url: `http://127.0.0.1:${port}`, log: () => lines.join('\n'), stop };
}
