import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { BUCKET, MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

// n8n reads this when a node first asks whether a path is allowed (n8n 2.x allows only
// ~/.n8n-files without it): files here are allowed, files in `outside` are not.
const allowed = realpathSync(mkdtempSync(join(tmpdir(), 'fs-allowed-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'fs-outside-')));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = allowed;

const emulator = useEmulator();
const small = randomFile(1 * MIB + 3);
const large = randomFile(20 * MIB + 7);

beforeAll(() => {
	writeFileSync(join(allowed, 'small.bin'), small);
	writeFileSync(join(allowed, 'large video.mp4'), large);
	writeFileSync(join(outside, 'secret.bin'), small);
	mkdirSync(join(allowed, 'folder'));
});
afterAll(() => {
	rmSync(allowed, { recursive: true, force: true });
	rmSync(outside, { recursive: true, force: true });
});
beforeEach(() => {
	emulator().resetStats();
	emulator().setFaults([]);
});

const fromPath = async (path: string, extra: INodeParameters = {}, operation = 'upload', continueOnFail = false) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation, source: 'filePath', sourceFilePath: path, ...extra },
		{ continueOnFail },
	);

const stored = async (key: string) => await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);

describe('Upload from a file path', () => {
	it('a small file goes in one request under its file name; the output names the path', async () => {
		const path = join(allowed, 'small.bin');
		const result = await fromPath(path);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			key: 'small.bin',
			size: small.length,
			source: 'filePath',
			filePath: path,
		});
		expect(emulator().stats().requests.upload).toBe(1);
		expect(await stored('small.bin')).toBe(sha256(small));
	});

	it('a large file goes in parts, typed by its extension', async () => {
		const path = join(allowed, 'large video.mp4');
		const result = await fromPath(
			path,
			{ key: 'videos/large.mp4', partSize: 5, parallelUploads: 2 },
			'multipartUpload',
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ partCount: 5, partSize: 5 * MIB, content_type: 'video/mp4' });
		expect(await stored('videos/large.mp4')).toBe(sha256(large));
		expect(emulator().listOpenUploads()).toEqual([]);
	});
});

