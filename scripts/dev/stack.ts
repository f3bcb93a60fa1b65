/**
 * The development stack behind `npm run dev`: the emulator, a real n8n with this package linked
 * in as a user's install (or n8n in queue mode: PostgreSQL, Redis, a main and two workers), an
 * owner account, the example credential and workflows, and the browser-upload example page. The
 * browser test starts the same stack on free ports in a temporary folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { DEFAULTS as EMULATOR_DEFAULTS } from '../../test/emulator/config';
import { ensureRuntime } from '../real-n8n/install';
import { importCredential, linkPackage, ownerEnv, type Owner } from '../real-n8n/instance';
import { login, startN8n, type N8nInstance, type RunningN8n } from '../real-n8n/n8n';
import { isPortFree, start } from '../real-n8n/process';
import { PACKAGE_ROOT, PROFILES } from '../real-n8n/profiles';
import { requireQueueServices, startQueueStack, type Worker } from '../queue/stack';
import { importExamples } from './examples';
import { BROWSER_UPLOAD_WEBHOOK_ID, startPageServer } from './pageServer';

export const DEV_OWNER: Owner = {
	email: process.env.DEV_OWNER_EMAIL || 'owner@example.com',
	password: process.env.DEV_OWNER_PASSWORD || 'FileStorage-dev-1',
	firstName: 'Dev',
	lastName: 'Owner',
};

export interface StackOptions {
	/** Emulator data, n8n user folder and logs live here (in queue mode: in its `queue/` folder). */
	dataDir: string;
	/** The package folder n8n loads (a built package: package.json + dist/). */
	packageDir: string;
	n8nPort: number;
	/** 0 picks a free port. */
	emulatorPort: number;
	/** n8n reloads the package when dist/ changes (needs NODE_ENV unset). */
	hotReload: boolean;
	queue?: boolean;
	log: (line: string) => void;
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

async function startEmulator(port: number, dataDir: string, logFile: string) {
	const cli = path.join('test', 'emulator', 'cli.ts');
	const args = ['-r', 'ts-node/register/transpile-only', cli, '--port', String(port), '--data-dir', dataDir];
	const listening = /listening on (http:\/\/\S+)/;
	const emulator = await start(process.execPath, args, {
		what: 'the emulator',
		ready: listening,
		timeoutMs: 60000,
		cwd: PACKAGE_ROOT,
		logFile,
		show: (chunk) => chunk.replace(/(secret key\s+)\S+/g, '$1(not shown)'),
	});
	return { ...emulator, url: listening.exec(emulator.output())![1] };
}

/**
 * This package linked in, the example credential pointing at the emulator and the example
 * workflows imported (each once per data folder: edits made in the editor stay).
 */
async function prepareUserFolder(instance: N8nInstance, emulatorUrl: string, { packageDir, log }: StackOptions) {
	const { userFolder } = instance;
	await linkPackage(userFolder, packageDir);
	const credentialMarker = path.join(userFolder, '.credential-base-url');
	if ((await fsp.readFile(credentialMarker, 'utf8').catch(() => '')) !== emulatorUrl) {
		log('importing the example credential (pointing at the emulator)');
		const { accessKey, secretKey } = EMULATOR_DEFAULTS;
		await importCredential(instance, { accessKey, secretKey, baseUrl: emulatorUrl });
		await fsp.writeFile(credentialMarker, emulatorUrl);
	}
	await importExamples(instance, log);
}

/** One encryption key for the life of a data folder: the credentials in PostgreSQL are encrypted with it. */
async function keptKey(file: string): Promise<string> {
	if (!existsSync(file)) await fsp.writeFile(file, randomBytes(24).toString('base64url'), { mode: 0o600 });
	return (await fsp.readFile(file, 'utf8')).trim();
}

