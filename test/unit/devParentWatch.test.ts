/**
 * The dev script's guard against being orphaned: run as npm runs it (under `sh -c`, which does
 * not exec), the shell killed as npm's SIGTERM kills it, the script must notice and stop.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const WATCH = path.resolve(__dirname, '../../scripts/dev/parentWatch.ts');

async function until(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
	for (const end = Date.now() + withinMs; Date.now() < end;) {
		if (await check()) return true;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return false;
}

it('npm run dev: when the shell npm started it under is killed (npm got SIGTERM), the script stops what it started', async () => {
	const dir = await fsp.mkdtemp(path.join(tmpdir(), 'parent-watch-'));
	const marker = path.join(dir, 'stopped');
	const script = path.join(dir, 'child.js');
	await fsp.writeFile(
		script,
		`require(${JSON.stringify(require.resolve('ts-node/register/transpile-only'))});
		 require(${JSON.stringify(WATCH)}).onParentExit(() => { require('fs').writeFileSync(${JSON.stringify(marker)}, 'yes'); process.exit(0); }, 50);
		 require('fs').writeFileSync(${JSON.stringify(`${marker}.up`)}, String(process.pid));
		 setInterval(() => {}, 1000);`,
	);
	// Two commands, so that the shell stays as the script's parent, as npm's does.
	const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}; true`], {
		cwd: path.resolve(__dirname, '../..'),
		stdio: 'ignore',
	});
	try {
		expect(
			await until(
				async () =>
					await fsp.stat(`${marker}.up`).then(
						() => true,
						() => false,
					),
				20_000,
			),
		).toBe(true);
		shell.kill('SIGTERM');
		expect(
			await until(
				async () =>
					await fsp.stat(marker).then(
						() => true,
						() => false,
					),
				10_000,
			),
		).toBe(true);
	} finally {
		const pid = Number(await fsp.readFile(`${marker}.up`, 'utf8').catch(() => '0'));
		if (pid) {
			try {
				process.kill(pid);
			} catch {
				// already gone, as it should be
			}
		}
		await fsp.rm(dir, { recursive: true, force: true });
	}
}, 40_000);