describe('Upload from a file path that cannot be read', () => {
	it('a missing file names the field', async () => {
		const path = join(allowed, 'missing.bin');
		const result = await fromPath(path);
		expect(result.error?.message).toBe(`There is no file at '${path}' (parameter 'File Path')`);
		expect(emulator().stats().requests.start + emulator().stats().requests.upload).toBe(0);
	});

	it('a folder instead of a file', async () => {
		const path = join(allowed, 'folder');
		const result = await fromPath(path);
		expect(result.error?.message).toBe(`'${path}' is a folder, not a file (parameter 'File Path')`);
	});

	it('a missing folder', async () => {
		const path = join(allowed, 'nowhere', 'a.bin');
		const result = await fromPath(path);
		expect(result.error?.message).toBe(`The folder of '${path}' does not exist (parameter 'File Path')`);
	});

	it('a path outside N8N_RESTRICT_FILE_ACCESS_TO is refused, naming the setting', async () => {
		const path = join(outside, 'secret.bin');
		const result = await fromPath(path);
		expect(result.error?.message).toBe(
			`n8n does not allow access to '${path}' (parameter 'File Path'): it is outside the folders N8N_RESTRICT_FILE_ACCESS_TO allows`,
		);
		expect(result.error?.description).toMatch(/add its folder to N8N_RESTRICT_FILE_ACCESS_TO/);
		expect(emulator().stats().requests.upload).toBe(0);
	});

	it('an empty (0-byte) file', async () => {
		const path = join(allowed, 'empty.bin');
		writeFileSync(path, Buffer.alloc(0));
		const result = await fromPath(path);
		expect(result.error?.message).toBe(`The file '${path}' is empty (0 bytes)`);
		expect(emulator().stats().requests.start + emulator().stats().requests.upload).toBe(0);
	});

	it('an empty File Path', async () => {
		const result = await fromPath('  ');
		expect(result.error?.message).toBe("The parameter 'File Path' is empty");
	});

	it('Continue on error: one error item per failing item, paired', async () => {
		const result = await fromPath(join(allowed, 'missing.bin'), {}, 'upload', true);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toMatch(/There is no file at/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Download to a file path', () => {
	const KEY = 'downloads/large.mp4';
	const download = async (path: string, options: INodeParameters = {}, typeVersion?: number) =>
		await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'download',
				fileKey: { __rl: true, mode: 'key', value: KEY },
				destination: 'filePath',
				destinationFilePath: path,
				options,
			},
			{ items: [fileItem(Buffer.from('incoming'), 'in.txt')], ...(typeVersion ? { typeVersion } : {}) },
		);
	const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.partial'));

	beforeAll(async () => {
		const up = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: KEY },
			{ items: [fileItem(large)] },
		);
		expect(up.error).toBeUndefined();
	});

	it('writes the file byte-identical; the temporary file is left empty', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const path = join(folder, 'copy.mp4');
		const result = await download(path);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			key: KEY,
			destination: 'filePath',
			filePath: path,
			fileName: 'copy.mp4',
			size: large.length,
		});
		// Version 2 keeps the incoming item's binary fields.
		expect(Object.keys(result.items[0].binary ?? {})).toEqual(['data']);
		expect(sha256(readFileSync(path))).toBe(sha256(large));
		const temporary = leftovers(folder);
		expect(temporary).toHaveLength(1);
		expect(temporary[0]).toMatch(/^\.copy\.mp4\.[0-9a-f]{8}\.partial$/);
		expect(readFileSync(join(folder, temporary[0])).length).toBe(0);
	});

	it('replaces an existing file; version 1 outputs no binary', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const path = join(folder, 'existing.mp4');
		writeFileSync(path, Buffer.from('old content that is longer than nothing'));
		const result = await download(path, {}, 1);
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary).toBeUndefined();
		expect(sha256(readFileSync(path))).toBe(sha256(large));
	});

	it.each([
		[2, false],
		[3, true],
	])(
		"version %s: the output keeps the incoming item's files, and its JSON from version 3 on (%s), the download's fields added",
		async (typeVersion, keepsJson) => {
			const folder = mkdtempSync(join(allowed, 'dl-'));
			const result = await download(join(folder, 'kept.mp4'), {}, typeVersion);
			expect(result.error).toBeUndefined();
			const json = result.items[0].json;
			expect(json).toMatchObject({ key: KEY, destination: 'filePath', size: large.length });
			expect(json.name === 'in.txt').toBe(keepsJson);
			expect(Object.keys(result.items[0].binary ?? {})).toEqual(['data']);
		},
	);

	it('a download cut off midway never touches the final name: an existing file keeps its content', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const path = join(folder, 'keep.mp4');
		const old = Buffer.from('the file that was there before');
		writeFileSync(path, old);
		emulator().setFaults([{ operation: 'cdn', truncate: 64 * 1024 }]);
		const result = await download(path, { maxRetries: 0 });
		expect(result.error?.message).toMatch(
			new RegExp(`^Download of '${KEY}' was cut short (after \\d+|: received \\d+) of ${large.length} bytes`),
		);
		expect(result.error?.description).toMatch(/^Nothing was written to '.*keep\.mp4'\./);
		expect(readFileSync(path)).toEqual(old);
		// What arrived is not kept, not even under the temporary name.
		for (const name of leftovers(folder)) expect(readFileSync(join(folder, name)).length).toBe(0);
	});

	it('a cut-off download to a new path leaves no file under that name', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		emulator().setFaults([{ operation: 'cdn', truncate: 64 * 1024 }]);
		const result = await download(join(folder, 'new.mp4'), { maxRetries: 0 });
		expect(result.error?.message).toMatch(/was cut short/);
		expect(readdirSync(folder).filter((name) => !name.endsWith('.partial'))).toEqual([]);
	});

	it('a stall after some bytes ends at the Timeout option: an existing file keeps its content, a new path gets no file', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const path = join(folder, 'keep.mp4');
		writeFileSync(path, 'the file that was there before');
		emulator().setFaults([{ operation: 'cdn', stall: 64 * 1024 }]);
		const kept = await download(path, { timeout: 2, maxRetries: 0 });
		expect(kept.error?.message).toMatch(
			new RegExp(`^Download of '${KEY}' stalled: no data for 2 s after \\d+ of ${large.length} bytes`),
		);
		expect(kept.error?.description).toMatch(/^Nothing was written to '.*keep\.mp4'\. .*raise the Timeout option/);
		expect(readFileSync(path, 'utf8')).toBe('the file that was there before');
		const fresh = await download(join(folder, 'new.mp4'), { timeout: 2, maxRetries: 0 });
		expect(fresh.error?.message).toMatch(/stalled: no data for 2 s/);
		expect(readdirSync(folder).filter((name) => !name.endsWith('.partial'))).toEqual(['keep.mp4']);
	});

	it('a valid long file name (250 bytes) is written: the temporary name is no longer than the longest allowed', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const name = `${'a'.repeat(246)}.mp4`;
		const result = await download(join(folder, name));
		expect(result.error).toBeUndefined();
		expect(sha256(readFileSync(join(folder, name)))).toBe(sha256(large));
		for (const temporary of leftovers(folder)) expect(Buffer.byteLength(temporary)).toBeLessThanOrEqual(255);
	});

	it('a missing file is "not found", naming the bucket and the key; nothing is written', async () => {
		const folder = mkdtempSync(join(allowed, 'dl-'));
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'key', value: 'nope/missing.pdf' },
			destination: 'filePath',
			destinationFilePath: join(folder, 'missing.pdf'),
		});
		expect(result.error?.message).toBe(
			"The file 'nope/missing.pdf' was not found in bucket 'my-bucket' (region us-east-1)",
		);
		expect(readdirSync(folder)).toEqual([]);
	});

	it('a folder as the destination', async () => {
		const result = await download(join(allowed, 'folder'));
		expect(result.error?.message).toBe(`'${join(allowed, 'folder')}' is a folder (parameter 'File Path')`);
		expect(emulator().stats().requests.signedUrl).toBe(0);
	});

	it('a destination outside N8N_RESTRICT_FILE_ACCESS_TO is refused before the download', async () => {
		const path = join(outside, 'out.mp4');
		const result = await download(path);
		expect(result.error?.message).toMatch(/^n8n does not allow access to .* N8N_RESTRICT_FILE_ACCESS_TO allows$/);
		expect(emulator().stats().requests.signedUrl).toBe(0);
		expect(readdirSync(outside)).toEqual(['secret.bin']);
	});
});
