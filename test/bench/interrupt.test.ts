/**
 * Ctrl-C during a bench run through real n8n leaves no n8n behind. A terminal sends SIGINT to the
 * whole foreground process group; `n8n execute` runs in a process group of its own (so its task
 * runner can be stopped with it), so the bench must stop it itself before it exits.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Running, not a zombie waiting to be reaped. */
const isAlive = (pid: number) => {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
};

it('stops the running `n8n execute` when Ctrl-C ends the bench', async () => {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-interrupt-'));
	const pidFile = path.join(dir, 'fake-n8n.pid');
	let n8nPid = 0;
	try {
		const driver = path.join(__dirname, 'fixtures', 'interrupt-driver.ts');
		const bench = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', driver, dir], {
			cwd: path.join(__dirname, '..', '..'),
			// Its own process group, as a terminal's foreground job.
			detached: true,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		bench.stdout.setEncoding('utf8');
		let out = '';
		bench.stdout.on('data', (chunk: string) => (out += chunk));
		for (let i = 0; i < 300 && !(out.includes('started') && existsSync(pidFile)); i++) await sleep(100);
		n8nPid = Number(readFileSync(pidFile, 'utf8'));
		expect(isAlive(n8nPid)).toBe(true);
		const exited = once(bench, 'exit');
		process.kill(-bench.pid!, 'SIGINT');
		await exited;
		await sleep(500);
		expect(isAlive(n8nPid)).toBe(false);
	} finally {
		if (n8nPid && isAlive(n8nPid)) process.kill(-n8nPid, 'SIGKILL');
		rmSync(dir, { recursive: true, force: true });
	}
});
