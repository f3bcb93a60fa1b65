/**
 * Source URL redirects in real n8n: a source that redirects to another origin must not see the
 * Source Headers reach that origin (n8n's HTTP client would pass custom headers on, and
 * Authorization too unless told otherwise), while a redirect within the origin keeps them.
 * One headless `n8n execute` of a workflow with one upload per case; the sources are two local
 * servers on different ports, i.e. different origins.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { SOURCE_TOKEN, redirectTo, startSourceServer, type SourceServer } from '../node/sourceServer';
import { BUCKET, executeWorkflow, importWorkflows, nodeJson, sha256, tail, useRealN8n } from './support';

const WORKFLOW_ID = 'fsE2eUrlRedirect';
const API_KEY = 'e2e-api-key-not-for-other-hosts';
const CREDENTIALS = { fileStorageApi: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)' } };
const file = Buffer.from('a file behind a redirect\n'.repeat(4096));

const n8n = useRealN8n({ workflows: [] });
let source: SourceServer;
let elsewhere: SourceServer;

// A run of one `n8n execute` costs a few seconds of n8n startup, more on a busy machine.
jest.setTimeout(240_000);

/** One Upload from a URL with an Authorization and an X-Api-Key Source Header. */
function uploadNode(name: string, index: number, url: string, key: string) {
	return {
		id: `${WORKFLOW_ID}-${index}`,
		name,
		type: 'n8n-nodes-file-storage.fileStorage',
		typeVersion: 2,
		position: [220 * index, 0],
		parameters: {
			resource: 'file',
			operation: 'upload',
			bucketName: BUCKET.name,
			region: BUCKET.region,
			source: 'url',
			sourceUrl: url,
			sourceHeaders: {
				header: [
					{ name: 'Authorization', value: SOURCE_TOKEN },
					{ name: 'X-Api-Key', value: API_KEY },
				],
			},
			key,
			options: {},
		},
		credentials: CREDENTIALS,
	};
}

beforeAll(async () => {
	source = await startSourceServer({ 'report.txt': file });
	elsewhere = await startSourceServer({ 'report.txt': file });
	const nodes = [
		{
			id: `${WORKFLOW_ID}-0`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		uploadNode('Other origin', 1, redirectTo(source, `${elsewhere.url}/file/report.txt`), 'e2e/cross-origin.txt'),
		uploadNode('Same origin', 2, redirectTo(source, `${source.url}/auth/report.txt`), 'e2e/same-origin.txt'),
		uploadNode(
			'Away and back',
			3,
			redirectTo(source, redirectTo(elsewhere, `${source.url}/file/report.txt`)),
			'e2e/away-and-back.txt',
		),
	];
	const connections = Object.fromEntries(
		nodes.slice(0, -1).map((node, i) => [node.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }]),
	);
	const workflow = {
		id: WORKFLOW_ID,
		name: 'e2e: Source URL redirects',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
	const { instance, filesDir } = n8n();
	const workflowFile = path.join(filesDir, 'source-url-redirects.json');
	await fsp.writeFile(workflowFile, JSON.stringify(workflow));
	await importWorkflows(instance, [workflowFile]);
});

afterAll(async () => {
	await source?.stop();
	await elsewhere?.stop();
});

it('sends the Source Headers to the origin of the URL and its same-origin redirects, never to another origin', async () => {
	const { instance, emulator } = n8n();
	const result = await executeWorkflow(instance, WORKFLOW_ID);
	if (result.code !== 0 || result.run?.status !== 'success') {
		throw new Error(
			`workflow did not succeed (exit ${result.code ?? result.signal}, status ${result.run?.status}):\n${tail(result.output, 40)}`,
		);
	}
	const atSource = source.requests.map((r) => [r.path, r.headers.authorization, r.headers['x-api-key']]);
	const atElsewhere = elsewhere.requests.map((r) => [r.path, r.headers.authorization, r.headers['x-api-key']]);
	// The first hop of each upload carries the headers, and so does the same-origin hop to /auth/;
	// another origin never gets them, nor the first origin once a redirect has left it.
	expect({ atSource, atElsewhere }).toEqual({
		atSource: [
			[expect.stringMatching(/^\/to\//), SOURCE_TOKEN, API_KEY],
			[expect.stringMatching(/^\/to\//), SOURCE_TOKEN, API_KEY],
			['/auth/report.txt', SOURCE_TOKEN, API_KEY],
			[expect.stringMatching(/^\/to\//), SOURCE_TOKEN, API_KEY],
			['/file/report.txt', undefined, undefined],
		],
		atElsewhere: [
			['/file/report.txt', undefined, undefined],
			[expect.stringMatching(/^\/to\//), undefined, undefined],
		],
	});
	expect(JSON.stringify(elsewhere.requests.map((r) => r.headers))).not.toMatch(/source-token|e2e-api-key/);
	for (const [node, key] of [
		['Other origin', 'e2e/cross-origin.txt'],
		['Same origin', 'e2e/same-origin.txt'],
		['Away and back', 'e2e/away-and-back.txt'],
	]) {
		expect(nodeJson(result.run, node)[0]).toMatchObject({ key, size: file.length, source: 'url' });
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, key)).toBe(sha256(file));
	}
	expect(result.output).not.toMatch(/source-token|e2e-api-key/);
});
