/**
 * The package check (scripts/package/check.ts) on a small made-up community package: it passes the
 * package as built, and fails for each way a tarball goes wrong. Each case packs and installs for
 * real (about 2 s each).
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { checkPackage } from '../../scripts/package/check';

let root = '';
let counter = 0;

const NODE = `"use strict";
const n8n_workflow_1 = require("n8n-workflow");
const helper_1 = require("./helper");
class Foo {
	constructor() {
		this.description = { displayName: "Foo", name: "foo", icon: { light: "file:foo.svg", dark: "file:foo.dark.svg" }, version: 1, properties: [], inputs: ["main"], outputs: ["main"] };
		this.kind = typeof n8n_workflow_1.NodeOperationError + helper_1.answer;
	}
}
exports.Foo = Foo;
`;
const TRIGGER = `"use strict";
class FooTrigger {
	constructor() {
		this.description = { displayName: "Foo Trigger", name: "fooTrigger", icon: "file:foo.svg", version: 1, properties: [], inputs: [], outputs: ["main"] };
	}
}
exports.FooTrigger = FooTrigger;
`;
const CREDENTIAL = `"use strict";
const crypto = require("node:crypto");
class FooApi {
	constructor() { this.name = "fooApi"; this.displayName = "Foo API"; this.icon = "file:fooApi.svg"; this.properties = []; this.hash = crypto.createHash; }
}
exports.FooApi = FooApi;
`;

/** Writes a built community package (what `npm run build` leaves) and returns its folder. */
async function fixture(): Promise<string> {
	const dir = path.join(root, `pkg-${++counter}`);
	const files: Record<string, string> = {
		'package.json': JSON.stringify(
			{
				name: 'n8n-nodes-fixture',
				version: '1.0.0',
				main: 'index.js',
				files: ['dist', 'CHANGELOG.md'],
				n8n: {
					n8nNodesApiVersion: 1,
					nodes: ['dist/nodes/Foo/Foo.node.js'],
					credentials: ['dist/credentials/FooApi.credentials.js'],
				},
				peerDependencies: { 'n8n-workflow': '*' },
			},
			null,
			2,
		),
		'README.md': '# fixture\n',
		LICENSE: 'MIT\n',
		'CHANGELOG.md': '# Changelog\n',
		'index.js': 'module.exports = {};\n',
		'src/Foo.node.ts': '// not shipped\n',
		'dist/nodes/Foo/Foo.node.js': NODE,
		'dist/nodes/Foo/Foo.node.json': '{ "node": "n8n-nodes-fixture.foo" }\n',
		'dist/nodes/Foo/helper.js': 'exports.answer = 42;\n',
		'dist/nodes/Foo/foo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
		'dist/nodes/Foo/foo.dark.svg': '<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>\n',
		'dist/credentials/FooApi.credentials.js': CREDENTIAL,
		'dist/credentials/fooApi.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
	};
	for (const [file, content] of Object.entries(files)) {
		await fsp.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
		await fsp.writeFile(path.join(dir, file), content);
	}
	return dir;
}

async function editJson(file: string, edit: (value: Record<string, any>) => void): Promise<void> {
	const value = JSON.parse(await fsp.readFile(file, 'utf8'));
	edit(value);
	await fsp.writeFile(file, JSON.stringify(value, null, 2));
}

beforeAll(async () => {
	root = await fsp.mkdtemp(path.join(os.tmpdir(), 'package-check-test-'));
});

afterAll(async () => {
	if (root) await fsp.rm(root, { recursive: true, force: true });
});

it('passes a package that ships exactly its declared files, their modules, codex and icons', async () => {
	const result = await checkPackage(await fixture());
	expect(result.problems).toEqual([]);
	expect(result.packed).toEqual([
		'CHANGELOG.md',
		'LICENSE',
		'README.md',
		'dist/credentials/FooApi.credentials.js',
		'dist/credentials/fooApi.svg',
		'dist/nodes/Foo/Foo.node.js',
		'dist/nodes/Foo/Foo.node.json',
		'dist/nodes/Foo/foo.dark.svg',
		'dist/nodes/Foo/foo.svg',
		'dist/nodes/Foo/helper.js',
		'index.js',
		'package.json',
	]);
	expect(result.expected).toEqual(result.packed);
	expect(result.loaded).toEqual([
		'node foo (dist/nodes/Foo/Foo.node.js)',
		'credential fooApi (dist/credentials/FooApi.credentials.js)',
	]);
});

