/**
 * Running a real n8n on one user folder: its CLI (import, execute, publish) and `n8n start`.
 */
import * as path from 'node:path';

import type { InstalledRuntime } from './install';
import type { Owner } from './instance';
import { capture, freePort, start, tail, type Started } from './process';

export type Env = Record<string, string | undefined>;

export interface N8nInstance {
	runtime: InstalledRuntime;
	/** N8N_USER_FOLDER: n8n keeps its database, config and installed nodes in `<it>/.n8n`. */
	userFolder: string;
	/** Added to every process of this instance. */
	env: Env;
}

// The parent's own n8n and Node settings must not leak into the child: jest sets NODE_ENV=test,
// which makes `n8n execute` print nothing, and a developer's N8N_* would change what is tested.
const INHERITED_PREFIXES_DROPPED = ['N8N_', 'DB_', 'EXECUTIONS_', 'QUEUE_', 'GENERIC_', 'WEBHOOK_URL'];
const INHERITED_DROPPED = new Set(['NODE_ENV', 'NODE_OPTIONS', 'NODE_PATH']);

/** Settings every run here shares; see scripts/real-n8n/README.md for why each is set. An undefined value unsets. */
export async function baseEnv(instance: N8nInstance, extra: Env = {}): Promise<NodeJS.ProcessEnv> {
	const inherited = Object.entries(process.env).filter(
		([name]) => !INHERITED_DROPPED.has(name) && !INHERITED_PREFIXES_DROPPED.some((prefix) => name.startsWith(prefix)),
	);
	return {
		...Object.fromEntries(inherited),
		// n8n starts its task runner as plain `node`, which must be the Node it runs on.
		PATH: `${instance.runtime.nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: instance.userFolder,
		// Its settings file holds the encryption key: owner-only, without n8n 1.x warning about it.
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		DB_TYPE: 'sqlite',
		NODE_ENV: 'production',
		N8N_LOG_LEVEL: 'info',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		// The editor is reached over plain http on loopback.
		N8N_SECURE_COOKIE: 'false',
		...instance.runtime.profile.env,
		// Parallel n8n processes each need their own task broker port.
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		// spawn leaves out a variable whose value is undefined.
		...instance.env,
		...extra,
	};
}

/** Runs one n8n CLI command to its end; `output` is stdout and stderr, for messages in failed assertions. */
export async function n8nCli(instance: N8nInstance, args: string[], options: { env?: Env } = {}) {
	const result = await capture(instance.runtime.nodeBin, [instance.runtime.n8nBin, ...args], {
		cwd: instance.userFolder,
		env: await baseEnv(instance, options.env),
		timeoutMs: 180000,
	});
	return { ...result, output: `${result.stdout}\n${result.stderr}` };
}

export async function n8nCliOk(instance: N8nInstance, args: string[]) {
	const result = await n8nCli(instance, args);
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args[0]} failed (exit ${result.code ?? result.signal}${result.timedOut ? ', timed out' : ''}):\n${tail(result.output, 40)}`,
		);
	}
	return result;
}

export interface RunItem {
	json: Record<string, unknown>;
	binary?: Record<string, { id?: string; data?: string; fileName?: string; mimeType?: string }>;
}

export interface NodeRun {
	executionTime?: number;
	error?: { message?: string; description?: string };
	data?: { main: RunItem[][] };
}

/** What `n8n execute --rawOutput` prints after its log lines: the run, from the first line that is exactly `{`. */
export interface ExecutionRun {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			error?: { message?: string; description?: string; node?: { name?: string } };
			runData: Record<string, NodeRun[]>;
		};
	};
}

export async function executeWorkflow(instance: N8nInstance, workflowId: string, options: { env?: Env } = {}) {
	const result = await n8nCli(instance, ['execute', `--id=${workflowId}`, '--rawOutput'], options);
	const run = parseRun(result.stdout);
	// n8n 2.41.1 on Node.js 24 was seen (once, on a busy machine) to die with SIGSEGV while shutting
	// down after it printed a finished, successful run: that run is complete, so it is taken, and
	// the crash is said on stderr. Any other end without exit code 0 is the run's failure.
	if (result.signal === 'SIGSEGV' && run?.finished === true && run.status === 'success') {
		process.stderr.write(`n8n execute --id=${workflowId}: SIGSEGV after a finished, successful run\n`);
		return { ...result, code: 0, run };
	}
	return { ...result, run };
}

