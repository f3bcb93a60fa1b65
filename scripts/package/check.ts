/**
 * What `npm publish` would ship, checked before it ships (`npm run check:package`). The expected
 * content is derived from package.json and the code it requires, so adding a node only takes
 * package.json. Fails on a stray or missing file, a source map pointing at nothing, a require of
 * anything but Node.js and n8n-workflow, or a tarball that does not install alone and load.
 *
 *   node -r ts-node/register/transpile-only scripts/package/check.ts [package folder]
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

import { capture, stopStarted } from '../real-n8n/process';

const ALWAYS_SHIPPED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
/** Packages the shipped code may require besides Node.js's own modules: n8n provides them. */
const PROVIDED_BY_N8N = ['n8n-workflow'];

interface Manifest {
	name: string;
	main?: string;
	dependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	bundledDependencies?: unknown;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

async function run(command: string, args: string[], cwd: string, env = process.env): Promise<string> {
	const { code, signal, stdout, stderr } = await capture(command, args, { cwd, env, timeoutMs: 10 * 60_000 });
	if (code !== 0)
		throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${stderr || `exit ${code ?? signal}`}`);
	return stdout;
}

const norm = (file: string) => path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, '');

/**
 * Follows relative requires from the declared files inside an installed copy of the package: the
 * modules that must ship. Adds to `problems` the missing modules and the packages required that
 * neither Node.js nor n8n provides.
 */
function requireClosure(root: string, entries: string[], problems: string[]): Set<string> {
	const modules = new Set<string>();
	const exists = (file: string) => existsSync(path.join(root, file));
	const queue = entries.filter(exists);
	while (queue.length) {
		const file = queue.shift()!;
		if (modules.has(file)) continue;
		modules.add(file);
		if (!file.endsWith('.js')) continue;
		const source = readFileSync(path.join(root, file), 'utf8');
		for (const [, , specifier] of source.matchAll(/\brequire\(\s*(['"`])([^'"`]+)\1\s*\)/g)) {
			if (specifier.startsWith('.')) {
				// As Node.js resolves it: the file, a .js/.json file or a folder's index.js.
				const base = norm(path.posix.join(path.posix.dirname(file), specifier));
				const target = [base, `${base}.js`, `${base}.json`, `${base}/index.js`].find(exists);
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
	return modules;
}

/**
 * Runs in a separate Node.js inside the fresh install: requires each declared file, instantiates each
 * exported class, and prints its kind, name and icon files (relative to the package root).
 */
const PROBE = String.raw`
const path = require('node:path');
const [root, ...entries] = process.argv.slice(2);
const iconFiles = (icon, dir) =>
	(icon && typeof icon === 'object' ? Object.values(icon) : [icon])
		.filter((v) => typeof v === 'string' && v.startsWith('file:'))
		.map((v) => path.relative(root, path.resolve(dir, v.slice('file:'.length))).split(path.sep).join('/'));
const out = [];
for (const entry of entries) {
	const file = path.join(root, entry);
	const classes = Object.values(require(file)).filter((v) => typeof v === 'function');
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

/** Packs the tarball into `work`: its path and the files npm lists; a problem if the tarball holds other files. */
async function pack(packageDir: string, work: string, problems: string[]) {
	const json = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], packageDir);
	const [{ filename, files }] = JSON.parse(json) as Array<{ filename: string; files: Array<{ path: string }> }>;
	const packed = files.map((f) => norm(f.path)).sort();
	const tarball = path.join(work, path.basename(filename));
	const tarList = (await run('tar', ['-tzf', tarball], work))
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => norm(line.replace(/^package\//, '')))
		.sort();
	if (tarList.join('\n') !== packed.join('\n'))
		problems.push(`the tarball's content differs from what npm pack lists: ${tarList.join(', ')}`);
	return { packed, tarball };
}

/** Installs the tarball into `install` the way n8n installs a community package: alone, no scripts. */
async function installAlone(tarball: string, install: string): Promise<string[]> {
	await fsp.mkdir(install);
	await fsp.writeFile(path.join(install, 'package.json'), '{ "name": "fresh-install", "private": true }\n');
	const flags = ['--offline', '--ignore-scripts', '--legacy-peer-deps', '--no-package-lock', '--no-audit', '--no-fund'];
	await run('npm', ['install', tarball, ...flags], install);
	return (await fsp.readdir(path.join(install, 'node_modules'))).filter((name) => !name.startsWith('.'));
}

/** Requires the declared files in a Node.js that sees only the install and n8n's own packages. */
async function probe(root: string, files: string[], work: string, peerDir: string): Promise<Probed[]> {
	// n8n provides n8n-workflow; the probe sees that and nothing else of this repository.
	const peers = path.join(work, 'peers', 'node_modules');
	await fsp.mkdir(peers, { recursive: true });
	for (const name of PROVIDED_BY_N8N) await fsp.symlink(path.join(peerDir, name), path.join(peers, name), 'dir');
	const probeFile = path.join(work, 'probe.js');
	await fsp.writeFile(probeFile, PROBE);
	const env = { PATH: process.env.PATH ?? '', NODE_PATH: peers, NODE_ENV: 'production' };
	return JSON.parse(await run(process.execPath, [probeFile, root, ...files], work, env));
}

/** Source maps: none ship, so a reference to one is a reference to a missing file. */
function sourceMapProblems(root: string, packed: string[]): string[] {
	return packed
		.filter((file) => /\.(c|m)?js$/.test(file))
		.flatMap((file) => {
			const mapRef = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path.join(root, file), 'utf8'))?.[1];
			if (!mapRef || mapRef.startsWith('data:')) return [];
			const target = norm(path.posix.join(path.posix.dirname(file), mapRef));
			return packed.includes(target) ? [] : [`${file} points at a source map that is not shipped: ${target}`];
		});
}

