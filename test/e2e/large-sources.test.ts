/**
 * A file far larger than n8n's binary store should ever see goes URL → storage → file path in a
 * real `n8n start`, never becoming an n8n binary: byte-identical, with the n8n process growing by
 * no more than the multipart bound of the README (Part Size × (Parallel Uploads + 1) + 1 MiB).
 * The source is generated as it is served; the size is 2 GiB unless E2E_LARGE_BYTES says otherwise.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { procStatus, resetPeak } from '../../bench/memory';
import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { startBigSource, type BigSource } from './bigSource';
import { BUCKET, MIB, activateWorkflow, importWorkflows, startN8n, tail, useRealN8n } from './support';

const SIZE = Number(process.env.E2E_LARGE_BYTES ?? 2 * 1024 * MIB);
const WARM_UP_SIZE = 24 * MIB + 5;
/** The node's defaults: 8 MiB parts, 4 at once. */
const MULTIPART_BOUND = 8 * MIB * (4 + 1) + MIB;
const WORKFLOW_ID = 'fsE2eLargeSrc001';
const WEBHOOK_PATH = 'large-transfer';
const CREDENTIALS = { fileStorageApi: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)' } };

const n8n = useRealN8n({ workflows: [] });
let server: RunningN8n | undefined;
let source: BigSource;

jest.setTimeout(30 * 60_000);

/** Webhook (?url, key, path) → Upload from the URL → Download to the path; answers with the download's output. */
function workflow(): object {
	const storage = { bucketName: BUCKET.name, region: BUCKET.region };
	return {
		id: WORKFLOW_ID,
		name: 'e2e: URL → storage → file path',
		nodes: [
			{
				id: 'b0000000-0000-4000-8000-000000000001',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'b0000000-0000-4000-8000-0000000000aa',
				parameters: {
					httpMethod: 'POST',
					path: WEBHOOK_PATH,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Upload from URL',
				type: 'n8n-nodes-file-storage.fileStorage',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					resource: 'file',
					operation: 'upload',
					...storage,
					source: 'url',
					sourceUrl: '={{ $json.query.url }}',
					key: '={{ $json.query.key }}',
					options: {},
				},
				credentials: CREDENTIALS,
			},
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: 'Download to path',
				type: 'n8n-nodes-file-storage.fileStorage',
				typeVersion: 2,
				position: [440, 0],
				parameters: {
					resource: 'file',
					operation: 'download',
					...storage,
					fileKey: { __rl: true, mode: 'key', value: '={{ $json.key }}' },
					destination: 'filePath',
					destinationFilePath: "={{ $('Webhook').item.json.query.path }}",
					options: {},
				},
				credentials: CREDENTIALS,
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Upload from URL', type: 'main', index: 0 }]] },
			'Upload from URL': { main: [[{ node: 'Download to path', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

async function fileSha256(file: string): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(file, { highWaterMark: 4 * MIB })) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

async function transfer(size: number, key: string, file: string): Promise<Record<string, unknown>> {
	const query = new URLSearchParams({
		url: `${source.url}/${key}?size=${size}&signature=not-to-be-shown`,
		key,
		path: file,
	});
	const response = await fetch(`${server!.url}/webhook/${WEBHOOK_PATH}?${query.toString()}`, {
		method: 'POST',
		signal: AbortSignal.timeout(25 * 60_000),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
	return JSON.parse(text) as Record<string, unknown>;
}

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	source = await startBigSource();
	const file = path.join(filesDir, 'large-sources.json');
	await fsp.writeFile(file, JSON.stringify(workflow()));
	await importWorkflows(instance, [file]);
	await activateWorkflow(instance, WORKFLOW_ID);
	server = await startN8n(instance, { webhookPaths: [WEBHOOK_PATH] });
}, 300_000);

afterAll(async () => {
	await server?.stop();
	await source?.stop();
});

it(`moves ${SIZE} bytes URL → storage → file path byte-identical, n8n growing by at most the multipart bound`, async () => {
	const { emulator, filesDir } = n8n();
	// The first run loads and compiles what the node needs; the measured run starts from there.
	const warmUpFile = path.join(filesDir, 'warm-up.bin');
	await transfer(WARM_UP_SIZE, 'e2e/warm-up.bin', warmUpFile);
	expect(await fileSha256(warmUpFile)).toBe(source.sent.get('/e2e/warm-up.bin'));

	const pid = server!.child.pid as number;
	const before = procStatus(pid).rss;
	const peakReset = resetPeak(pid);
	const file = path.join(filesDir, 'large.bin');
	const answer = await transfer(SIZE, 'e2e/large.bin', file);
	const growth = procStatus(pid).hwm - before;
	process.stderr.write(
		`large-sources: ${SIZE} bytes; n8n RSS before ${(before / MIB).toFixed(1)} MiB, peak growth ${(growth / MIB).toFixed(1)} MiB (bound ${MULTIPART_BOUND / MIB} MiB, peak reset ${peakReset})\n`,
	);
	try {
		expect(answer).toMatchObject({ key: 'e2e/large.bin', destination: 'filePath', filePath: file, size: SIZE });
		const sent = source.sent.get('/e2e/large.bin');
		expect(sent).toBeDefined();
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'e2e/large.bin')).toBe(sent);
		expect(await fileSha256(file)).toBe(sent);
		expect(emulator.stats().openMultipartUploads).toBe(0);
		expect(peakReset).toBe(true);
		expect(growth).toBeLessThanOrEqual(MULTIPART_BOUND);
	} finally {
		await fsp.rm(file, { force: true });
		await fsp.rm(warmUpFile, { force: true });
	}
});