export function parseRun(stdout: string): ExecutionRun | undefined {
	const lines = stdout.split('\n');
	const start = lines.indexOf('{');
	if (start === -1) return undefined;
	const end = lines.lastIndexOf('}');
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionRun;
	} catch {
		return undefined;
	}
}

/** The JSON of every item a node put out on its first output in its first run. */
export function nodeJson(run: ExecutionRun | undefined, nodeName: string): Array<Record<string, unknown>> {
	const items = run?.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
	return items.map((item) => item.json);
}

export type RunningN8n = Started & { url: string; port: number };

export interface StartOptions {
	port?: number;
	env?: Env;
	/** Also copy n8n's output here (the dev script shows it in a log file). */
	logFile?: string;
	/** Also wait for these production webhook paths: n8n reports ready before it has registered them. */
	webhookPaths?: string[];
}

/**
 * `n8n start` on 127.0.0.1, resolved once `/healthz/readiness` and the REST API both answer 200:
 * readiness only means the database is migrated, and n8n registers its REST routes after that
 * (n8n 1.x on a slow machine answered `Cannot POST /rest/login` in between).
 */
export async function startN8n(instance: N8nInstance, options: StartOptions = {}): Promise<RunningN8n> {
	const port = options.port ?? (await freePort());
	const env = await baseEnv(instance, { N8N_PORT: String(port), ...options.env });
	const url = `http://127.0.0.1:${port}`;
	const ready = async () =>
		(await statusOf(`${url}/healthz/readiness`)) === 200 &&
		(await statusOf(`${url}/rest/settings`)) === 200 &&
		(await webhooksRegistered(url, options.webhookPaths ?? []));
	const started = await start(instance.runtime.nodeBin, [instance.runtime.n8nBin, 'start'], {
		what: 'n8n start',
		ready,
		timeoutMs: 180000,
		everyMs: 500,
		cwd: instance.userFolder,
		env,
		logFile: options.logFile,
	});
	return { ...started, url, port };
}

/** A CORS preflight answers 2xx only for a registered webhook, and runs nothing. */
async function webhooksRegistered(url: string, paths: string[]): Promise<boolean> {
	const preflight = { method: 'OPTIONS', headers: { origin: url, 'access-control-request-method': 'POST' } };
	const statuses = await Promise.all(paths.map((webhook) => statusOf(`${url}/webhook/${webhook}`, preflight)));
	return statuses.every((status) => status >= 200 && status < 300);
}

/** The HTTP status `address` answers with, 0 if it does not answer within 2 s. */
async function statusOf(address: string, init: RequestInit = {}): Promise<number> {
	try {
		const response = await fetch(address, { ...init, signal: AbortSignal.timeout(2000) });
		await response.arrayBuffer();
		return response.status;
	} catch {
		return 0;
	}
}

/** Logs in to the editor's REST API and returns the session cookie. */
export function login(url: string, email: string, password: string): Promise<string> {
	return postForCookie(`${url}/rest/login`, `login as ${email}`, { emailOrLdapLoginId: email, email, password });
}

/**
 * Sets up the owner of a fresh instance over the REST API, as the editor's first screen does, and
 * returns the session cookie. Works on every n8n line; the owner-from-environment settings
 * (`ownerEnv`) exist only in n8n 2.x.
 */
export function setUpOwner(url: string, owner: Owner): Promise<string> {
	return postForCookie(`${url}/rest/owner/setup`, `owner setup for ${owner.email}`, owner);
}

async function postForCookie(address: string, what: string, payload: object): Promise<string> {
	const { response } = await post(address, what, payload);
	const cookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error(`${what} answered 200 but set no n8n-auth cookie`);
	return cookie.split(';')[0];
}

/** POSTs JSON to n8n's REST API; throws unless it answers 200. */
async function post(address: string, what: string, payload: object, cookie?: string) {
	const response = await fetch(address, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
		body: JSON.stringify(payload),
		signal: AbortSignal.timeout(60000),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`${what} failed: HTTP ${response.status} ${text.slice(0, 300)}`);
	return { response, text };
}

/**
 * The credential's Test button: n8n's `POST /rest/credentials/test` for the example credential
 * with `data` as its fields. Returns n8n's verdict, `{ status: 'OK' | 'Error', message }`.
 */
export async function testCredential(url: string, cookie: string, data: Record<string, string>) {
	const credentials = { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)', type: 'fileStorageApi', data };
	const { text } = await post(`${url}/rest/credentials/test`, 'credential test', { credentials }, cookie);
	return (JSON.parse(text) as { data: { status: string; message: string } }).data;
}