/**
 * Checks the package in `packageDir` (already built). `peerDir` is a node_modules folder holding
 * n8n-workflow, which n8n provides at run time; by default this repository's own. Returns the files
 * npm packs and the files expected (both sorted), the problems, and what each declared file turned
 * out to be once installed (e.g. "node fileStorage (dist/nodes/…)").
 */
export async function checkPackage(packageDir: string, peerDir = path.resolve(__dirname, '..', '..', 'node_modules')) {
	const manifest = JSON.parse(await fsp.readFile(path.join(packageDir, 'package.json'), 'utf8')) as Manifest;
	const declared = [
		...(manifest.n8n?.nodes ?? []).map((file) => ({ file: norm(file), kind: 'node' as const })),
		...(manifest.n8n?.credentials ?? []).map((file) => ({ file: norm(file), kind: 'credential' as const })),
	];
	const dependencies = Object.keys(manifest.dependencies ?? {});
	const problems = [
		[dependencies.length > 0, `package.json has runtime dependencies (${dependencies.join(', ')}); it must have none`],
		[manifest.bundleDependencies || manifest.bundledDependencies, 'package.json bundles dependencies'],
		[!declared.some((d) => d.kind === 'node'), 'the n8n section of package.json declares no node'],
	].flatMap(([broken, message]) => (broken ? [message as string] : []));
	const loaded: string[] = [];
	/** Records a failed step as a problem after `what`; the step's value is then undefined. */
	const failed = (what: string) => (err: Error) => {
		problems.push(`${what}: ${err.message.trim()}`);
		return undefined;
	};
	const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'package-check-'));
	try {
		const { packed, tarball } = await pack(packageDir, work, problems);
		const install = path.join(work, 'install');
		const installed = await installAlone(tarball, install).catch(
			failed('the tarball does not install alone into a fresh folder'),
		);
		if (!installed) return { packed, expected: [] as string[], problems, loaded };
		if (installed.join() !== manifest.name)
			problems.push(`installing the tarball added ${installed.join(', ')}; expected ${manifest.name} alone`);
		const root = path.join(install, 'node_modules', manifest.name);
		const declaredFiles = declared.map((d) => d.file);
		for (const file of declaredFiles.filter((file) => !packed.includes(file)))
			problems.push(`${file} is named in the n8n section of package.json but not shipped`);
		const modules = requireClosure(root, declaredFiles, problems);
		const present = declared.filter((d) => existsSync(path.join(root, d.file)));
		const presentFiles = present.map((d) => d.file);
		const probed = await probe(root, presentFiles, work, peerDir).catch(
			failed('requiring the declared files from the installed tarball failed'),
		);
		for (const d of present) {
			const found = probed?.filter((p) => p.entry === d.file) ?? [];
			if (probed?.length && !found.some((p) => p.kind === d.kind))
				problems.push(`${d.file} is declared as a ${d.kind} but exports no ${d.kind}`);
			for (const p of found) loaded.push(`${p.kind} ${p.name} (${p.entry})`);
		}
		if (probed?.length && !probed.some((p) => p.icons.length > 0))
			problems.push('no node or credential references an icon');

		const expected = new Set([
			...ALWAYS_SHIPPED,
			...(manifest.main ? [norm(manifest.main)] : []),
			...modules,
			// A node ships with its codex file: `X.node.js` → `X.node.json`.
			...declared.flatMap((d) => (d.kind === 'node' ? [d.file, d.file.replace(/\.js$/, '.json')] : [d.file])),
			...(probed ?? []).flatMap((p) => p.icons),
		]);
		for (const file of [...expected].sort())
			if (!packed.includes(file)) problems.push(`missing from the tarball: ${file}`);
		for (const file of packed) {
			// Icons are known only from descriptions that loaded; the probe's failure is reported already.
			if (!probed && /\.(svg|png)$/.test(file)) continue;
			if (!expected.has(file)) problems.push(`not expected in the tarball: ${file}`);
		}
		problems.push(...sourceMapProblems(root, packed));
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
	// npm runs in a process group of its own, which a terminal's Ctrl-C does not reach.
	process.once('SIGINT', () => void stopStarted().finally(() => process.exit(130)));
	main().catch((err: Error) => {
		console.error(`package check: ${err.message}`);
		process.exit(1);
	});
}
