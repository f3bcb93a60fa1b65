/**
 * Installs a real n8n and the Node.js it needs into `.cache/real-n8n/n8n-<version>/`, from the
 * npm registry, outside this package's node_modules (n8n's tree is ~3 GB, and n8n's loaders would
 * trip over it there). Idempotent: a finished install leaves a marker and is not touched again.
 *
 *   node -r ts-node/register/transpile-only scripts/real-n8n/install.ts [current|compat|all]
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { explainNpmFailure } from './npm-failure';
import { CACHE_ROOT, NODE_PACKAGE, PROFILES, profileByName, type Profile } from './profiles';

export type InstalledRuntime = ReturnType<typeof runtimeOf>;

type Log = (line: string) => void;

/** The Node-API version sqlite3 is built at (see provideSqlite). */
const SQLITE_NAPI_VERSION = 6;

/** `marker` is written when an install is complete (what was installed); `lockFile` is the committed npm lock file. */
function runtimeOf(profile: Profile) {
	const dir = path.join(CACHE_ROOT, `n8n-${profile.n8nVersion}`);
	const nodeBinDir = path.join(dir, 'node_modules', NODE_PACKAGE, 'bin');
	return {
		profile,
		dir,
		nodeBin: path.join(nodeBinDir, 'node'),
		nodeBinDir,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: path.join(dir, '.installed.json'),
		lockFile: path.join(__dirname, 'locks', `n8n-${profile.n8nVersion}.${NODE_PACKAGE}.package-lock.json`),
	};
}

function wantedMarker(profile: Profile) {
	const { n8nVersion, nodeVersion, overrides = {} } = profile;
	return { n8nVersion, nodePackage: NODE_PACKAGE, nodeVersion, overrides };
}

/** The runtime if it is fully installed (its marker records this install), without installing anything. */
export function installedRuntime(profile: Profile): InstalledRuntime | undefined {
	const runtime = runtimeOf(profile);
	try {
		const { seconds, ...recorded } = JSON.parse(readFileSync(runtime.marker, 'utf8')) as { seconds?: number };
		if (JSON.stringify(recorded) !== JSON.stringify(wantedMarker(profile))) return undefined;
	} catch {
		return undefined; // no marker, or a torn one
	}
	return existsSync(runtime.nodeBin) && existsSync(runtime.n8nBin) ? runtime : undefined;
}

/**
 * Runs npm in `dir` with its chatter appended to `install.log`, and prints a line of progress every
 * 15 s so a first install of several minutes never looks hung. A failed `npm install` is explained
 * from this attempt's lines (see npm-failure.ts).
 */
async function runNpm(args: string[], dir: string, label: string, profile: Profile, log: Log): Promise<void> {
	const logFile = path.join(dir, 'install.log');
	const out = await fsp.open(logFile, 'a');
	const from = (await out.stat()).size;
	const started = Date.now();
	const ticker = setInterval(() => {
		const seconds = Math.round((Date.now() - started) / 1000);
		log(`  … ${label}: ${seconds} s (details: ${path.relative(process.cwd(), logFile)})`);
	}, 15000);
	try {
		await out.write(`\n$ npm ${args.join(' ')}\n`);
		// node-gyp reads npm_config_* from its own environment, so the variable reaches it whatever npm
		// makes of the name (npm 11 warns that it does not know it; the child inherits it all the same).
		const env = { ...process.env, npm_config_napi_build_version: String(SQLITE_NAPI_VERSION) };
		const [code] = await once(spawn('npm', args, { cwd: dir, env, stdio: ['ignore', out.fd, out.fd] }), 'exit');
		if (code === 0) return;
		const attempt = (await fsp.readFile(logFile)).subarray(from).toString('utf8');
		const why = args[0] === 'install' ? `${explainNpmFailure(attempt, profile.n8nVersion).message}\n` : '';
		const lastLines = attempt.split('\n').slice(-30).join('\n');
		throw new Error(`${why}npm ${args[0]} failed (exit ${code}) in ${dir}; last lines of ${logFile}:\n${lastLines}`);
	} finally {
		clearInterval(ticker);
		await out.close();
	}
}

