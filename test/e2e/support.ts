/**
 * End-to-end tests in a real n8n (the version of REAL_N8N_PROFILE, default the current one):
 * one user folder per test file with this package linked in as a user's install, the example
 * credential pointing at an in-process emulator, and the example workflows imported.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { start, type Emulator, type EmulatorOptions } from '../emulator';
import { ensureRuntime } from '../../scripts/real-n8n/install';
import {
	exampleWorkflowFiles,
	fillTemplate,
	importCredential,
	importWorkflows,
	linkPackage,
	type CredentialValues,
} from '../../scripts/real-n8n/instance';
import type { N8nInstance } from '../../scripts/real-n8n/n8n';
import { PACKAGE_ROOT, activeProfile } from '../../scripts/real-n8n/profiles';

export { executeWorkflow, nodeJson, n8nCli, startN8n } from '../../scripts/real-n8n/n8n';
export { tail } from '../../scripts/real-n8n/process';
export { EXAMPLE_IDS, activateWorkflow, importCredential, importWorkflows } from '../../scripts/real-n8n/instance';

export const MIB = 1024 * 1024;
export const BUCKET = { name: 'my-bucket', region: 'us-east-1' };
/** Not a secret: the encryption key of throw-away test instances. */
const TEST_ENCRYPTION_KEY = 'e2e-tests-only-not-a-secret';

// The first install of a runtime (one-off, several minutes) may happen inside beforeAll.
const SETUP_TIMEOUT_MS = 30 * 60 * 1000;

export interface E2eContext {
	instance: N8nInstance;
	emulator: Emulator;
	/** A folder the workflows may read files from (N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir: string;
	credential: CredentialValues;
}

export interface E2eOptions {
	emulator?: EmulatorOptions;
	/** Workflow files to import; all examples when not given. */
	workflows?: string[];
}

/** Sets up one real-n8n instance for the whole test file and removes it afterwards. */
export function useRealN8n(options: E2eOptions = {}): () => E2eContext {
	let context: E2eContext | undefined;
	let root: string | undefined;
	beforeAll(async () => {
		if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
			throw new Error('dist/ is missing: run `npm run build` first (n8n loads the built package)');
		}
		const runtime = await ensureRuntime(activeProfile(), (line) => process.stderr.write(`${line}\n`));
		root = await fsp.mkdtemp(path.join(os.tmpdir(), 'file-storage-e2e-'));
		const userFolder = path.join(root, 'n8n');
		const filesDir = path.join(root, 'files');
		await fsp.mkdir(filesDir, { recursive: true });
		await linkPackage(userFolder);
		const emulator = await start({ port: 0, ...options.emulator });
		const instance: N8nInstance = {
			runtime,
			userFolder,
			env: { N8N_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, N8N_RESTRICT_FILE_ACCESS_TO: filesDir },
		};
		const credential = { accessKey: emulator.accessKey, secretKey: emulator.secretKey, baseUrl: emulator.url };
		context = { instance, emulator, filesDir, credential };
		await importCredential(instance, credential);
		const workflows = options.workflows ?? exampleWorkflowFiles();
		if (workflows.length > 0) await importWorkflows(instance, workflows);
	}, SETUP_TIMEOUT_MS);
	afterAll(async () => {
		await context?.emulator.stop();
		// n8n's task runner may still be writing into the user folder for a moment after n8n exits
		// (ENOTEMPTY seen on a loaded machine): rm retries those errors.
		if (root) await fsp.rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
	});
	return () => {
		if (!context) throw new Error('real n8n instance not set up');
		return context;
	};
}

/** Fills `${NAME}` placeholders of a test workflow and writes it where importWorkflows can take it. */
export async function workflowFrom(template: string, values: Record<string, string>, outDir: string): Promise<string> {
	const file = path.join(outDir, path.basename(template));
	await fsp.writeFile(
		file,
		fillTemplate(await fsp.readFile(path.join(__dirname, 'workflows', template), 'utf8'), values),
	);
	return file;
}

/** A POST Webhook node at `path` answering with the last node's output (`responseData`: n8n's choice). */
export function webhookNode(id: string, path: string, responseData: 'allEntries' | 'firstEntryJson') {
	return {
		id: `${id}-1`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: `${id}-hook`,
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData, options: {} },
	};
}

/**
 * A workflow of a POST Webhook at `path` answering with its File Storage node's first item: the
 * shape of the webhook e2e tests, one workflow per step they call.
 */
export function webhookWorkflow(step: {
	id: string;
	name: string;
	path: string;
	typeVersion: number;
	parameters: object;
}) {
	const { id, name, path: webhookPath, typeVersion, parameters } = step;
	return {
		id,
		name,
		nodes: [
			webhookNode(id, webhookPath, 'allEntries'),
			{
				id: `${id}-2`,
				name: 'File Storage',
				type: 'n8n-nodes-file-storage.fileStorage',
				typeVersion,
				position: [220, 0],
				parameters: { bucketName: BUCKET.name, region: BUCKET.region, ...parameters, options: {} },
				credentials: { fileStorageApi: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)' } },
			},
		],
		connections: { Webhook: { main: [[{ node: 'File Storage', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

export function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

/** Writes `size` random bytes in 1 MiB steps and returns the file's SHA-256. */
export async function writeRandomFile(file: string, size: number): Promise<string> {
	const hash = createHash('sha256');
	const handle = await fsp.open(file, 'w');
	try {
		for (let written = 0; written < size; written += MIB) {
			const chunk = randomBytes(Math.min(MIB, size - written));
			hash.update(chunk);
			await handle.write(chunk);
		}
	} finally {
		await handle.close();
	}
	return hash.digest('hex');
}

/** The example's generated file: 24 MiB of a repeated 251-byte pattern (see examples/workflows/multipart-upload.json). */
export function exampleLargeFile(): Buffer {
	const pattern = Buffer.from(Array.from({ length: 251 }, (_, i) => i));
	return Buffer.alloc(24 * MIB, pattern);
}
