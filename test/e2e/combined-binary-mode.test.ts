/**
 * A workflow imported with the n8n 2.x setting `binaryMode: 'combined'` (what the editor calls
 * Execution Logic v2): n8n keeps every file in the item's JSON under `_files`, so the node reads
 * `data` (meaning `_files.data`), an expression giving the file, and the path `_files.copy`.
 * A file read from disk is uploaded, downloaded, and uploaded twice again; all bytes compared.
 * n8n 1.x has no such mode: skipped in the compatibility run.
 */
import * as path from 'node:path';

import { activeProfile } from '../../scripts/real-n8n/profiles';
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

const WORKFLOW_ID = 'fsE2eCombined001';
// Over one 5 MiB part, so the multipart upload reads two parts from the file under _files.
const SIZE = 6 * MIB + 123;

const hasCombinedMode = !activeProfile().n8nVersion.startsWith('1.');
const n8n = useRealN8n({ workflows: [] });

jest.setTimeout(300000);

beforeAll(async () => {
	if (!hasCombinedMode) return;
	const { instance, filesDir } = n8n();
	const file = await workflowFrom(
		'combined-binary-mode.json',
		{ FILE_PATH: path.join(filesDir, 'combined.bin') },
		filesDir,
	);
	await importWorkflows(instance, [file]);
});

(hasCombinedMode ? describe : describe.skip)(
	"a workflow in combined binary mode (settings.binaryMode 'combined')",
	() => {
		it('uploads a file under _files, downloads it back under _files, and uploads that copy byte-identical', async () => {
			const { instance, emulator, filesDir } = n8n();
			const expectedSha = await writeRandomFile(path.join(filesDir, 'combined.bin'), SIZE);
			const result = await executeWorkflow(instance, WORKFLOW_ID);
			if (result.code !== 0 || result.run?.status !== 'success') {
				throw new Error(`workflow failed (exit ${result.code}):\n${tail(result.output, 40)}`);
			}
			const runData = result.run.data.resultData.runData;
			// The mode is really on: n8n moved the file read from disk into the JSON.
			const read = runData['Read file'][0].data?.main[0]?.[0];
			expect(read?.binary ?? {}).toEqual({});
			expect(nodeJson(result.run, 'Read file')[0]._files).toMatchObject({ data: { fileName: 'combined.bin' } });

			expect(nodeJson(result.run, 'Upload')[0]).toMatchObject({ key: 'e2e/combined.bin', size: SIZE });
			expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'e2e/combined.bin')).toBe(expectedSha);

			const downloaded = runData.Download[0].data?.main[0]?.[0];
			expect(downloaded?.binary ?? {}).toEqual({});
			expect(nodeJson(result.run, 'Download')[0]._files).toMatchObject({ copy: { fileName: 'combined.bin' } });

			expect(nodeJson(result.run, 'Upload copy')[0]).toMatchObject({ key: 'e2e/combined-copy.bin', size: SIZE });
			expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'e2e/combined-copy.bin')).toBe(expectedSha);
			expect(nodeJson(result.run, 'Multipart upload of the copy')[0]).toMatchObject({
				key: 'e2e/combined-multipart.bin',
				size: SIZE,
				partCount: 2,
			});
			expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'e2e/combined-multipart.bin')).toBe(expectedSha);
		});
	},
);
