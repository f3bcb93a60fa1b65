// Runs n8n's own `n8n-node lint` (from @n8n/node-cli) in strict mode on what this package ships.
//
// Strict mode demands that eslint.config.mjs is n8n's template, word for word, and that template
// lints every .ts file below the folder. The tests, benchmarks and tooling of this repository use
// Node.js freely (servers, files, console), which the community rules forbid and rightly so for
// a node. So the lint runs in a staging folder that holds exactly the package's sources
// (nodes/, credentials/, package.json, tsconfig.json) and the template config copied from the
// installed @n8n/node-cli, never one of our own: what passes here is what n8n verifies.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const cli = join(root, 'node_modules', '@n8n', 'node-cli');
const template = join(cli, 'dist', 'template', 'templates', 'shared', 'default', 'eslint.config.mjs');

const stage = mkdtempSync(join(tmpdir(), 'file-storage-n8n-node-lint-'));
try {
	for (const entry of ['nodes', 'credentials', 'package.json', 'tsconfig.json']) {
		cpSync(join(root, entry), join(stage, entry), { recursive: true });
	}
	cpSync(template, join(stage, 'eslint.config.mjs'));
	symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
	const run = spawnSync(join(root, 'node_modules', '.bin', 'n8n-node'), ['lint'], {
		cwd: stage,
		stdio: 'inherit',
		env: { ...process.env, FORCE_COLOR: '0' },
	});
	if (run.error) throw run.error;
	if (run.status !== 0) {
		console.error(`n8n-node lint (strict) failed with exit ${run.status ?? run.signal}`);
		process.exitCode = 1;
	} else console.log('n8n-node lint (strict): passed');
} finally {
	rmSync(stage, { recursive: true, force: true });
}
