/**
 * What `npm publish` would ship, checked before it ships (`npm run check:package`). The expected
 * content is derived from package.json and the code it requires, so adding a node only takes
 * package.json. Fails on a stray or missing file, a source map pointing at nothing, a require of
 * anything but Node.js and n8n-workflow, or a tarball that does not install alone and load.
 *
 *   node -r ts-node/register/transpile-only scripts/package/check.ts [package folder]
 */
import { execFile } from 'node:child_process';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

export const ALWAYS_SHIPPED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
/** Packages the shipped code may require besides Node.js's own modules: n8n provides them. */
const PROVIDED_BY_N8N = ['n8n-workflow'];

interface Manifest {
	name: string;
	version: string;
	main?: string;
	dependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	bundledDependencies?: unknown;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

export interface Declared {
	file: string;
	kind: 'node' | 'credential';
}

export interface CheckResult {
	/** Files `npm pack --dry-run` lists, sorted. */
	packed: string[];
	/** Files derived from package.json and the shipped code, sorted. */
	expected: string[];
	problems: string[];
	/** What each declared file turned out to be once installed, e.g. "node fileStorage". */
	loaded: string[];
}

function run(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(command, args, { cwd, env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${stderr || error.message}`));
			else resolve(stdout);
		});
	});
}

const norm = (file: string) => path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, '');

export function declaredFiles(manifest: Manifest): Declared[] {
	return [
		...(manifest.n8n?.nodes ?? []).map((file) => ({ file: norm(file), kind: 'node' as const })),
		...(manifest.n8n?.credentials ?? []).map((file) => ({ file: norm(file), kind: 'credential' as const })),
	];
}

/** The codex file n8n reads beside a node: `X.node.js` → `X.node.json`. */
export const codexOf = (nodeFile: string) => nodeFile.replace(/\.js$/, '.json');

function requiresOf(source: string): string[] {
	const found: string[] = [];
	for (const match of source.matchAll(/\brequire\(\s*(['"`])([^'"`]+)\1\s*\)/g)) found.push(match[2]);
	return found;
}

/** Resolves a relative require the way Node.js does for a file, a .js/.json file or a folder's index.js. */
function resolveRelative(fromFile: string, specifier: string, exists: (file: string) => boolean): string | undefined {
	const base = norm(path.posix.join(path.posix.dirname(fromFile), specifier));
	return [base, `${base}.js`, `${base}.json`, `${base}/index.js`].find(exists);
}

/**
 * Follows relative requires from the declared files inside an installed copy of the package:
 * the modules that must ship, and the problems found on the way (missing modules, packages required
 * that neither Node.js nor n8n provides).
 */
function requireClosure(root: string, entries: string[]): { modules: Set<string>; problems: string[] } {
	const modules = new Set<string>();
	const problems: string[] = [];
	const exists = (file: string) => existsSync(path.join(root, file));
	const queue = entries.filter(exists);
	while (queue.length) {
		const file = queue.shift()!;
		if (modules.has(file)) continue;
		modules.add(file);
		if (!file.endsWith('.js')) continue;
		for (const specifier of requiresOf(readFileSync(path.join(root, file), 'utf8'))) {
			if (specifier.startsWith('.')) {
				const target = resolveRelative(file, specifier, exists);
				if (target) queue.push(target);
				else problems.push(`${file} requires ${specifier}, which is not in the tarball`);
				continue;
			}
			const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
			const builtin = name.startsWith('node:') || builtinModules.includes(name);
			if (!builtin && !PROVIDED_BY_N8N.includes(name)) {
				problems.push(
					`${file} requires '${specifier}': the package has no runtime dependencies (only Node.js modules and ${PROVIDED_BY_N8N.join(', ')})`,
				);
			}
		}
	}
	return { modules, problems };
}

/**
 * Runs in a separate Node.js inside the fresh install: requires each declared file, instantiates
 * each exported class, and prints its kind, name and the icon files its description references
 * (relative to the package root).
 */
const PROBE = String.raw`
const path = require('node:path');
const [root, ...entries] = process.argv.slice(2);
const iconFiles = (icon, dir) => {
	const values = typeof icon === 'string' ? [icon] : icon && typeof icon === 'object' ? Object.values(icon) : [];
	return values.filter((v) => typeof v === 'string' && v.startsWith('file:'))
		.map((v) => path.relative(root, path.resolve(dir, v.slice('file:'.length))).split(path.sep).join('/'));
};
const out = [];
for (const entry of entries) {
	const file = path.join(root, entry);
	const exported = require(file);
	const classes = Object.values(exported).filter((v) => typeof v === 'function');
	if (classes.length === 0) throw new Error(entry + ' exports no class');
	for (const Cls of classes) {
		const instance = new Cls();
		const descriptions = instance.nodeVersions ? Object.values(instance.nodeVersions).map((n) => n.description) : [instance.description];
		if (descriptions[0] && descriptions[0].name) {
			const icons = descriptions.flatMap((d) => iconFiles(d.icon, path.dirname(file)));
			out.push({ entry, kind: 'node', name: descriptions[0].name, icons });
		} else if (typeof instance.name === 'string' && Array.isArray(instance.properties)) {
			out.push({ entry, kind: 'credential', name: instance.name, icons: iconFiles(instance.icon, path.dirname(file)) });
		} else {
			throw new Error(entry + ': ' + Cls.name + ' is neither a node nor a credential');
		}
	}
}
process.stdout.write(JSON.stringify(out));
`;

interface Probed {
	entry: string;
	kind: 'node' | 'credential';
	name: string;
	icons: string[];
}

function manifestProblems(manifest: Manifest, declared: Declared[]): string[] {
	const problems: string[] = [];
	const dependencies = Object.keys(manifest.dependencies ?? {});
	if (dependencies.length > 0) {
		problems.push(`package.json has runtime dependencies (${dependencies.join(', ')}); it must have none`);
	}
	if (manifest.bundleDependencies || manifest.bundledDependencies) problems.push('package.json bundles dependencies');
	if (!declared.some((d) => d.kind === 'node')) problems.push('the n8n section of package.json declares no node');
	return problems;
}

/** The real tarball in `work`, and its file list; a problem if that list is not what the dry run listed. */
async function packTarball(packageDir: string, work: string, packed: string[], problems: string[]): Promise<string> {
	await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], packageDir);
	const tarball = (await fsp.readdir(work)).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
	const tarList = (await run('tar', ['-tzf', path.join(work, tarball)], work))
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => norm(line.replace(/^package\//, '')))
		.sort();
	if (tarList.join('\n') !== packed.join('\n')) {
		problems.push(`the tarball's content differs from what npm pack --dry-run lists: ${tarList.join(', ')}`);
	}
	return path.join(work, tarball);
}

/** Installs the tarball the way n8n installs a community package: alone, no scripts. Its folder, or undefined. */
async function installAlone(
	tarball: string,
	work: string,
	name: string,
	problems: string[],
): Promise<string | undefined> {
	const install = path.join(work, 'install');
	await fsp.mkdir(install);
	await fsp.writeFile(path.join(install, 'package.json'), '{ "name": "fresh-install", "private": true }\n');
	const flags = ['--offline', '--ignore-scripts', '--legacy-peer-deps', '--no-package-lock', '--no-audit', '--no-fund'];
	try {
		await run('npm', ['install', tarball, ...flags], install);
	} catch (err) {
		problems.push(`the tarball does not install alone into a fresh folder: ${(err as Error).message.trim()}`);
		return undefined;
	}
	const installedPackages = (await fsp.readdir(path.join(install, 'node_modules'))).filter((n) => !n.startsWith('.'));
	if (installedPackages.join() !== name) {
		problems.push(`installing the tarball added ${installedPackages.join(', ')}; expected ${name} alone`);
	}
	return path.join(install, 'node_modules', name);
}

/** Requires the declared files in a Node.js that sees only the install and n8n's own packages. */
async function probe(
	root: string,
	present: Declared[],
	work: string,
	peerDir: string,
	problems: string[],
): Promise<Probed[] | undefined> {
	// n8n provides n8n-workflow; the probe sees that and nothing else of this repository.
	const peers = path.join(work, 'peers', 'node_modules');
	await fsp.mkdir(peers, { recursive: true });
	for (const name of PROVIDED_BY_N8N) await fsp.symlink(path.join(peerDir, name), path.join(peers, name), 'dir');
	const probeFile = path.join(work, 'probe.js');
	await fsp.writeFile(probeFile, PROBE);
	try {
		const env = { PATH: process.env.PATH ?? '', NODE_PATH: peers, NODE_ENV: 'production' };
		return JSON.parse(await run(process.execPath, [probeFile, root, ...present.map((d) => d.file)], work, env));
	} catch (err) {
		problems.push(`requiring the declared files from the installed tarball failed: ${(err as Error).message}`);
		return undefined;
	}
}

/** Source maps: none ship, so a reference to one is a reference to a missing file. */
async function sourceMapProblems(root: string, packed: string[]): Promise<string[]> {
	const problems: string[] = [];
	for (const file of packed.filter((f) => /\.(c|m)?js$/.test(f))) {
		const mapRef = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(await fsp.readFile(path.join(root, file), 'utf8'));
		if (mapRef && !mapRef[1].startsWith('data:')) {
			const target = norm(path.posix.join(path.posix.dirname(file), mapRef[1]));
			if (!packed.includes(target)) problems.push(`${file} points at a source map that is not shipped: ${target}`);
		}
	}
	return problems;
}

/**
 * Checks the package in `packageDir` (already built). `peerDir` is a node_modules folder holding
 * n8n-workflow, which n8n provides at run time; by default this repository's own.
 */
export async function checkPackage(
	packageDir: string,
	peerDir = path.resolve(__dirname, '..', '..', 'node_modules'),
): Promise<CheckResult> {
	const manifest = JSON.parse(await fsp.readFile(path.join(packageDir, 'package.json'), 'utf8')) as Manifest;
	const declared = declaredFiles(manifest);
	const problems = manifestProblems(manifest, declared);
	const loaded: string[] = [];
	const dryRun = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], packageDir);
	const packed = (JSON.parse(dryRun) as Array<{ files: Array<{ path: string }> }>)[0].files
		.map((f) => norm(f.path))
		.sort();
	const packedSet = new Set(packed);

	const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'package-check-'));
	try {
		const tarball = await packTarball(packageDir, work, packed, problems);
		const root = await installAlone(tarball, work, manifest.name, problems);
		if (!root) return { packed, expected: [], problems, loaded };
		for (const { file } of declared) {
			if (!packedSet.has(file)) problems.push(`${file} is named in the n8n section of package.json but not shipped`);
		}
		const closure = requireClosure(
			root,
			declared.map((d) => d.file),
		);
		problems.push(...closure.problems);
		const present = declared.filter((d) => existsSync(path.join(root, d.file)));
		const probed = (await probe(root, present, work, peerDir, problems)) ?? [];
		for (const d of present) {
			const found = probed.filter((p) => p.entry === d.file);
			if (probed.length && !found.some((p) => p.kind === d.kind)) {
				problems.push(`${d.file} is declared as a ${d.kind} but exports no ${d.kind}`);
			}
			for (const p of found) loaded.push(`${p.kind} ${p.name} (${p.entry})`);
		}

		const expected = new Set<string>(ALWAYS_SHIPPED);
		if (manifest.main) expected.add(norm(manifest.main));
		for (const file of closure.modules) expected.add(file);
		for (const d of declared) {
			expected.add(d.file);
			if (d.kind === 'node') expected.add(codexOf(d.file));
		}
		for (const p of probed) for (const icon of p.icons) expected.add(icon);
		if (!probed.some((p) => p.icons.length > 0) && probed.length)
			problems.push('no node or credential references an icon');

		for (const file of [...expected].sort()) {
			if (!packedSet.has(file)) problems.push(`missing from the tarball: ${file}`);
		}
		const probeFailed = problems.some((p) => p.startsWith('requiring the declared files'));
		for (const file of packed) {
			// Icons are known only from descriptions that loaded; the failure above is reported already.
			if (probeFailed && /\.(svg|png)$/.test(file)) continue;
			if (!expected.has(file)) problems.push(`not expected in the tarball: ${file}`);
		}
		problems.push(...(await sourceMapProblems(root, packed)));
		return { packed, expected: [...expected].sort(), problems, loaded };
	} finally {
		await fsp.rm(work, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..'));
	const started = Date.now();
	const result = await checkPackage(dir);
	console.log(`package check: npm pack lists ${result.packed.length} files`);
	for (const line of result.loaded) console.log(`  loads from the installed tarball: ${line}`);
	if (result.problems.length) {
		console.error(`package check: FAILED\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
		process.exitCode = 1;
		return;
	}
	console.log(`package check: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) {
	main().catch((err: Error) => {
		console.error(`package check: ${err.message}`);
		process.exit(1);
	});
}
