/**
 * The two refusals of a File Path that N8N_RESTRICT_FILE_ACCESS_TO does not explain: n8n's own
 * folder (N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES) and N8N_BLOCK_FILE_PATTERNS (by default `.git`
 * folders). Both folders are allowed here, so only the block in question can refuse the path.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { harnessTempDir } from '../harness';
import { BUCKET, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const allowed = realpathSync(mkdtempSync(join(tmpdir(), 'fs-blocks-')));
/** n8n's own folder in the harness: `<N8N_USER_FOLDER>/.n8n`. */
const n8nFolder = join(realpathSync(harnessTempDir), 'user', '.n8n');
// Read by n8n when a node first asks about a path.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = `${allowed};${n8nFolder}`;

const emulator = useEmulator();
const bytes = randomFile(4096 + 1);
const KEY = 'blocks/file.bin';

beforeAll(async () => {
	mkdirSync(n8nFolder, { recursive: true });
	writeFileSync(join(n8nFolder, 'notes.bin'), bytes);
	for (const folder of ['.git', 'git']) {
		mkdirSync(join(allowed, 'repo', folder), { recursive: true });
		writeFileSync(join(allowed, 'repo', folder, 'config'), bytes);
	}
	const up = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: KEY },
		{ items: [fileItem(bytes)] },
	);
	expect(up.error).toBeUndefined();
});
afterAll(() => rmSync(allowed, { recursive: true, force: true }));
beforeEach(() => emulator().resetStats());

const upload = async (path: string) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'upload',
		source: 'filePath',
		sourceFilePath: path,
		key: 'blocks/uploaded.bin',
	});

const download = async (path: string, extra: INodeParameters = {}) =>
	await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'key', value: KEY },
			destination: 'filePath',
			destinationFilePath: path,
			...extra,
		},
		{ items: [fileItem(Buffer.from('incoming'), 'in.txt')] },
	);

const refused = (path: string, reason: string) =>
	`n8n does not allow access to '${path}' (parameter 'File Path'): ${reason}`;
const IN_N8N_FOLDER = `it is inside n8n's own folder (${n8nFolder})`;
const MATCHES_PATTERNS = 'it matches N8N_BLOCK_FILE_PATTERNS (by default any .git folder)';

function expectNothingSent() {
	const requests = emulator().stats().requests;
	expect(requests.start + requests.upload + requests.signedUrl).toBe(0);
}

describe("a File Path in n8n's own folder (N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES)", () => {
	it('is refused as a source, naming the setting, although N8N_RESTRICT_FILE_ACCESS_TO allows the folder; with the setting off it is read', async () => {
		const path = join(n8nFolder, 'notes.bin');
		const result = await upload(path);
		expect(result.error?.message).toBe(refused(path, IN_N8N_FOLDER));
		expect(result.error?.description).toMatch(/N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES/);
		expectNothingSent();

		// The setting is what refused it: off (n8n reads it on each check), the same path is read.
		process.env.N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES = 'false';
		try {
			const unblocked = await upload(path);
			expect(unblocked.error).toBeUndefined();
			expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, 'blocks/uploaded.bin')).toBe(
				sha256(bytes),
			);
		} finally {
			delete process.env.N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES;
		}
	});

	it('is refused as a Download destination before the download; nothing is written there', async () => {
		const path = join(n8nFolder, 'downloaded.bin');
		const result = await download(path);
		expect(result.error?.message).toBe(refused(path, IN_N8N_FOLDER));
		expectNothingSent();
		expect(readdirSync(n8nFolder).filter((name) => name.includes('downloaded'))).toEqual([]);
	});
});

describe('a File Path matching N8N_BLOCK_FILE_PATTERNS (by default .git folders)', () => {
	it('is refused as a source, naming the setting, inside an allowed folder; the same file outside .git is read', async () => {
		const path = join(allowed, 'repo', '.git', 'config');
		const result = await upload(path);
		expect(result.error?.message).toBe(refused(path, MATCHES_PATTERNS));
		expect(result.error?.description).toMatch(/N8N_BLOCK_FILE_PATTERNS/);
		expectNothingSent();

		const plain = await upload(join(allowed, 'repo', 'git', 'config'));
		expect(plain.error).toBeUndefined();
	});

	it('is refused as a Download destination before the download; nothing is written there', async () => {
		const folder = join(allowed, 'repo', '.git');
		const result = await download(join(folder, 'downloaded.bin'));
		expect(result.error?.message).toBe(refused(join(folder, 'downloaded.bin'), MATCHES_PATTERNS));
		expectNothingSent();
		expect(readdirSync(folder)).toEqual(['config']);
	});
});
