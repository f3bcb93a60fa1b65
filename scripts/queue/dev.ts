/**
 * `npm run dev -- --queue`: the emulator and n8n in queue mode (PostgreSQL, Redis, one main, two
 * workers) with this package, the owner account, the example credential and workflows. Data lives
 * in `<dev data>/queue/` (the PostgreSQL cluster too), so edits made in the editor stay.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { DEV_OWNER, prepareUserFolder, startEmulator } from '../dev/stack';
import { ensureRuntime } from '../real-n8n/install';
import { ownerEnv, type Owner } from '../real-n8n/instance';
import { login } from '../real-n8n/n8n';
import { isPortFree, stopGroup } from '../real-n8n/process';
import { PROFILES } from '../real-n8n/profiles';
import { requireQueueServices } from './redis';
import { startQueueStack, type QueueStack } from './stack';

export interface QueueDev {
	editorUrl: string;
	emulatorUrl: string;
	owner: Owner;
	logDir: string;
	stack: QueueStack;
	/** Resolves when a process of the stack ends by itself. */
	died: Promise<string>;
}

export async function startQueueDev(options: {
	dataDir: string;
	packageDir: string;
	n8nPort: number;
	emulatorPort: number;
	log: (line: string) => void;
}): Promise<QueueDev> {
	requireQueueServices();
	const runtime = await ensureRuntime(PROFILES.current, options.log);
	if (!(await isPortFree(options.n8nPort))) {
		throw new Error(`port ${options.n8nPort} is taken (another n8n?); set DEV_N8N_PORT to use another one`);
	}
	const dataDir = path.join(options.dataDir, 'queue');
	await fsp.mkdir(dataDir, { recursive: true });
	// PostgreSQL runs as its own user when we are root, and must reach its folder.
	await fsp.chmod(options.dataDir, 0o711);
	await fsp.chmod(dataDir, 0o711);
	const logDir = path.join(dataDir, 'logs');
	await fsp.mkdir(logDir, { recursive: true });
	options.log('starting the emulator');
	const emulator = await startEmulator(
		options.emulatorPort,
		path.join(dataDir, 'emulator'),
		path.join(logDir, 'emulator.log'),
	);
	try {
		// One key for the life of the data folder: the credentials in PostgreSQL are encrypted with it.
		const keyFile = path.join(dataDir, 'encryption-key');
		if (!existsSync(keyFile)) {
			await fsp.writeFile(keyFile, require('node:crypto').randomBytes(24).toString('base64url'), { mode: 0o600 });
		}
		const stack = await startQueueStack({
			runtime,
			dataDir,
			n8nPort: options.n8nPort,
			env: { ...ownerEnv(runtime, DEV_OWNER), N8N_ENCRYPTION_KEY: (await fsp.readFile(keyFile, 'utf8')).trim() },
			webhookPaths: ['file-storage-upload'],
			log: options.log,
			prepare: (instance) => prepareUserFolder(instance, options.packageDir, emulator.url, options.log),
		});
		await login(stack.main.url, DEV_OWNER.email, DEV_OWNER.password);
		const died = Promise.race([
			new Promise<string>((resolve) => stack.main.child.once('exit', (code) => resolve(`n8n main exited (${code})`))),
			new Promise<string>((resolve) => emulator.child.once('exit', (code) => resolve(`the emulator exited (${code})`))),
			new Promise<string>(() => undefined),
		]);
		for (const worker of stack.workers) {
			worker.child.once('exit', (code) => options.log(`${worker.name} exited (${code}); see its log`));
		}
		return { editorUrl: stack.main.url, emulatorUrl: emulator.url, owner: DEV_OWNER, logDir, stack, died };
	} catch (err) {
		await stopGroup(emulator.child, 10000);
		throw err;
	}
}
