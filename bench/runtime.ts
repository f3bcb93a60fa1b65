/**
 * Which Node.js the bench measures on. n8n 2.x runs only on Node.js 24 and later, and the garbage
 * collector behaves differently there (BENCHMARKS.md, findings), so a bench started on an older
 * Node.js starts itself again on the Node.js 24 of the real-n8n runtime (installed on first use)
 * and measures the node once more on the Node.js it was started with, as the n8n 1.x row.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

import { ensureRuntime } from '../scripts/real-n8n/install';
import { stopStarted } from '../scripts/real-n8n/process';
import { PROFILES } from '../scripts/real-n8n/profiles';

const MIN_MAJOR = 24;

/** Set in the restarted bench: the Node.js it was first started with. */
const OLDER_NODE = 'BENCH_OLDER_NODE';

export type OlderNode = { execPath: string; version: string };

export function olderNode(): OlderNode | undefined {
	const value = process.env[OLDER_NODE];
	if (!value) return undefined;
	const [version, execPath] = value.split(/ (.*)/s, 2);
	return { execPath, version };
}

/**
 * Resolves when this process is the one to measure on; otherwise runs the bench on Node.js 24 and
 * resolves with its exit code.
 */
export async function restartOnCurrentNode(log: (line: string) => void): Promise<number | undefined> {
	if (Number(process.versions.node.split('.')[0]) >= MIN_MAJOR) return undefined;
	log(`bench: Node.js ${process.versions.node} here; n8n 2.x runs on ${MIN_MAJOR}, so the bench runs there`);
	const runtime = await ensureRuntime(PROFILES.current, log);
	const child = spawn(runtime.nodeBin, [...process.execArgv, ...process.argv.slice(1)], {
		stdio: 'inherit',
		env: { ...process.env, [OLDER_NODE]: `${process.versions.node} ${process.execPath}` },
	});
	const forward = () => child.kill('SIGINT');
	process.once('SIGINT', forward);
	const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
	process.off('SIGINT', forward);
	return code ?? (signal ? 1 : 0);
}

/**
 * Ctrl-C: stops what the bench started in process groups of their own (`n8n execute` and n8n's CLI,
 * which the terminal's SIGINT does not reach), then `cleanUp`, then exits with 130.
 */
export function exitOnInterrupt(cleanUp: () => void): void {
	process.once('SIGINT', () => {
		void stopStarted().finally(() => {
			cleanUp();
			process.exit(130);
		});
	});
}
