/**
 * In-process harness: runs a node of an n8n community package through n8n-core's real
 * WorkflowExecute inside jest. See README.md next to this file.
 */
import { removeHarnessTempDir } from './env';

export type { HarnessBinaryInput, HarnessItem, HarnessNodeError, RunNodeOptions, RunNodeResult } from './types';
export { runNode } from './run-node';
export { runPoll, type RunPollOptions, type RunPollResult } from './run-poll';
export { testCredential, type CredentialTestResult } from './credential-test';
export { runListSearch, type ListSearchOptions } from './list-search';
export { binarySha256, getBinaryDataService, readBinary, storeBinary, storeBinaryFile } from './binary';
export { loadPackage } from './package-loader';
export { harnessTempDir } from './env';

/** Deletes the harness temp folder (binary store, n8n user folder). Registered as afterAll. */
export async function shutdownHarness(): Promise<void> {
	removeHarnessTempDir();
}

// jest gives each test file its own module instance and temp folder, and process 'exit'
// handlers registered inside a test file never fire; afterAll is the one reliable hook.
// Only registrable while the file's top level runs (import from inside a test: call
// shutdownHarness yourself).
if (typeof afterAll === 'function') {
	try {
		afterAll(shutdownHarness);
	} catch {
		// Imported from within a running test: cleanup is up to the caller.
	}
}
