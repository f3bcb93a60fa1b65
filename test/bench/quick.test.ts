/**
 * `npm run bench -- --quick` as part of `npm test`, so the bench never rots: every scenario runs
 * once at small sizes and the report and its tables come out, with every
 * stored upload checked against its input. Nothing here looks at a figure: on a shared machine the
 * numbers are the bench's business, not a test's. Needs the build (`npm test` makes it first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');

let child: ChildProcess | undefined;
let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'bench-quick-test-'));
});
afterAll(() => {
	// The bench forwards SIGINT to its children and cleans its temp folder.
	if (child && child.exitCode === null) child.kill('SIGINT');
	rmSync(dir, { recursive: true, force: true });
});

function runQuickBench(out: string): Promise<{ code: number | null; output: string }> {
	const env = { ...process.env };
	// A developer's experiment settings must not leak into the smoke run.
	for (const name of ['BENCH_VERIFY', 'BENCH_EMULATOR_DIR', 'BENCH_PACKAGE_DIR', 'BENCH_NODE_FLAGS']) delete env[name];
	// Straight to bench/main.ts: `npm run bench` would rebuild dist, which `npm test` has just built.
	child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'bench/main.ts', '--quick', '--out', out], {
		cwd: REPO,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	return new Promise((done) => child!.once('close', (code) => done({ code, output })));
}

test(
	'the quick bench runs every scenario, writes the report, and checks the bytes',
	async () => {
		expect(existsSync(join(REPO, 'dist/nodes/FileStorage/FileStorage.node.js'))).toBe(true);
		const out = join(dir, 'BENCHMARKS.md');
		const { code, output } = await runQuickBench(out);
		if (code !== 0)
			throw new Error(`the quick bench exited with ${code}:\n${output.split('\n').slice(-40).join('\n')}`);

		const report = readFileSync(out, 'utf8');
		for (const title of [
			'### Upload of 48 MiB: ceiling, this node, the sequential approach',
			'### Sweep: part size at',
			'### Sweep: parallel uploads at',
			'### Upload of 16 MiB with 20 ms of latency per request',
			'### Far service: upload of 24 MiB at 40 ms per answer, 80 ms per new connection, 16 MiB/s per connection',
			'### Far service sweep: Part Size × Parallel Uploads, 16 MiB per run',
			'### Far service: Upload threshold at node version 3, 40 ms per answer',
			'### Single Upload of 8 MiB',
			'### List Contents, Return All over 1,000 entries',
			'### Many files: 24 files of 64 KiB against a far service',
			'### Many files through real n8n',
			'### Real n8n',
			'## Targets',
		]) {
			expect(report).toContain(title);
		}
		// The far table has figures, connection counts included, not placeholders.
		expect(report).toMatch(
			/\| this node, defaults \(8 MiB × 4\) +\| [\d.]+ s +\| \d+ MiB\/s +\| \d+ MiB\/s +\| [\d.]+× +\| [\d.]+× +\| \d+ +\| \d+ /,
		);
		expect(report).toContain('Far service (40 ms per answer');
		// The threshold table has both ways at each size, with the emulator's request counts, and the crossover line.
		expect(report).toMatch(/\| 8 MiB +\| [\d.]+ s +\| [\d.]+ s +\| (one request|parts) +\| [\d.]+× +\| 1 \/ 3 /);
		expect(report).toMatch(/\| 32 MiB +\| [\d.]+ s +\| [\d.]+ s +\| (one request|parts) +\| [\d.]+× +\| 1 \/ 4 /);
		expect(report).toContain('- Far service, Upload threshold at version 3: the crossover');

		// Every upload the runner made was compared with its input; the count is in the report.
		const verified = /: (\d+) uploads matched\./.exec(report);
		expect(Number(verified?.[1])).toBeGreaterThanOrEqual(20);
		expect(output).toContain(`bytes checked: ${verified?.[1]} uploads stored exactly the input (sha256)`);
	},
	10 * 60_000,
);
