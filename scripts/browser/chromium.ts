/**
 * The Chromium the browser test drives, with nothing installed beyond `npm install`:
 *
 * - `CHROMIUM_PATH`, when set, names the browser to use (any Chromium or Chrome build).
 * - Otherwise the Chromium shipped inside the dev dependency `@sparticuz/chromium` (Linux x64; the
 *   binary is in the npm package itself, brotli-compressed, so nothing is downloaded). It is
 *   unpacked once into `.cache/chromium/<version>/` (~210 MB, a few seconds) and reused. Its
 *   package.json asks for Node.js 22 or later (npm warns EBADENGINE on Node.js 20); the one function
 *   used here, executablePath(), runs on Node.js 20, in a child process of the Node.js running this.
 *
 *   node -r ts-node/register/transpile-only scripts/browser/chromium.ts   # prints the path
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { capture } from '../real-n8n/process';
import { PACKAGE_ROOT } from '../real-n8n/profiles';

const CACHE_DIR = path.join(PACKAGE_ROOT, '.cache', 'chromium');
const PACKAGED = '@sparticuz/chromium';

/** Unpacks the packaged binary into `target` (via a temporary sibling, so a half-done unpack is never reused). */
async function unpack(entry: string, target: string): Promise<void> {
	const staging = `${target}.tmp-${process.pid}`;
	await fsp.rm(staging, { recursive: true, force: true });
	await fsp.mkdir(staging, { recursive: true }); // and the cache folder above it
	// The package unpacks into os.tmpdir(), i.e. $TMPDIR: point that at the staging folder. It is an
	// ES module, so it runs in a child Node.js rather than inside jest's module system.
	const script = `import(${JSON.stringify(entry)}).then((m) => m.default.executablePath()).then((p) => process.stdout.write(p))`;
	const env = { ...process.env, TMPDIR: staging };
	const unpacked = await capture(process.execPath, ['--input-type=module', '-e', script], { env, timeoutMs: 300000 });
	if (unpacked.code !== 0) throw new Error(`unpacking ${PACKAGED} failed (${unpacked.code}): ${unpacked.stderr}`);
	const printed = unpacked.stdout.trim();
	if (path.resolve(printed) !== path.join(staging, 'chromium')) {
		throw new Error(`${PACKAGED} unpacked to ${printed}, expected ${path.join(staging, 'chromium')}`);
	}
	if (existsSync(target)) {
		// Another process finished first: keep its copy.
		await fsp.rm(staging, { recursive: true, force: true });
		return;
	}
	await fsp.rename(staging, target);
}

/** Runs `<browser> --version`, so that a browser that cannot start says why before any test does. */
async function version(executable: string): Promise<string> {
	const { code, stdout, stderr } = await capture(executable, ['--version'], { timeoutMs: 30000 });
	if (code === 0) return stdout.trim();
	const missingLib = /error while loading shared libraries: (\S+)/.exec(stderr)?.[1];
	const hint = missingLib
		? ` A system library is missing (${missingLib}); on Debian or Ubuntu: apt-get install -y libnss3 libnspr4 libexpat1.`
		: '';
	throw new Error(`${executable} --version failed (${code}): ${stderr.trim()}.${hint}`);
}

/** The browser's path, what it says of itself ("Chromium 153.0.8010.0") and where it came from. */
export async function chromiumExecutable() {
	const fromEnv = process.env.CHROMIUM_PATH;
	if (fromEnv) {
		if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist`);
		return { executablePath: fromEnv, version: await version(fromEnv), source: 'CHROMIUM_PATH' };
	}
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(
			`${PACKAGED} ships a Chromium for Linux x64 only; on ${process.platform}-${process.arch} set CHROMIUM_PATH to a Chromium or Chrome executable`,
		);
	}
	// The package exports only its ESM entry; its package.json sits one folder above it.
	const entry = require.resolve(PACKAGED);
	const manifest = path.join(path.dirname(entry), '..', 'package.json');
	const packageVersion = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
	const dir = path.join(CACHE_DIR, packageVersion);
	const executablePath = path.join(dir, 'chromium');
	if (!existsSync(executablePath)) await unpack(entry, dir);
	return { executablePath, version: await version(executablePath), source: `${PACKAGED}@${packageVersion}` };
}

if (require.main === module) {
	chromiumExecutable().then(
		(browser) => console.log(`${browser.executablePath}\n${browser.version} (${browser.source})`),
		(err: Error) => {
			console.error(err.message);
			process.exit(1);
		},
	);
}
