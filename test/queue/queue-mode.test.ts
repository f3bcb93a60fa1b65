/**
 * The node in n8n queue mode: PostgreSQL, Redis, one main and two workers, binary data in the
 * database, manual executions offloaded. Every file is checked byte for byte on the emulator.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

import { emulatorClient } from '../emulator/conformance/client';
import { EXAMPLE_IDS, exampleWorkflowFiles } from '../../scripts/real-n8n/instance';
import { login, testCredential as testCredentialOverRest } from '../../scripts/real-n8n/n8n';
import { killWorker } from '../../scripts/queue/stack';
import { startBigSource } from '../e2e/bigSource';
import {
	BUCKET,
	MIB,
	OWNER,
	postWebhook,
	sha256,
	startedCounts,
	startedSince,
	useQueueStack,
	waitForStarted,
	type QueueContext,
} from './support';

const UPLOAD_PATH = 'file-storage-upload';
const COPY_PATH = 'queue-copy';
const DOWNLOAD_PATH = 'queue-download';
const FROM_URL_PATH = 'queue-from-url';
/** N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE for this stack: above the 40 MiB upload, below the 49 MiB download. */
const DB_LIMIT_MIB = 48;
/** Jobs per worker: 8 uploads at once cannot all fit on one worker. */
const CONCURRENCY = 4;

const queue = useQueueStack({
	binaryDatabaseMaxMiB: DB_LIMIT_MIB,
	concurrency: CONCURRENCY,
	workflows: [
		{
			file: exampleWorkflowFiles().find((file) => file.endsWith('upload-over-http.json'))!,
			id: EXAMPLE_IDS.webhook,
			webhookPath: UPLOAD_PATH,
		},
		{ file: exampleWorkflowFiles().find((file) => file.endsWith('upload-file.json'))!, id: EXAMPLE_IDS.upload },
		{
			file: path.join(__dirname, 'workflows', 'download-then-upload.json'),
			id: 'fsQueueCopy00001',
			webhookPath: COPY_PATH,
		},
		{
			file: path.join(__dirname, 'workflows', 'download-only.json'),
			id: 'fsQueueDownload1',
			webhookPath: DOWNLOAD_PATH,
		},
		{
			file: path.join(__dirname, 'workflows', 'upload-from-url.json'),
			id: 'fsQueueFromUrl01',
			webhookPath: FROM_URL_PATH,
		},
		// Activated before n8n starts: its activation poll on main finds the waiting file.
		{ file: path.join(__dirname, 'workflows', 'trigger-emit-existing.json'), id: 'fsQueueTrigger01', activate: true },
	],
	beforeStart: async (emulator) => {
		const response = await emulatorClient(emulator).upload(WAITING_KEY, WAITING_BODY, {
			contentType: 'application/octet-stream',
		});
		if (response.status !== 200) throw new Error(`seeding ${WAITING_KEY} failed: HTTP ${response.status}`);
	},
});

const WAITING_KEY = 'inbox/waiting.bin';
const WAITING_BODY = randomBytes(3 * MIB + 5);

jest.setTimeout(300000);

async function seedObject(context: QueueContext, key: string, body: Buffer): Promise<void> {
	const response = await emulatorClient(context.emulator).upload(key, body, {
		contentType: 'application/octet-stream',
	});
	if (response.status !== 200) throw new Error(`seeding ${key} failed: HTTP ${response.status}`);
}

async function storedSha(context: QueueContext, key: string): Promise<string | undefined> {
	return await context.emulator.objectSha256(BUCKET.name, BUCKET.region, key);
}

/** A production webhook upload, with the execution ids the workers logged for it. */
async function uploadOverWebhook(context: QueueContext, name: string, body: Buffer) {
	const { workers } = context.stack;
	const before = startedCounts(workers);
	const answer = await postWebhook(context, UPLOAD_PATH, { key: name }, body);
	const started = await waitForStarted(workers, before, 1);
	return { answer, started };
}

