/**
 * A file of more than 20 MB, read from disk by n8n's own node, goes through Multipart Upload in
 * real n8n under both binary data modes: filesystem (the default) and database.
 */
import * as path from 'node:path';

import { BUCKET, MIB, executeWorkflow, importWorkflows, nodeJson, tail, useRealN8n, workflowFrom, writeRandomFile } from './support';

const WORKFLOW_ID = 'fsE2eFromDisk001';
const KEY = 'e2e/large-from-disk.bin';
// Not a multiple of the 5 MiB part size, so the short last part is exercised too.
const SIZE = 21 * MIB + 12345;

const n8n = useRealN8n({ workflows: [] });

jest.setTimeout(300000);

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	const workflowFile = await workflowFrom('multipart-from-disk.json', { FILE_PATH: path.join(filesDir, 'large.bin') }, filesDir);
	await importWorkflows(instance, [workflowFile]);
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
		expect(stats.requests).toMatchObject({ start: 1, uploadPart: 5, complete: 1 });
		expect(stats.maxConcurrentPartUploads).toBeLessThanOrEqual(4);
		expect(stats.openMultipartUploads).toBe(0);
	});
});
