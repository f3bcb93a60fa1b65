// Runs n8n's community package scanner (the check behind n8n verification) on the
// source tree and on the tarball `npm pack` would publish, and fails on any finding.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { SOURCE_FILE_PATTERNS, analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(import.meta.dirname, '..');

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (!result.passed) {
		console.error(`scan ${label}: FAILED – ${result.message}`);
		if (result.details) console.error(result.details);
		return false;
	}
	console.log(`scan ${label}: passed`);
	return true;
}

const sourceOk = await scan('source', root, SOURCE_FILE_PATTERNS);
const work = mkdtempSync(join(tmpdir(), 'file-storage-pack-'));
try {
	execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	const extracted = join(work, 'package');
	const files = readdirSync(join(extracted, 'dist'), { recursive: true });
	if (files.some((f) => String(f).includes('test'))) throw new Error('the tarball contains test files');
	const tarballOk = await scan('npm pack tarball', extracted, undefined);
	if (!sourceOk || !tarballOk) process.exitCode = 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