// First: the trigger's execution starts with n8n, and must not be counted by the tests after it.
describe('File Storage Trigger in queue mode', () => {
	it('polls on main at activation; the execution it starts runs on a worker and copies the file', async () => {
		const context = queue();
		const deadline = Date.now() + 120000;
		let copied: string | undefined;
		while (!(copied = await storedSha(context, 'processed/waiting.bin')) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		expect(copied).toBe(sha256(WAITING_BODY));
		const started = (await waitForStarted(context.stack.workers, [0, 0], 1)).flat();
		expect(started).toHaveLength(1);
		expect(context.stack.main.output()).not.toMatch(new RegExp(`started execution ${started[0]}\\b`));
	});
});

describe('production webhook uploads run on a worker', () => {
	it.each([
		['a small file, in one request', 'small.bin', 2 * MIB + 3],
		['a 40 MiB file, in parts (Multipart Upload)', 'large-40.bin', 40 * MIB + 4321],
	])('%s', async (_, name, size) => {
		const context = queue();
		const body = randomBytes(size);
		context.emulator.resetStats();
		const { answer, started } = await uploadOverWebhook(context, name, body);
		expect(answer).toMatchObject({ key: `incoming/${name}`, size });
		expect(await storedSha(context, `incoming/${name}`)).toBe(sha256(body));
		// Exactly one execution, started by exactly one worker; main only enqueued it.
		expect(started.flat()).toHaveLength(1);
		expect(context.stack.main.output()).not.toMatch(new RegExp(`started execution ${started.flat()[0]}\\b`));
		expect(context.stack.main.output()).toMatch(new RegExp(`Enqueued execution ${started.flat()[0]}\\b`));
		const stats = context.emulator.stats();
		if (size > 32 * MIB) {
			expect(stats.requests).toMatchObject({ upload: 0, start: 1, complete: 1 });
			expect(stats.requests.uploadPart).toBeGreaterThanOrEqual(2);
		} else {
			expect(stats.requests).toMatchObject({ upload: 1, start: 0 });
		}
		expect(stats.openMultipartUploads).toBe(0);
	});
});

describe('8 webhook uploads at once', () => {
	it('stores every file byte for byte, on both workers, leaving no upload open', async () => {
		const context = queue();
		const { workers } = context.stack;
		const files = Array.from({ length: 8 }, (_, i) => ({
			name: `concurrent/file-${i}.bin`,
			body: randomBytes((i + 1) * MIB + 1000 + i),
		}));
		const before = startedCounts(workers);
		const answers = await Promise.all(
			files.map((file) => postWebhook(context, UPLOAD_PATH, { key: file.name }, file.body)),
		);
		for (const [i, file] of files.entries()) {
			expect(answers[i]).toMatchObject({ key: `incoming/${file.name}`, size: file.body.length });
			expect(await storedSha(context, `incoming/${file.name}`)).toBe(sha256(file.body));
		}
		const started = await waitForStarted(workers, before, files.length);
		expect(started.flat()).toHaveLength(files.length);
		for (const ids of started) expect(ids.length).toBeGreaterThan(0);
		expect(context.emulator.stats().openMultipartUploads).toBe(0);
		expect(context.emulator.listOpenUploads()).toEqual([]);
	});
});

// In database binary mode n8n's store reads the downloaded body with a `data` listener of its own.
describe('Download in database binary mode', () => {
	it('then Upload under a new key stores the same bytes', async () => {
		const context = queue();
		const body = randomBytes(6 * MIB + 77);
		await seedObject(context, 'copy/source.bin', body);
		const before = startedCounts(context.stack.workers);
		const answer = await postWebhook(context, COPY_PATH, { from: 'copy/source.bin', to: 'copy/target.bin' }, undefined);
		expect(answer).toMatchObject({ key: 'copy/target.bin', size: body.length });
		expect(await storedSha(context, 'copy/target.bin')).toBe(sha256(body));
		expect((await waitForStarted(context.stack.workers, before, 1)).flat()).toHaveLength(1);
	});

	it(`of a file above the ${DB_LIMIT_MIB} MiB database limit fails naming the limit and the setting`, async () => {
		const context = queue();
		const key = 'copy/too-big.bin';
		await seedObject(context, key, randomBytes((DB_LIMIT_MIB + 1) * MIB + 5));
		const answer = await postWebhook(context, DOWNLOAD_PATH, { key }, undefined);
		// The node's error, passed on as the item (the node continues on error in this workflow).
		const error = String(answer.error ?? '');
		expect(error).toMatch(new RegExp(`\\b${DB_LIMIT_MIB} MB\\b`));
		expect(error).toContain('N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE');
		// The store refused the file: not reported as a cut connection or a stall.
		expect(error).toMatch(/could not be stored by n8n/);
		expect(error).not.toMatch(/cut short|stalled/);
		// No file came out, neither whole nor cut short.
		expect(answer).not.toHaveProperty('size');
		expect(answer).not.toHaveProperty('fileName');
		// Both workers are still there and serving.
		for (const worker of context.stack.workers) expect(worker.child.exitCode ?? worker.child.signalCode).toBeNull();
		const small = randomBytes(1000);
		await postWebhook(context, UPLOAD_PATH, { key: 'after-limit.bin' }, small);
		expect(await storedSha(context, 'incoming/after-limit.bin')).toBe(sha256(small));
	});
});

describe('Upload from a URL', () => {
	it(`of a file above the ${DB_LIMIT_MIB} MiB database limit goes source → storage on a worker, never an n8n binary`, async () => {
		const context = queue();
		const source = await startBigSource();
		try {
			const size = (DB_LIMIT_MIB + 16) * MIB + 3;
			const key = 'from-url/above-limit.bin';
			const before = startedCounts(context.stack.workers);
			const answer = await postWebhook(
				context,
				FROM_URL_PATH,
				{ url: `${source.url}/above-limit.bin?size=${size}&signature=not-to-be-shown`, key },
				undefined,
			);
			expect(answer.error).toBeUndefined();
			expect(answer).toMatchObject({ key, size, source: 'url', url: `${source.url}/above-limit.bin`, partCount: 9 });
			expect(await storedSha(context, key)).toBe(source.sent.get('/above-limit.bin'));
			expect((await waitForStarted(context.stack.workers, before, 1)).flat()).toHaveLength(1);
			expect(context.emulator.listOpenUploads()).toEqual([]);
		} finally {
			await source.stop();
		}
	});
});

describe("the credential's Test button, with manual executions offloaded", () => {
	async function testCredential(context: QueueContext, data: Record<string, string>) {
		return await testCredentialOverRest(context.url, await login(context.url, OWNER.email, OWNER.password), data);
	}

	it('passes for the right keys and fails for a wrong secret', async () => {
		const context = queue();
		const good = {
			accessKey: context.emulator.accessKey,
			secretKey: context.emulator.secretKey,
			baseUrl: context.emulator.url,
		};
		expect(await testCredential(context, good)).toMatchObject({ status: 'OK' });
		const bad = await testCredential(context, { ...good, secretKey: 'queue-wrong-secret-7f2e' });
		expect(bad.status).toBe('Error');
		expect(bad.message).toMatch(/Invalid authentication credentials/);
	});
});

describe('a manual run from the editor, offloaded', () => {
	it('runs the upload example on a worker and stores its file', async () => {
		const context = queue();
		const { workers } = context.stack;
		const cookie = await login(context.url, OWNER.email, OWNER.password);
		const before = startedCounts(workers);
		// What the editor sends for "Execute workflow" from the example's Manual Trigger.
		const response = await fetch(`${context.url}/rest/workflows/${EXAMPLE_IDS.upload}/run`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ triggerToStartFrom: { name: "When clicking 'Execute workflow'" } }),
			signal: AbortSignal.timeout(60000),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`manual run answered ${response.status}: ${text}`);
		const executionId = String((JSON.parse(text) as { data: { executionId: string } }).data.executionId);
		const started = await waitForStarted(workers, before, 1);
		expect(started.flat()).toEqual([executionId]);
		const deadline = Date.now() + 60000;
		let status = '';
		while (Date.now() < deadline) {
			const execution = await fetch(`${context.url}/rest/executions/${executionId}`, {
				headers: { cookie },
				signal: AbortSignal.timeout(30000),
			});
			status = ((await execution.json()) as { data?: { status?: string } }).data?.status ?? '';
			if (status !== 'new' && status !== 'running' && status !== '') break;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		expect(status).toBe('success');
		const stored = await context.emulator.readObject(BUCKET.name, BUCKET.region, 'examples/hello.txt');
		expect(stored?.body.toString('utf8')).toBe('Hello from n8n!\nThis file was uploaded by the File Storage node.\n');
	});
});