export async function startStack(options: StackOptions) {
	const { log, queue } = options;
	if (queue) requireQueueServices();
	const runtime = await ensureRuntime(PROFILES.current, log);
	if (!(await isPortFree(options.n8nPort))) {
		throw new Error(`port ${options.n8nPort} is taken (another n8n?); set DEV_N8N_PORT to use another one`);
	}
	const dataDir = queue ? path.join(options.dataDir, 'queue') : options.dataDir;
	const logDir = path.join(dataDir, 'logs');
	await fsp.mkdir(logDir, { recursive: true });
	// PostgreSQL runs as its own user when we are root, and must reach its folder.
	if (queue) for (const dir of [options.dataDir, dataDir]) await fsp.chmod(dir, 0o711);

	const emulatorDir = path.join(dataDir, 'emulator');
	log(`starting the emulator (data in ${path.relative(process.cwd(), emulatorDir)})`);
	const emulator = await startEmulator(options.emulatorPort, emulatorDir, path.join(logDir, 'emulator.log'));
	const stops = [emulator.stop];
	const stop = async () => {
		for (const stopOne of stops.splice(0).reverse()) await stopOne().catch(() => undefined);
	};
	try {
		const prepare = (instance: N8nInstance) => prepareUserFolder(instance, emulator.url, options);
		const webhookPaths = ['file-storage-upload', `${BROWSER_UPLOAD_WEBHOOK_ID}/get-signed-url/upload`];
		let n8n: RunningN8n;
		let workers: Worker[] = [];
		if (queue) {
			const env = {
				...ownerEnv(runtime, DEV_OWNER),
				N8N_ENCRYPTION_KEY: await keptKey(path.join(dataDir, 'encryption-key')),
			};
			const stack = await startQueueStack({
				runtime,
				dataDir,
				n8nPort: options.n8nPort,
				env,
				webhookPaths,
				log,
				prepare,
			});
			stops.push(stack.stop);
			({ main: n8n, workers } = stack);
			for (const worker of workers) {
				worker.child.once('exit', (code) => log(`${worker.name} exited (${code}); see its log`));
			}
		} else {
			const instance: N8nInstance = { runtime, userFolder: path.join(dataDir, 'n8n'), env: {} };
			await prepare(instance);
			const logFile = path.join(logDir, 'n8n.log');
			log(`starting n8n ${runtime.profile.n8nVersion} (log in ${path.relative(process.cwd(), logFile)})`);
			n8n = await startN8n(instance, {
				port: options.n8nPort,
				logFile,
				webhookPaths,
				env: {
					...ownerEnv(runtime, DEV_OWNER),
					// n8n only hot-reloads packages in development mode.
					...(options.hotReload ? { NODE_ENV: undefined, N8N_DEV_RELOAD: 'true' } : {}),
				},
			});
			stops.push(n8n.stop);
		}
		// Proves the owner exists and the editor's API answers before the URL is announced.
		await login(n8n.url, DEV_OWNER.email, DEV_OWNER.password);
		const page = await startPageServer(n8n.url);
		stops.push(page.close);
		// When n8n (main) or the emulator ends by itself.
		const died = Promise.race([
			new Promise<string>((resolve) => n8n.child.once('exit', (code) => resolve(`n8n exited (${code})`))),
			new Promise<string>((resolve) => emulator.child.once('exit', (code) => resolve(`the emulator exited (${code})`))),
		]);
		const urls = { editorUrl: n8n.url, emulatorUrl: emulator.url, pageUrl: page.url };
		return { ...urls, owner: DEV_OWNER, logDir, workers, died, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}

/**
 * n8n's hot reload watches the whole folder of the package, recursively. The repository root holds
 * n8n's own data, logs and the 3 GB runtime cache, so linking it would reload on every database
 * write, and on its own log lines. `npm run dev` therefore gives n8n an installed-like copy of the
 * package instead: package.json and icons copied, dist/ written by `tsc --watch`.
 */
export async function preparePackageCopy(dir: string): Promise<void> {
	await fsp.rm(dir, { recursive: true, force: true });
	await fsp.mkdir(dir, { recursive: true });
	for (const file of ['package.json', 'index.js', 'LICENSE.md', 'README.md']) {
		if (existsSync(path.join(PACKAGE_ROOT, file)))
			await fsp.copyFile(path.join(PACKAGE_ROOT, file), path.join(dir, file));
	}
	// What gulp's build:icons copies next to the compiled files.
	const iconOrFolder = async (file: string) =>
		/\.(svg|png)$|\.node\.json$/.test(file) || (await fsp.stat(file)).isDirectory();
	for (const top of ['nodes', 'credentials']) {
		await fsp.cp(path.join(PACKAGE_ROOT, top), path.join(dir, 'dist', top), { recursive: true, filter: iconOrFolder });
	}
}
