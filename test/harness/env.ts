/**
 * Process environment for an in-process n8n-core. Import this before anything that requires
 * n8n-core or @n8n/config: their config classes read `process.env` when first instantiated, and
 * InstanceSettings writes its settings file under N8N_USER_FOLDER (otherwise under $HOME).
 *
 * Jest gives every test file its own module registry and its own copy of `process.env`, so each
 * test file gets its own temp folder, its own n8n-core instance and its own DI container.
 */
import 'reflect-metadata';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const harnessTempDir = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
export const binaryStoragePath = join(harnessTempDir, 'storage');

Object.assign(process.env, {
	N8N_USER_FOLDER: join(harnessTempDir, 'user'),
	// Both names point at the same folder: StorageConfig refuses two different ones.
	N8N_STORAGE_PATH: binaryStoragePath,
	N8N_BINARY_DATA_STORAGE_PATH: binaryStoragePath,
	N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
	// Fixed key: InstanceSettings otherwise generates one and writes it to the settings file.
	N8N_ENCRYPTION_KEY: 'n8n-nodes-file-storage-test-harness',
	// isolated-vm is not built on Node 20; n8n-core only switches engines when asked to, but a
	// stray N8N_EXPRESSION_ENGINE=vm in the caller's shell must not leak in.
	N8N_EXPRESSION_ENGINE: 'legacy',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	// Expected node failures are reported through ErrorReporter -> Logger.error; keep jest output
	// readable unless someone asks for logs.
	N8N_LOG_LEVEL: process.env.HARNESS_N8N_LOG_LEVEL ?? 'silent',
});

export function removeHarnessTempDir(): void {
	rmSync(harnessTempDir, { recursive: true, force: true });
}