/** One installer at a time per runtime (dev and tests may start together); a dead holder's lock is taken over. */
async function withLock<T>(lockDir: string, log: Log, work: () => Promise<T>): Promise<T> {
	const pidFile = path.join(lockDir, 'pid');
	const deadline = Date.now() + 30 * 60_000;
	let told = false;
	for (;;) {
		try {
			await fsp.mkdir(lockDir);
			await fsp.writeFile(pidFile, String(process.pid));
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const holder = Number(await fsp.readFile(pidFile, 'utf8').catch(() => '0'));
			if (holder && !isAlive(holder)) {
				await fsp.rm(lockDir, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`gave up waiting for another install to finish (lock ${lockDir})`);
			if (!told) log(`  another process (pid ${holder || '?'}) is installing this runtime; waiting for it`);
			told = true;
			await sleep(2000);
		}
	}
	try {
		return await work();
	} finally {
		await fsp.rm(lockDir, { recursive: true, force: true });
	}
}

function isAlive(pid: number): boolean {
	try {
		return process.kill(pid, 0);
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * sqlite3, n8n's database driver, is the one native module n8n needs. Its prebuilt download is not
 * reachable from everywhere, so it is built from source once (a few minutes) and the result is kept
 * for every runtime. That holds only for a build at a fixed Node-API version: left to node-gyp, it
 * takes the newest the headers offer (10 for Node.js 24), and such a build crashes Node.js 20 on load
 * (SIGSEGV). It is built at Node-API 6, the version sqlite3's own prebuilt binaries target, which
 * Node.js 20 and 24 both load. Every build, new or reused, is loaded once by the runtime's Node.js.
 */
async function provideSqlite(runtime: InstalledRuntime, log: Log): Promise<void> {
	const moduleDir = path.join(runtime.dir, 'node_modules', 'sqlite3');
	const { version } = JSON.parse(readFileSync(path.join(moduleDir, 'package.json'), 'utf8')) as { version: string };
	const keptName = `sqlite3-${version}-napi${SQLITE_NAPI_VERSION}-${process.platform}-${process.arch}.node`;
	const kept = path.join(CACHE_ROOT, 'native', keptName);
	const target = path.join(moduleDir, 'build', 'Release', 'node_sqlite3.node');
	if (existsSync(kept)) {
		log(`  step 2/2: sqlite3 ${version}: reusing the build kept from an earlier install`);
		await fsp.mkdir(path.dirname(target), { recursive: true });
		await fsp.copyFile(kept, target);
		if (loads(runtime, target)) return;
		log(`  the kept build does not load in Node.js ${runtime.profile.nodeVersion}: building it again`);
		await fsp.rm(kept, { force: true });
	}
	log(`  step 2/2: building sqlite3 ${version} (n8n's database driver) from source`);
	const args = ['rebuild', 'sqlite3', '--ignore-scripts=false', '--no-audit', '--no-fund'];
	// The runtime's own Node.js package carries its headers: node-gyp builds against them, with no
	// download from nodejs.org (not reachable from everywhere) and no nodedir set by hand.
	const nodeDir = path.join(runtime.dir, 'node_modules', `node-${process.platform}-${process.arch}`);
	if (existsSync(path.join(nodeDir, 'include', 'node'))) args.push(`--nodedir=${nodeDir}`);
	await runNpm(args, runtime.dir, 'sqlite3 build', runtime.profile, log);
	if (!existsSync(target))
		throw new Error(`sqlite3 was rebuilt but ${target} is missing; see ${runtime.dir}/install.log`);
	if (!loads(runtime, target))
		throw new Error(`sqlite3 was rebuilt but Node.js ${runtime.profile.nodeVersion} cannot load ${target}`);
	await fsp.mkdir(path.dirname(kept), { recursive: true });
	await fsp.copyFile(target, `${kept}.tmp`);
	await fsp.rename(`${kept}.tmp`, kept);
}

/** True when the runtime's Node.js loads the native module at `file` (a crash or a throw is false). */
function loads(runtime: InstalledRuntime, file: string): boolean {
	const script = `require(${JSON.stringify(file)})`;
	const result = spawnSync(runtime.nodeBin, ['-e', script], { stdio: 'ignore', timeout: 60000 });
	return result.status === 0;
}

export async function ensureRuntime(profile: Profile, log: Log = (line) => process.stdout.write(`${line}\n`)) {
	const ready = installedRuntime(profile);
	if (ready) return ready;
	const runtime = runtimeOf(profile);
	const { dir } = runtime;
	await fsp.mkdir(CACHE_ROOT, { recursive: true });
	return await withLock(`${dir}.lock`, log, async () => {
		const doneMeanwhile = installedRuntime(profile);
		if (doneMeanwhile) return doneMeanwhile;
		const started = Date.now();
		log(
			`real n8n: installing n8n ${profile.n8nVersion} with Node.js ${profile.nodeVersion} into ${path.relative(process.cwd(), dir) || dir}`,
		);
		log('  first time only: about 3 GB from the npm registry, 4 to 9 minutes on a busy 2-core machine');
		await fsp.mkdir(dir, { recursive: true });
		await fsp.rm(runtime.marker, { force: true });
		const manifest = {
			name: `real-n8n-${profile.n8nVersion}`,
			private: true,
			description: 'Cache of a real n8n for the e2e tests and npm run dev; created by scripts/real-n8n/install.ts',
			dependencies: { n8n: profile.n8nVersion, [NODE_PACKAGE]: profile.nodeVersion },
			...(profile.overrides ? { overrides: profile.overrides } : {}),
		};
		await fsp.writeFile(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		const haveLock = existsSync(runtime.lockFile);
		if (haveLock) await fsp.copyFile(runtime.lockFile, path.join(dir, 'package-lock.json'));
		// `npm install` rather than `npm ci`: it installs the locked versions just the same, and
		// unlike `npm ci` accepts a lock file that lists only this OS's optional packages.
		log(
			`  step 1/2: npm install (${haveLock ? 'versions pinned by the committed lock file' : 'no committed lock file for this platform: versions resolved today'})`,
		);
		// Install scripts stay off: some packages in n8n's tree fail them under npm (only-allow pnpm)
		// or on this Node; the one native module n8n needs is built explicitly below.
		const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=warn'];
		await runNpm(args, dir, 'npm install', profile, log);
		await provideSqlite(runtime, log);
		for (const file of [runtime.nodeBin, runtime.n8nBin]) {
			if (!existsSync(file)) throw new Error(`install finished but ${file} is missing; see ${dir}/install.log`);
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		await fsp.writeFile(runtime.marker, `${JSON.stringify({ ...wantedMarker(profile), seconds }, null, 2)}\n`);
		log(`real n8n: n8n ${profile.n8nVersion} ready after ${seconds} s`);
		if (!haveLock) log(`  to pin what was installed: cp ${path.join(dir, 'package-lock.json')} ${runtime.lockFile}`);
		return runtime;
	});
}

async function main(): Promise<void> {
	const wanted = process.argv[2] ?? 'current';
	const profiles = wanted === 'all' ? Object.values(PROFILES) : [profileByName(wanted)];
	for (const profile of profiles) {
		const runtime = await ensureRuntime(profile);
		console.log(
			`real n8n: ${profile.name}: n8n ${profile.n8nVersion} on Node.js ${profile.nodeVersion} (${path.relative(process.cwd(), runtime.dir)})`,
		);
	}
}

if (require.main === module) {
	main().catch((err: Error) => {
		console.error(`real n8n: install failed: ${err.message}`);
		process.exit(1);
	});
}
