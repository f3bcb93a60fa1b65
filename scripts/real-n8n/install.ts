/**
 * Installs a real n8n and the Node.js it needs into `.cache/real-n8n/n8n-<version>/`, from the
 * npm registry, outside this package's node_modules (n8n's tree is ~3 GB, and n8n's loaders would
 * trip over it there). Idempotent: a finished install leaves a marker and is not touched again.
 *
 *   node -r ts-node/register/transpile-only scripts/real-n8n/install.ts [current|compat|all]
 */
import { spawn } from 'node:child_process';
import { promises as fsp, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { explainNpmFailure } from './npm-failure';
import { CACHE_ROOT, PROFILES, nodePackageName, profileByName, runtimePaths, type Profile } from './profiles';

export interface InstalledRuntime {
	profile: Profile;
	dir: string;
	nodeBin: string;
	nodeBinDir: string;
	n8nBin: string;
}

type Log = (line: string) => void;

const LOCK_WAIT_MS = 30 * 60 * 1000;

interface Marker {
	n8nVersion: string;
	nodePackage: string;
	nodeVersion: string;
	overrides: Record<string, string>;
	seconds?: number;
}

function wantedMarker(profile: Profile): Marker {
	return {
		n8nVersion: profile.n8nVersion,
		nodePackage: nodePackageName(),
		nodeVersion: profile.nodeVersion,
		overrides: profile.overrides ?? {},
	};
}

/** Whether the marker in `file` records the install `wanted` (a missing or torn marker does not). */
function sameInstall(file: string, wanted: Marker): boolean {
	try {
		const { seconds, ...recorded } = JSON.parse(readFileSync(file, 'utf8')) as Marker;
		return JSON.stringify(recorded) === JSON.stringify(wanted);
	} catch {
		return false;
	}
}

function runtimeOf(profile: Profile): InstalledRuntime {
	const { dir, nodeBin, nodeBinDir, n8nBin } = runtimePaths(profile);
	return { profile, dir, nodeBin, nodeBinDir, n8nBin };
}

/** The runtime if it is fully installed, without installing anything. */
export function installedRuntime(profile: Profile): InstalledRuntime | undefined {
	const paths = runtimePaths(profile);
	if (!sameInstall(paths.marker, wantedMarker(profile))) return undefined;
	if (!existsSync(paths.nodeBin) || !existsSync(paths.n8nBin)) return undefined;
	return runtimeOf(profile);
}

function npmCommand(): string {
	return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/**
 * Runs npm with its chatter going to the install log, and prints a line of progress every
 * `everyMs` so a first install of several minutes never looks hung.
 */
async function runNpm(
	args: string[],
	cwd: string,
	logFile: string,
	label: string,
	log: Log,
	everyMs = 15000,
): Promise<void> {
	const out = await fsp.open(logFile, 'a');
	const started = Date.now();
	try {
		await out.write(`\n$ npm ${args.join(' ')}\n`);
		const child = spawn(npmCommand(), args, { cwd, stdio: ['ignore', out.fd, out.fd], env: process.env });
		const ticker = setInterval(() => {
			log(
				`  … ${label}: ${Math.round((Date.now() - started) / 1000)} s (details: ${path.relative(process.cwd(), logFile)})`,
			);
		}, everyMs);
		const code = await new Promise<number | null>((resolve, reject) => {
			child.once('error', reject);
			child.once('exit', (status) => resolve(status));
		}).finally(() => clearInterval(ticker));
		if (code !== 0) {
			const tail = (await fsp.readFile(logFile, 'utf8')).split('\n').slice(-30).join('\n');
			throw new Error(`npm ${args[0]} failed (exit ${code}) in ${cwd}; last lines of ${logFile}:\n${tail}`);
		}
	} finally {
		await out.close();
	}
}

/** One installer at a time per runtime (dev and tests may start together); a dead holder's lock is taken over. */
async function withLock<T>(lockDir: string, log: Log, work: () => Promise<T>): Promise<T> {
	const deadline = Date.now() + LOCK_WAIT_MS;
	let told = false;
	for (;;) {
		try {
			await fsp.mkdir(lockDir);
			await fsp.writeFile(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const holder = Number(await fsp.readFile(path.join(lockDir, 'pid'), 'utf8').catch(() => '0'));
			if (holder && !isAlive(holder)) {
				await fsp.rm(lockDir, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`gave up waiting for another install to finish (lock ${lockDir})`);
			if (!told) log(`  another process (pid ${holder || '?'}) is installing this runtime; waiting for it`);
			told = true;
			await new Promise((resolve) => setTimeout(resolve, 2000));
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
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * sqlite3, n8n's database driver, is the one native module n8n needs. Its prebuilt download is not
 * reachable from everywhere, so it is built from source once (a few minutes) and the result is
 * kept: it is a Node-API module, so one build serves every runtime and Node.js version.
 */
async function provideSqlite(dir: string, logFile: string, log: Log): Promise<void> {
	const moduleDir = path.join(dir, 'node_modules', 'sqlite3');
	const version = (JSON.parse(await fsp.readFile(path.join(moduleDir, 'package.json'), 'utf8')) as { version: string })
		.version;
	const kept = path.join(CACHE_ROOT, 'native', `sqlite3-${version}-${process.platform}-${process.arch}.node`);
	const target = path.join(moduleDir, 'build', 'Release', 'node_sqlite3.node');
	if (existsSync(kept)) {
		log(`  step 2/2: sqlite3 ${version}: reusing the build kept from an earlier install`);
		await fsp.mkdir(path.dirname(target), { recursive: true });
		await fsp.copyFile(kept, target);
		return;
	}
	log(`  step 2/2: building sqlite3 ${version} (n8n's database driver) from source`);
	const args = ['rebuild', 'sqlite3', '--ignore-scripts=false', '--no-audit', '--no-fund'];
	await runNpm(args, dir, logFile, 'sqlite3 build', log);
	if (!existsSync(target)) throw new Error(`sqlite3 was rebuilt but ${target} is missing; see ${logFile}`);
	await fsp.mkdir(path.dirname(kept), { recursive: true });
	await fsp.copyFile(target, `${kept}.tmp`);
	await fsp.rename(`${kept}.tmp`, kept);
}

export async function ensureRuntime(
	profile: Profile,
	log: Log = (line) => process.stdout.write(`${line}\n`),
): Promise<InstalledRuntime> {
	const ready = installedRuntime(profile);
	if (ready) return ready;
	const paths = runtimePaths(profile);
	await fsp.mkdir(CACHE_ROOT, { recursive: true });
	return await withLock(`${paths.dir}.lock`, log, async () => {
		const doneMeanwhile = installedRuntime(profile);
		if (doneMeanwhile) return doneMeanwhile;
		const started = Date.now();
		log(
			`real n8n: installing n8n ${profile.n8nVersion} with Node.js ${profile.nodeVersion} into ${path.relative(process.cwd(), paths.dir) || paths.dir}`,
		);
		log('  first time only: about 3 GB from the npm registry, 4 to 9 minutes on a busy 2-core machine');
		await fsp.mkdir(paths.dir, { recursive: true });
		await fsp.rm(paths.marker, { force: true });
		const manifest = {
			name: `real-n8n-${profile.n8nVersion}`,
			private: true,
			description: 'Cache of a real n8n for the e2e tests and npm run dev; created by scripts/real-n8n/install.ts',
			dependencies: { n8n: profile.n8nVersion, [nodePackageName()]: profile.nodeVersion },
			...(profile.overrides ? { overrides: profile.overrides } : {}),
		};
		await fsp.writeFile(path.join(paths.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		const logFile = path.join(paths.dir, 'install.log');
		// Install scripts stay off: some packages in n8n's tree fail them under npm (only-allow pnpm)
		// or on this Node; the one native module n8n needs is built explicitly below.
		const common = ['--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=warn'];
		const haveLock = existsSync(paths.lockFile);
		if (haveLock) await fsp.copyFile(paths.lockFile, path.join(paths.dir, 'package-lock.json'));
		// `npm install` rather than `npm ci`: it installs the locked versions just the same, and
		// unlike `npm ci` accepts a lock file that lists only this OS's optional packages.
		log(
			`  step 1/2: npm install (${haveLock ? 'versions pinned by the committed lock file' : 'no committed lock file for this platform: versions resolved today'})`,
		);
		try {
			await runNpm(['install', ...common], paths.dir, logFile, 'npm install', log);
		} catch (err) {
			const logText = await fsp.readFile(logFile, 'utf8').catch(() => '');
			// The log is appended to across attempts: judge only this attempt's lines.
			const failure = explainNpmFailure(logText.slice(logText.lastIndexOf('\n$ npm install')), profile.n8nVersion);
			throw new Error(`${failure.message}\n${(err as Error).message}`);
		}
		await provideSqlite(paths.dir, logFile, log);
		const runtime = runtimeOf(profile);
		for (const file of [runtime.nodeBin, runtime.n8nBin]) {
			if (!existsSync(file)) throw new Error(`install finished but ${file} is missing; see ${logFile}`);
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		await fsp.writeFile(paths.marker, `${JSON.stringify({ ...wantedMarker(profile), seconds }, null, 2)}\n`);
		log(`real n8n: n8n ${profile.n8nVersion} ready after ${seconds} s`);
		if (!haveLock) {
			log(`  to pin what was installed: cp ${path.join(paths.dir, 'package-lock.json')} ${paths.lockFile}`);
		}
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