describe('a worker killed in the middle of a Multipart Upload', () => {
	it('leaves the other worker serving, and a second run stores the file', async () => {
		const context = queue();
		const { workers } = context.stack;
		const name = 'killed/large.bin';
		const key = `incoming/${name}`;
		const body = randomBytes(40 * MIB + 999);
		// Part 3 of the next upload never gets its answer: the run is surely mid-upload when killed.
		context.emulator.setFaults([{ operation: 'uploadPart', partNumbers: [3], hang: true, times: 1 }]);
		const before = startedCounts(workers);
		const abort = new AbortController();
		const first = postWebhook(context, UPLOAD_PATH, { key: name }, body, abort.signal).catch((err: Error) => err);
		const deadline = Date.now() + 120000;
		while (context.emulator.stats().faultsInjected < 1) {
			if (Date.now() > deadline) throw new Error('the upload never reached part 3');
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const running = startedSince(workers, before);
		const victimIndex = running.findIndex((ids) => ids.length > 0);
		expect(running.flat()).toHaveLength(1);
		const victim = workers[victimIndex];
		const survivor = workers[1 - victimIndex];
		const [openBefore] = context.emulator.listOpenUploads();
		expect(openBefore).toMatchObject({ key });
		await killWorker(victim);
		context.emulator.setFaults([]);

		// The other worker keeps serving.
		const small = randomBytes(4096);
		const survivorBefore = survivor.executions().length;
		await postWebhook(context, UPLOAD_PATH, { key: 'killed/after.bin' }, small);
		expect(await storedSha(context, 'incoming/killed/after.bin')).toBe(sha256(small));
		expect(survivor.executions().length).toBeGreaterThan(survivorBefore);
		expect(survivor.child.exitCode ?? survivor.child.signalCode).toBeNull();

		// Running the workflow again stores the whole file.
		const again = await postWebhook(context, UPLOAD_PATH, { key: name }, body);
		expect(again).toMatchObject({ key, size: body.length });
		expect(await storedSha(context, key)).toBe(sha256(body));

		// What the killed run leaves: its upload stays open on the service, with the parts it sent,
		// until it is cancelled (see README, "Running in queue mode").
		const open = context.emulator.listOpenUploads();
		expect(open.map((upload) => upload.uploadId)).toContain(openBefore.uploadId);
		abort.abort();
		await first;
	});
});
