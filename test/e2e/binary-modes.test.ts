/**
 * A file of more than 20 MB, read from disk by n8n's own node, goes through Multipart Upload in
 * real n8n under both binary data modes: filesystem (the default) and database; then Download
 * brings it back into that store and Upload stores the copy.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import {
	BUCKET,
	MIB,
	executeWorkflow,
	importWorkflows,
	nodeJson,
	tail,
	useRealN8n,
	workflowFrom,
	writeRandomFile,
} from './support';

const WORKFLOW_ID = 'fsE2eFromDisk001';
const KEY = 'e2e/large-from-disk.bin';
// Not a multiple of the 5 MiB part size, so the short last part is exercised too.
const SIZE = 21 * MIB + 12345;

const n8n = useRealN8n({ workflows: [] });

jest.setTimeout(300000);

const UNEVEN_WORKFLOW_ID = 'fsE2eFromDisk002';
// 5.5 MiB parts cut through n8n's 1 MiB file reads, so one read's bytes end up in two parts.
const UNEVEN_PART_SIZE_MIB = 5.5;

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	const workflowFile = await workflowFrom(
		'multipart-from-disk.json',
		{ FILE_PATH: path.join(filesDir, 'large.bin') },
		filesDir,
	);
	const uneven = JSON.parse(await fsp.readFile(workflowFile, 'utf8')) as {
		id: string;
		name: string;
		nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
	};
	uneven.id = UNEVEN_WORKFLOW_ID;
	uneven.name += ' (5.5 MiB parts)';
	uneven.nodes.find((node) => node.name === 'Multipart upload')!.parameters.partSize = UNEVEN_PART_SIZE_MIB;
	const unevenFile = path.join(filesDir, 'multipart-from-disk-uneven.json');
	await fsp.writeFile(unevenFile, JSON.stringify(uneven));
	await importWorkflows(instance, [workflowFile, unevenFile]);
});

describe.each([
	['filesystem', 'filesystem-v2:'],
	['database', 'database:'],
])('a 21 MiB multipart upload in %s binary mode', (mode, idPrefix) => {
	it('stores the same bytes, in 5 parts, with at most 4 at once', async () => {
		const { instance, emulator, filesDir } = n8n();
		const expectedSha = await writeRandomFile(path.join(filesDir, 'large.bin'), SIZE);
		emulator.resetStats();
		const result = await executeWorkflow(instance, WORKFLOW_ID, {
			// n8n 1.x offers only filesystem unless told otherwise.
			env: { N8N_DEFAULT_BINARY_DATA_MODE: mode, N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem,database' },
		});
		if (result.code !== 0 || result.run?.status !== 'success') {
			throw new Error(`workflow failed (exit ${result.code}):\n${tail(result.output, 40)}`);
		}
		const read = result.run.data.resultData.runData['Read file'][0].data?.main[0][0];
		expect(String(read?.binary?.data?.id)).toMatch(new RegExp(`^${idPrefix}`));
		expect(nodeJson(result.run, 'Multipart upload')[0]).toMatchObject({ key: KEY, size: SIZE, partCount: 5 });
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, KEY)).toBe(expectedSha);
		const stats = emulator.stats();
		expect(stats.requests).toMatchObject({ start: 1, uploadPart: 5, complete: 1, upload: 1 });
		expect(stats.maxConcurrentPartUploads).toBeLessThanOrEqual(4);
		expect(stats.openMultipartUploads).toBe(0);
		// The download went into the same store (a database store reads the body its own way).
		const downloaded = result.run.data.resultData.runData.Download[0].data?.main[0][0];
		expect(String(downloaded?.binary?.copy?.id)).toMatch(new RegExp(`^${idPrefix}`));
		expect(nodeJson(result.run, 'Upload copy')[0]).toMatchObject({ key: 'e2e/copy.bin', size: SIZE });
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'e2e/copy.bin')).toBe(expectedSha);
	});
});

describe("parts that do not line up with n8n's reads (filesystem mode)", () => {
	// On Node.js 24 the node frees each read buffer once copied (binaryInput.ts, releaseReadBuffer):
	// a read whose bytes straddle two parts must be freed only after both got their share.
	it('stores the same bytes in 5.5 MiB parts', async () => {
		const { instance, emulator, filesDir } = n8n();
		const expectedSha = await writeRandomFile(path.join(filesDir, 'large.bin'), SIZE);
		emulator.resetStats();
		const result = await executeWorkflow(instance, UNEVEN_WORKFLOW_ID);
		if (result.code !== 0 || result.run?.status !== 'success') {
			throw new Error(`workflow failed (exit ${result.code}):\n${tail(result.output, 40)}`);
		}
		const partSize = Math.floor(UNEVEN_PART_SIZE_MIB * MIB);
		expect(nodeJson(result.run, 'Multipart upload')[0]).toMatchObject({
			key: KEY,
			size: SIZE,
			partSize,
			partCount: Math.ceil(SIZE / partSize),
		});
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, KEY)).toBe(expectedSha);
		expect(emulator.stats().openMultipartUploads).toBe(0);
	});
});
