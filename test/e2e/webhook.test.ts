/**
 * Under `n8n start`: the webhook example (examples/workflows/upload-over-http.json) takes a file
 * POSTed to its production URL, uploads it, and answers with what the File Storage node returned;
 * and Get Browser Upload URL behind a Webhook, built as its panel suggests, signs the browser's key.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import {
	BUCKET,
	EXAMPLE_IDS,
	activateWorkflow,
	importWorkflows,
	sha256,
	startN8n,
	tail,
	useRealN8n,
	webhookWorkflow,
} from './support';
import { exampleWorkflowFiles } from '../../scripts/real-n8n/instance';
import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { PACKAGE_ROOT } from '../../scripts/real-n8n/profiles';

const n8n = useRealN8n({ workflows: exampleWorkflowFiles().filter((file) => file.endsWith('upload-over-http.json')) });
let server: RunningN8n | undefined;

/** The expression the built panel's Key hint suggests, as a user copies it into Key. */
function suggestedKeyExpression(): string {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { FileStorage } = require(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js')) as {
		FileStorage: new () => { description: { properties: INodeProperties[] } };
	};
	const key = new FileStorage().description.properties.find((field) => field.name === 'browserKey');
	const expression = /\{\{.*?\}\}/.exec(String(key?.hint))?.[0];
	if (!expression) throw new Error(`the Key hint suggests no expression: ${String(key?.hint)}`);
	return expression;
}

const BROWSER_ID = 'fsE2eBrowserKey';
const BROWSER_PATH = 'browser-key-hint';

/** A Webhook and Get Browser Upload URL whose Key is the panel's suggestion; errors become its answer. */
function browserKeyWorkflow(): object {
	const workflow = webhookWorkflow({
		id: BROWSER_ID,
		name: 'e2e: Get Browser Upload URL, Key as the panel suggests',
		path: BROWSER_PATH,
		typeVersion: 3,
		parameters: {
			resource: 'file',
			operation: 'signedOperationUrl',
			requestType: '={{ $json.body.type }}',
			folder: { __rl: true, mode: 'path', value: 'browser-uploads/' },
			browserKey: `=${suggestedKeyExpression()}`,
		},
	}) as { nodes: Array<Record<string, unknown>> };
	workflow.nodes[1].onError = 'continueRegularOutput';
	return workflow;
}

jest.setTimeout(300000);

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	const browserFile = path.join(filesDir, 'browser-key-hint.json');
	await fsp.writeFile(browserFile, JSON.stringify(browserKeyWorkflow()));
	await importWorkflows(instance, [browserFile]);
	await activateWorkflow(instance, EXAMPLE_IDS.webhook);
	await activateWorkflow(instance, BROWSER_ID);
	server = await startN8n(instance, { webhookPaths: ['file-storage-upload', BROWSER_PATH] });
}, 300000);

afterAll(async () => {
	await server?.stop();
});

it('uploads a POSTed file and answers with the stored file', async () => {
	const { emulator } = n8n();
	const body = randomBytes(3 * 1024 * 1024 + 17);
	const response = await fetch(`${server!.url}/webhook/file-storage-upload?key=posted%20file.bin`, {
		method: 'POST',
		headers: { 'content-type': 'application/octet-stream' },
		body,
		signal: AbortSignal.timeout(120000),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
	expect(JSON.parse(text)).toMatchObject({
		key: 'incoming/posted file.bin',
		size: body.length,
		bucket: BUCKET.name,
		region: BUCKET.region,
		content_type: 'application/octet-stream',
	});
	expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'incoming/posted file.bin')).toBe(sha256(body));
});

describe('the webhook example answers every way a file is sent', () => {
	/** A POST to the example's production URL: its status and its answer as JSON. */
	async function post(query: string, init: RequestInit): Promise<{ status: number; answer: Record<string, unknown> }> {
		const response = await fetch(`${server!.url}/webhook/file-storage-upload${query}`, {
			method: 'POST',
			...init,
			signal: AbortSignal.timeout(120000),
		});
		const text = await response.text();
		try {
			return { status: response.status, answer: JSON.parse(text) as Record<string, unknown> };
		} catch {
			throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
		}
	}

	it('a form upload (curl -F file=@report.pdf) is stored under its own name', async () => {
		const { emulator } = n8n();
		const body = randomBytes(64 * 1024 + 3);
		const form = new FormData();
		form.append('file', new Blob([body], { type: 'application/pdf' }), 'report.pdf');
		const { status, answer } = await post('', { body: form });
		expect({ status, answer }).toMatchObject({
			status: 200,
			answer: { key: 'incoming/report.pdf', size: body.length },
		});
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'incoming/report.pdf')).toBe(sha256(body));
	});

	it('a raw body without ?key= is refused with how to name it, never stored under a made-up name', async () => {
		const { emulator } = n8n();
		emulator.resetStats();
		const { status, answer } = await post('', {
			headers: { 'content-type': 'application/octet-stream' },
			body: randomBytes(1000),
		});
		expect(status).toBe(400);
		expect(String(answer.error)).toMatch(/add \?key=<name> to the URL/);
		expect(emulator.stats().requests).toMatchObject({ upload: 0, start: 0 });
	});

	it('a failed upload answers with the node\'s own error, not a bare "Error in workflow"', async () => {
		const { status, answer } = await post('?key=empty.bin', {
			headers: { 'content-type': 'application/octet-stream' },
		});
		expect(status).toBe(400);
		expect(String(answer.error)).not.toBe('Error in workflow');
		expect(String(answer.error)).toMatch(/binary|Input Binary Field|data/i);
	});
});

/** What the browser SDK's getSignedUrl posts, as docs/browser-uploads.md shows it, and the first item answered. */
async function askForBrowserUrl(body: object): Promise<Record<string, unknown>> {
	const response = await fetch(`${server!.url}/webhook/${BROWSER_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(60000),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
	return (JSON.parse(text) as Array<Record<string, unknown>>)[0];
}

describe("Get Browser Upload URL's Key behind a Webhook, as the panel suggests", () => {
	it("the Key hint's expression reads the key the browser posted", async () => {
		const answer = await askForBrowserUrl({ type: 'upload', params: { key: 'photo 1.jpg' } });
		expect(answer).toMatchObject({ type: 'upload', method: 'PUT', key: 'browser-uploads/photo 1.jpg' });
		expect(new URL(String(answer.url), 'http://x').searchParams.get('key')).toBe('browser-uploads/photo 1.jpg');
	});

	it('the "Key is empty" error suggests the same expression as the hint', async () => {
		const answer = await askForBrowserUrl({ type: 'upload', params: {} });
		expect(answer.error).toBe("The parameter 'Key' is empty");
		expect(String(answer.description)).toContain(suggestedKeyExpression());
	});
});
