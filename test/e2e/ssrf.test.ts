/**
 * n8n's SSRF protection in real n8n: with N8N_SSRF_PROTECTION_ENABLED=true and the emulator's
 * 127.0.0.1 allowed (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32), a request to another loopback
 * address (127.0.0.2, in n8n's default block list) is refused with the same message for n8n's own
 * HTTP Request node, for an Upload from a Source URL, and for a Download of a File given By URL
 * whose signed link points there. One headless `n8n execute` per workflow: a failed node ends it.
 * n8n 1.x has no SSRF protection: skipped in the compatibility run.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { startSourceServer, type SourceServer } from '../node/sourceServer';
import {
	BUCKET,
	executeWorkflow,
	importWorkflows,
	nodeJson,
	sha256,
	tail,
	useRealN8n,
	type E2eContext,
} from './support';
import { activeProfile } from '../../scripts/real-n8n/profiles';

const hasSsrfProtection = !activeProfile().n8nVersion.startsWith('1.');
const CREDENTIALS = { fileStorageApi: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)' } };
const SSRF_ENV = { N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' };
/** n8n's own words for a refused address. */
const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';
const KEY = 'e2e/ssrf/report.bin';
const file = Buffer.from('a file n8n may fetch from 127.0.0.1 only\n'.repeat(2048));

const n8n = useRealN8n({ workflows: [] });
let allowed: SourceServer;
let blocked: SourceServer;

// A run of one `n8n execute` costs a few seconds of n8n startup, more on a busy machine.
jest.setTimeout(240_000);

type WorkflowNode = Record<string, unknown> & { name: string };

const START: WorkflowNode = {
	id: 'ssrf-start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function fileStorageNode(name: string, parameters: Record<string, unknown>): WorkflowNode {
	return {
		id: `ssrf-${name.replace(/\W+/g, '-').toLowerCase()}`,
		name,
		type: 'n8n-nodes-file-storage.fileStorage',
		typeVersion: 2,
		position: [0, 0],
		parameters: { resource: 'file', bucketName: BUCKET.name, region: BUCKET.region, options: {}, ...parameters },
		credentials: CREDENTIALS,
	};
}

/** A workflow of Start and `nodes` in a chain. */
function chain(id: string, nodes: WorkflowNode[]) {
	const all = [START, ...nodes].map((node, i) => ({ ...node, position: [220 * i, 0] }));
	const connections = Object.fromEntries(
		all.slice(0, -1).map((node, i) => [node.name, { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] }]),
	);
	return { id, name: `e2e: ${id}`, nodes: all, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

function workflows() {
	return [
		chain('fsE2eSsrfHttpRequest', [
			{
				id: 'ssrf-http-request',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [0, 0],
				parameters: { method: 'GET', url: `${blocked.url}/file/report.bin`, options: {} },
			},
		]),
		chain('fsE2eSsrfSourceUrl', [
			fileStorageNode('Upload from URL', {
				operation: 'upload',
				source: 'url',
				sourceUrl: `${blocked.url}/file/report.bin`,
				key: KEY,
			}),
		]),
		chain('fsE2eSsrfByUrl', [
			// From the allowed 127.0.0.1: the file the next node downloads.
			fileStorageNode('Upload from allowed URL', {
				operation: 'upload',
				source: 'url',
				sourceUrl: `${allowed.url}/file/report.bin`,
				key: KEY,
			}),
			fileStorageNode('Download By URL', {
				operation: 'download',
				fileKey: { __rl: true, mode: 'url', value: `${n8n().emulator.cdnUrl}/f/${n8n().emulator.accessId}/${KEY}` },
			}),
		]),
	];
}

beforeAll(async () => {
	allowed = await startSourceServer({ 'report.bin': file });
	blocked = await startSourceServer({ 'report.bin': file }, '127.0.0.2');
	const { instance, filesDir } = n8n();
	const files: string[] = [];
	for (const workflow of workflows()) {
		const target = path.join(filesDir, `${workflow.id}.json`);
		await fsp.writeFile(target, JSON.stringify(workflow));
		files.push(target);
	}
	await importWorkflows(instance, files);
});

afterAll(async () => {
	await allowed?.stop();
	await blocked?.stop();
});

/** Runs a workflow that must fail at `nodeName`; returns that node's error. */
async function failingRun({ instance }: E2eContext, workflowId: string, nodeName: string) {
	const result = await executeWorkflow(instance, workflowId, { env: SSRF_ENV });
	const error = result.run?.data.resultData.runData[nodeName]?.[0]?.error;
	if (result.code === 0 || !error) {
		throw new Error(`expected ${nodeName} to fail (exit ${result.code ?? result.signal}):\n${tail(result.output, 40)}`);
	}
	return { error, result };
}

(hasSsrfProtection ? it : it.skip)(
	"refuses a blocked address with n8n's message for the HTTP Request node, a Source URL and a By URL file's signed link",
	async () => {
		const context = n8n();
		const { emulator } = context;

		const httpRequest = await failingRun(context, 'fsE2eSsrfHttpRequest', 'HTTP Request');
		expect(httpRequest.error.message).toBe(BLOCKED);
		// n8n's explanation (which address, why), which the node repeats before naming the settings.
		const why = String(httpRequest.error.description);
		expect(why).toContain('127.0.0.2');

		const sourceUrl = await failingRun(context, 'fsE2eSsrfSourceUrl', 'Upload from URL');
		expect(sourceUrl.error.message).toBe(
			`The source URL '${blocked.url}/file/report.bin' was refused by n8n: ${BLOCKED}`,
		);
		expect(sourceUrl.error.description).toContain(why);
		expect(sourceUrl.error.description).toMatch(/N8N_SSRF_ALLOWED_IP_RANGES/);
		expect(emulator.listOpenUploads()).toEqual([]);

		// The file's link as the service hands it out points at the blocked address (a CDN there).
		emulator.setFaults([{ operation: 'signedUrl', rewrite: { url: `${blocked.url}/file/report.bin` } }]);
		try {
			const byUrl = await failingRun(context, 'fsE2eSsrfByUrl', 'Download By URL');
			// The upload before it, from 127.0.0.1 to the emulator on 127.0.0.1, was allowed.
			expect(nodeJson(byUrl.result.run, 'Upload from allowed URL')[0]).toMatchObject({ key: KEY, size: file.length });
			expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, KEY)).toBe(sha256(file));
			expect(byUrl.error.message).toBe(`Download of '${KEY}' failed: ${BLOCKED}`);
			expect(byUrl.error.description).toContain(why);
		} finally {
			emulator.setFaults([]);
		}
		// Nothing reached the blocked address: n8n refused before connecting, and nobody retried.
		expect(blocked.requests).toHaveLength(0);
	},
);
