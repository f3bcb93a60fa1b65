/**
 * Setting up an n8n user folder the way a user's instance looks after installing this package
 * from the community nodes panel, plus the example credential and workflows.
 */
import { createRequire } from 'node:module';
import { promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';

import type { InstalledRuntime } from './install';
import { n8nCliOk, type Env, type N8nInstance } from './n8n';
import { PACKAGE_ROOT } from './profiles';

export const PACKAGE_NAME: string = require(path.join(PACKAGE_ROOT, 'package.json')).name;
export const NODE_TYPE = `${PACKAGE_NAME}.fileStorage`;
const EXAMPLES_DIR = path.join(PACKAGE_ROOT, 'examples');

/** Ids fixed in the example files, so importing again updates instead of duplicating. */
export const EXAMPLE_IDS = {
	credential: 'fsEmulatorCreds1',
	upload: 'fsExampleUpload1',
	multipart: 'fsExampleMultip1',
	list: 'fsExampleListing',
	webhook: 'fsExampleWebhook',
	fileOps: 'fsExampleFileOps',
	browserUpload: 'fsExampleBrowser',
} as const;

export function exampleWorkflowFiles(): string[] {
	const dir = path.join(EXAMPLES_DIR, 'workflows');
	const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
	return names.sort().map((name) => path.join(dir, name));
}

/**
 * n8n installs community packages into `<user folder>/.n8n/nodes/node_modules/<name>`; a link to
 * this package there gives the same node type users get (`n8n-nodes-file-storage.fileStorage`),
 * and a rebuild shows up without reinstalling.
 */
export async function linkPackage(userFolder: string, packageRoot = PACKAGE_ROOT): Promise<void> {
	const modules = path.join(userFolder, '.n8n', 'nodes', 'node_modules');
	await fsp.mkdir(modules, { recursive: true });
	const link = path.join(modules, PACKAGE_NAME);
	const current = await fsp.readlink(link).catch(() => undefined);
	if (current === packageRoot) return;
	await fsp.rm(link, { recursive: true, force: true });
	await fsp.symlink(packageRoot, link, 'dir');
}

export interface CredentialValues {
	accessKey: string;
	secretKey: string;
	baseUrl: string;
}

/** Fills `${NAME}` placeholders; an unknown one is an error rather than a silent empty value. */
export function fillTemplate(text: string, values: Record<string, string>): string {
	return text.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
		if (!(name in values)) throw new Error(`template placeholder \${${name}} has no value`);
		// JSON-escape, as the placeholders sit inside JSON strings.
		return JSON.stringify(values[name]).slice(1, -1);
	});
}

/**
 * Imports the example credential with the given keys. The filled-in file holds the secret, so it
 * lives only for the import, readable by its owner only; n8n stores it encrypted.
 */
export async function importCredential(instance: N8nInstance, values: CredentialValues): Promise<void> {
	const template = path.join(EXAMPLES_DIR, 'credentials', 'file-storage-emulator.json');
	const filled = fillTemplate(await fsp.readFile(template, 'utf8'), {
		ACCESS_KEY: values.accessKey,
		SECRET_KEY: values.secretKey,
		BASE_URL: values.baseUrl,
	});
	const dir = await fsp.mkdtemp(path.join(instance.userFolder, '.import-'));
	const file = path.join(dir, 'credentials.json');
	try {
		await fsp.writeFile(file, filled, { mode: 0o600 });
		await n8nCliOk(instance, ['import:credentials', `--input=${file}`]);
	} finally {
		await fsp.rm(dir, { recursive: true, force: true });
	}
}

/** Imports workflow files in one n8n run (each n8n start costs seconds). */
export async function importWorkflows(instance: N8nInstance, files: string[]): Promise<void> {
	const dir = await fsp.mkdtemp(path.join(instance.userFolder, '.import-'));
	try {
		for (const file of files) await fsp.copyFile(file, path.join(dir, path.basename(file)));
		await n8nCliOk(instance, ['import:workflow', '--separate', `--input=${dir}`]);
	} finally {
		await fsp.rm(dir, { recursive: true, force: true });
	}
}

/** Makes a webhook workflow answer on its production URL at the next `n8n start`. */
export async function activateWorkflow(instance: N8nInstance, id: string): Promise<void> {
	const publish = instance.runtime.profile.activation === 'publish';
	await n8nCliOk(
		instance,
		publish ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'],
	);
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/**
 * Environment that makes n8n create (or update) the owner account at start, so nobody has to
 * click through the setup wizard. n8n wants the password as a bcrypt hash; n8n's own bcrypt
 * library makes it.
 */
export function ownerEnv(runtime: InstalledRuntime, owner: Owner): Env {
	const requireFromN8n = createRequire(path.join(runtime.dir, 'node_modules', 'n8n', 'package.json'));
	const bcrypt = requireFromN8n('bcryptjs') as { hashSync(password: string, rounds: number): string };
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
	};
}
