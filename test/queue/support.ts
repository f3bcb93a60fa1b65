/**
 * One queue-mode stack per test file (scripts/queue/stack.ts): PostgreSQL, Redis, an n8n main and
 * two workers, with this package linked in as a user's install, the example credential pointing at
 * an in-process emulator, and the given workflows imported and published.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { start, type Emulator } from '../emulator';
import { ensureRuntime } from '../../scripts/real-n8n/install';
import {
	activateWorkflow,
	importCredential,
	importWorkflows,
	linkPackage,
	ownerEnv,
	type Owner,
} from '../../scripts/real-n8n/instance';
import { tail } from '../../scripts/real-n8n/process';
import { PACKAGE_ROOT, PROFILES } from '../../scripts/real-n8n/profiles';
import { startQueueStack, type QueueStack, type Worker } from '../../scripts/queue/stack';

export { MIB, BUCKET, sha256, writeRandomFile } from '../e2e/support';

/** Per-run folders (PostgreSQL cluster, Redis, n8n user folder, logs), git-ignored. */
export const RUNS_DIR = path.join(PACKAGE_ROOT, '.cache-queue', 'runs');
export const OWNER: Owner = {
	email: 'owner@example.com',
	password: 'Queue-owner-password-1',
	firstName: 'Queue',
	lastName: 'Owner',
};

export interface QueueContext {
	stack: QueueStack;
	emulator: Emulator;
	url: string;
}

export interface QueueOptions {
	/** Workflow files to import; those with a webhook path, or marked `activate`, are published too. */
	workflows: Array<{ file: string; id: string; webhookPath?: string; activate?: boolean }>;
	/** Runs once the emulator is up, before n8n starts (e.g. files a trigger finds at activation). */
	beforeStart?: (emulator: Emulator) => Promise<void>;
	binaryDatabaseMaxMiB?: number;
	concurrency?: number;
}

export function useQueueStack(options: QueueOptions): () => QueueContext {
	let context: QueueContext | undefined;
	let emulator: Emulator | undefined;
	let stack: QueueStack | undefined;
	let root: string | undefined;
	beforeAll(async () => {
		if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
			throw new Error('dist/ is missing: run `npm run build` first (n8n loads the built package)');
		}
		const runtime = await ensureRuntime(PROFILES.current, (line) => process.stderr.write(`${line}\n`));
		await fsp.mkdir(RUNS_DIR, { recursive: true });
		root = await fsp.mkdtemp(path.join(RUNS_DIR, 'run-'));
		// PostgreSQL runs as its own user, which must be able to reach its folder inside.
		await fsp.chmod(root, 0o711);
		emulator = await start({ port: 0 });
		await options.beforeStart?.(emulator);
		const credential = { accessKey: emulator.accessKey, secretKey: emulator.secretKey, baseUrl: emulator.url };
		stack = await startQueueStack({
			runtime,
			dataDir: root,
			env: ownerEnv(runtime, OWNER),
			binaryDatabaseMaxMiB: options.binaryDatabaseMaxMiB,
			concurrency: options.concurrency,
			webhookPaths: options.workflows.flatMap((workflow) => (workflow.webhookPath ? [workflow.webhookPath] : [])),
			prepare: async (instance) => {
				await linkPackage(instance.userFolder);
				// The first n8n command migrates the new database: it runs alone.
				await importCredential(instance, credential);
				await importWorkflows(
					instance,
					options.workflows.map((workflow) => workflow.file),
				);
				// Each n8n command costs seconds of start-up: these run side by side.
				await Promise.all(
					options.workflows
						.filter((workflow) => workflow.webhookPath || workflow.activate)
						.map((workflow) => activateWorkflow(instance, workflow.id)),
				);
			},
		});
		context = { stack, emulator, url: stack.main.url };
	}, 600000);
	afterAll(async () => {
		await stack?.stop();
		await emulator?.stop();
		if (root) await fsp.rm(root, { recursive: true, force: true });
	}, 120000);
	return () => {
		if (!context) throw new Error('queue-mode stack not set up');
		return context;
	};
}

/** How many executions each worker has logged as started so far. */
export function startedCounts(workers: Worker[]): number[] {
	return workers.map((worker) => worker.executions().length);
}

/** The executions each worker started since `before` (from startedCounts). */
export function startedSince(workers: Worker[], before: number[]): string[][] {
	return workers.map((worker, i) => worker.executions().slice(before[i]));
}

/** Waits until the workers have started `count` executions since `before` (their logs trail the answers a little). */
export async function waitForStarted(workers: Worker[], before: number[], count: number): Promise<string[][]> {
	const deadline = Date.now() + 15000;
	for (;;) {
		const since = startedSince(workers, before);
		if (since.flat().length >= count || Date.now() > deadline) return since;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

export async function postWebhook(
	context: QueueContext,
	webhookPath: string,
	query: Record<string, string>,
	body: Buffer | undefined,
	signal?: AbortSignal,
): Promise<Record<string, unknown>> {
	const response = await fetch(`${context.url}/webhook/${webhookPath}?${new URLSearchParams(query)}`, {
		method: 'POST',
		headers: { 'content-type': body ? 'application/octet-stream' : 'application/json' },
		body: body ?? '{}',
		signal: signal ?? AbortSignal.timeout(240000),
	});
	const text = await response.text();
	if (response.status !== 200) {
		const logs = [context.stack.main, ...context.stack.workers]
			.map((p, i) => `--- ${i === 0 ? 'main' : context.stack.workers[i - 1].name}\n${tail(p.output(), 15)}`)
			.join('\n');
		throw new Error(`webhook ${webhookPath} answered ${response.status}: ${text.slice(0, 500)}\n${logs}`);
	}
	return JSON.parse(text) as Record<string, unknown>;
}