it('fails when a file is added to the tarball: a stray build output, a test, a source map', async () => {
	const dir = await fixture();
	await fsp.writeFile(path.join(dir, 'dist/nodes/Foo/old.js'), 'exports.old = true;\n');
	await fsp.writeFile(path.join(dir, 'dist/nodes/Foo/Foo.node.test.js'), '\n');
	await fsp.appendFile(path.join(dir, 'dist/nodes/Foo/helper.js'), '//# sourceMappingURL=helper.js.map\n');
	await fsp.writeFile(path.join(dir, 'dist/nodes/Foo/Foo.node.js.map'), '{}\n');
	const { problems } = await checkPackage(dir);
	expect(problems).toEqual([
		'not expected in the tarball: dist/nodes/Foo/Foo.node.js.map',
		'not expected in the tarball: dist/nodes/Foo/Foo.node.test.js',
		'not expected in the tarball: dist/nodes/Foo/old.js',
		'dist/nodes/Foo/helper.js points at a source map that is not shipped: dist/nodes/Foo/helper.js.map',
	]);
});

it('fails when an icon, the codex file or the changelog is missing from the tarball', async () => {
	const dir = await fixture();
	await fsp.rm(path.join(dir, 'dist/nodes/Foo/foo.dark.svg'));
	await fsp.rm(path.join(dir, 'dist/nodes/Foo/Foo.node.json'));
	await editJson(path.join(dir, 'package.json'), (p) => (p.files = ['dist']));
	const { problems } = await checkPackage(dir);
	expect(problems).toEqual([
		'missing from the tarball: CHANGELOG.md',
		'missing from the tarball: dist/nodes/Foo/Foo.node.json',
		'missing from the tarball: dist/nodes/Foo/foo.dark.svg',
	]);
});

it('fails when a required module is not shipped, or a module requires a package n8n does not provide', async () => {
	const dir = await fixture();
	await fsp.rm(path.join(dir, 'dist/nodes/Foo/helper.js'));
	await fsp.appendFile(path.join(dir, 'dist/credentials/FooApi.credentials.js'), 'require("lodash");\n');
	const { problems } = await checkPackage(dir);
	expect(problems).toEqual([
		'dist/nodes/Foo/Foo.node.js requires ./helper, which is not in the tarball',
		"dist/credentials/FooApi.credentials.js requires 'lodash': the package has no runtime dependencies (only Node.js modules and n8n-workflow)",
		expect.stringMatching(
			/^requiring the declared files from the installed tarball failed: .*Cannot find module '\.\/helper'/s,
		),
	]);
});

it('fails when package.json gets a runtime dependency', async () => {
	const dir = await fixture();
	await editJson(path.join(dir, 'package.json'), (p) => (p.dependencies = { 'left-pad': '1.3.0' }));
	const { problems } = await checkPackage(dir);
	expect(problems).toContain('package.json has runtime dependencies (left-pad); it must have none');
});

it('takes a new node (a trigger) from package.json alone, and fails while it is declared but not built', async () => {
	const dir = await fixture();
	await editJson(path.join(dir, 'package.json'), (p) => p.n8n.nodes.push('dist/nodes/Foo/FooTrigger.node.js'));
	const unbuilt = await checkPackage(dir);
	expect(unbuilt.problems).toEqual([
		'dist/nodes/Foo/FooTrigger.node.js is named in the n8n section of package.json but not shipped',
		'missing from the tarball: dist/nodes/Foo/FooTrigger.node.js',
		'missing from the tarball: dist/nodes/Foo/FooTrigger.node.json',
	]);

	await fsp.writeFile(path.join(dir, 'dist/nodes/Foo/FooTrigger.node.js'), TRIGGER);
	await fsp.writeFile(path.join(dir, 'dist/nodes/Foo/FooTrigger.node.json'), '{}\n');
	const built = await checkPackage(dir);
	expect(built.problems).toEqual([]);
	expect(built.loaded).toContain('node fooTrigger (dist/nodes/Foo/FooTrigger.node.js)');
});
