/**
 * The trigger example (examples/workflows/watch-inbox.json) under `n8n start`: activation runs
 * one poll at once, so each start is a poll (n8n's shortest interval is a minute). The first
 * start records the inbox; a file added then is emitted by the next start's poll, and the workflow
 * processes it (Get Info) and moves it to done/: the emulator shows it there and no longer in inbox/.
 */
import { randomBytes } from 'node:crypto';

import { BUCKET, activateWorkflow, sha256, startN8n, tail, useRealN8n } from './support';
import { exampleWorkflowFiles } from '../../scripts/real-n8n/instance';
import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { apiFor, put } from '../trigger/support';

const TRIGGER_WORKFLOW_ID = 'fsExampleTrigger';
const n8n = useRealN8n({ workflows: exampleWorkflowFiles().filter((file) => file.endsWith('watch-inbox.json')) });
let server: RunningN8n | undefined;

jest.setTimeout(600000);

afterAll(async () => {
	await server?.stop();
});

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what} did not happen in time:\n${tail(server?.output() ?? '', 40)}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

it('emits a file added after activation once, and the workflow processes it and moves it to done/', async () => {
	const { instance, emulator } = n8n();
	const api = apiFor(emulator);
	await put(api, 'inbox/before.txt', 'was there before');
	await activateWorkflow(instance, TRIGGER_WORKFLOW_ID);

	// Activation: the first poll records what exists and emits nothing.
	server = await startN8n(instance);
	await waitFor('the activation poll', async () => (emulator.stats().requests.list > 0 ? true : undefined), 60000);
	await server.stop();
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'done/before.txt')).toBeUndefined();

	const body = randomBytes(64 * 1024 + 3);
	await put(api, 'inbox/new file.bin', body, { contentType: 'application/octet-stream' });

	// Activated again: this poll finds the new file, and the workflow moves it to done/.
	server = await startN8n(instance);
	const moved = await waitFor(
		'the move of the new file',
		async () =>
			(await emulator.readObject(BUCKET.name, BUCKET.region, 'inbox/new file.bin')) === undefined
				? await emulator.objectSha256(BUCKET.name, BUCKET.region, 'done/new file.bin')
				: undefined,
		120000,
	);
	expect(moved).toBe(sha256(body));
	// Only what was emitted is moved: the file that was there at activation stays.
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'inbox/before.txt')).toBeDefined();
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'done/before.txt')).toBeUndefined();
});
