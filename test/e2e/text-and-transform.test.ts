/**
 * Upload → Source Text and File → Transform in a real `n8n start`, over webhooks, at the node's
 * current version: what a workflow posts is stored byte for byte, and a public file's
 * transformation is built from the service's location and downloaded through the CDN.
 */
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';

import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { BUCKET, webhookWorkflow, activateWorkflow, importWorkflows, startN8n, tail, useRealN8n } from './support';

/** One webhook per step; each answers with its File Storage node's first item. */
const STEPS = {
	text: {
		resource: 'file',
		operation: 'upload',
		source: 'text',
		text: '={{ $json.body.text }}',
		key: '={{ $json.query.key }}',
		visibility: 'public',
	},
	transform: {
		resource: 'file',
		operation: 'transform',
		fileKey: { __rl: true, mode: 'key', value: '={{ $json.query.key }}' },
		transformation: 'image',
		width: 200,
		height: 100,
		downloadTransformed: true,
	},
} as const;
type Step = keyof typeof STEPS;

const idOf = (step: Step) => `fsE2eTxt${step.slice(0, 8).padEnd(8, '0')}`;

function workflow(step: Step): object {
	return webhookWorkflow({
		id: idOf(step),
		name: `e2e: text and transform, ${step}`,
		path: `txt-${step}`,
		typeVersion: 3,
		parameters: STEPS[step],
	});
}

const n8n = useRealN8n({ workflows: [] });
let server: RunningN8n | undefined;

jest.setTimeout(5 * 60_000);

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	const steps = Object.keys(STEPS) as Step[];
	const files = steps.map((step) => path.join(filesDir, `txt-${step}.json`));
	await Promise.all(steps.map((step, index) => fsp.writeFile(files[index], JSON.stringify(workflow(step)))));
	await importWorkflows(instance, files);
	for (const step of steps) await activateWorkflow(instance, idOf(step));
	server = await startN8n(instance, { webhookPaths: steps.map((step) => `txt-${step}`) });
}, 300_000);

afterAll(async () => {
	await server?.stop();
});

async function call(step: Step, query: Record<string, string>, body: object = {}) {
	const response = await fetch(`${server!.url}/webhook/txt-${step}?${new URLSearchParams(query).toString()}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(60_000),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
	return JSON.parse(text) as Array<Record<string, unknown>>;
}

it('Upload from Text stores what the workflow posted, byte for byte (UTF-8)', async () => {
	const { emulator } = n8n();
	const text = 'Grüße aus n8n: ✓ one line\nand another\n';
	const [stored] = await call('text', { key: 'e2e/text/hello.txt' }, { text });
	expect(stored).toMatchObject({ key: 'e2e/text/hello.txt', size: Buffer.byteLength(text) });
	const object = await emulator.readObject(BUCKET.name, BUCKET.region, 'e2e/text/hello.txt');
	expect(object?.body.toString('utf8')).toBe(text);
});

it('Transform builds the transformation from the service location and downloads the transformed file', async () => {
	await call('text', { key: 'e2e/text/picture.png' }, { text: 'not really a picture' });
	const [transformed] = await call('transform', { key: 'e2e/text/picture.png' });
	expect(transformed).toMatchObject({ key: 'e2e/text/picture.png', transformation: 'tr-w_200,h_100' });
	expect(String(transformed.url)).toMatch(/\/f\/[^/]+\/tr-w_200,h_100\/e2e\/text\/picture\.png$/);
	// The emulator serves the original bytes under the transformed path.
	expect(transformed.size).toBe(Buffer.byteLength('not really a picture'));
});
