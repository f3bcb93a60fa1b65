/**
 * Under `n8n start`, the webhook example (examples/workflows/upload-over-http.json) takes a file
 * POSTed to its production URL, uploads it, and answers with what the File Storage node returned.
 */
import { randomBytes } from 'node:crypto';

import { BUCKET, EXAMPLE_IDS, activateWorkflow, sha256, startN8n, tail, useRealN8n } from './support';
import { exampleWorkflowFiles } from '../../scripts/real-n8n/instance';
import type { RunningN8n } from '../../scripts/real-n8n/n8n';

const n8n = useRealN8n({ workflows: exampleWorkflowFiles().filter((file) => file.endsWith('upload-over-http.json')) });
let server: RunningN8n | undefined;

jest.setTimeout(300000);

beforeAll(async () => {
	const { instance } = n8n();
	await activateWorkflow(instance, EXAMPLE_IDS.webhook);
	server = await startN8n(instance, { webhookPaths: ['file-storage-upload'] });
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
