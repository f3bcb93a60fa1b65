/**
 * Folder → Copy and Folder → Move, through n8n-core's engine over real HTTP to the emulator:
 * every file of a folder by the path of File → Copy and Move, Dry Run, Replace Existing Files off
 * by default, a destination inside the source refused, one item per file, Continue On Fail.
 */
import type { INodeParameters } from 'n8n-workflow';

import { apiFor, put } from '../trigger/support';
import { BUCKET, MIB, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });

/** A tree under `root`: files at two depths, a marker for a sub-folder, one file sent in parts. */
async function tree(root: string, large = false): Promise<Map<string, Buffer>> {
	const files = new Map<string, Buffer>([
		[`${root}a.txt`, Buffer.from(`a of ${root}`)],
		[`${root}b.bin`, randomFile(70_000)],
		[`${root}sub/c.txt`, Buffer.from(`c of ${root}`)],
		[`${root}sub/deeper/d.txt`, Buffer.from(`d of ${root}`)],
		[`${root}empty/`, Buffer.alloc(0)],
	]);
	if (large) files.set(`${root}large.bin`, randomFile(6 * MIB));
	for (const [key, bytes] of files) await put(api(), key, bytes, { contentType: 'application/octet-stream' });
	return files;
}

async function folder(
	operation: 'copy' | 'move',
	from: string,
	to: string,
	parameters: INodeParameters = {},
	extra = {},
) {
	return await runFileStorage(
		emulator(),
		{
			resource: 'folder',
			operation,
			folder: path(from),
			destinationFolder: path(to),
			...parameters,
			options: { multipartThreshold: 5, partSize: 5, ...((parameters.options as object) ?? {}) },
		},
		extra,
	);
}

/** Each file's bytes under `to` instead of `from`. */
async function expectCopied(files: Map<string, Buffer>, from: string, to: string) {
	for (const [key, bytes] of files) {
		const copy = await read(`${to}${key.slice(from.length)}`);
		expect(copy && sha256(copy.body)).toBe(sha256(bytes));
	}
}

const statuses = (result: Awaited<ReturnType<typeof folder>>) =>
	Object.fromEntries(result.items.map((item) => [(item.json.source as { key: string }).key, item.json.status]));

beforeEach(() => {
	emulator().setFaults([]);
	emulator().resetStats();
});

describe('Folder → Copy', () => {
	it('copies every file byte-identical (sub-folders, a marker, a file in parts), one item per file; the source stays', async () => {
		const files = await tree('site/', true);
		const result = await folder('copy', 'site/', 'site-backup/');
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(files.size);
		expect(new Set(result.items.map((item) => item.json.status))).toEqual(new Set(['copied']));
		expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		expect(result.items.find((item) => item.json.key === 'site-backup/sub/c.txt')?.json).toMatchObject({
			source: { key: 'site/sub/c.txt', bucket: BUCKET.bucketName, region: BUCKET.region },
			size: 10,
			checked: ['size'],
		});
		await expectCopied(files, 'site/', 'site-backup/');
		await expectCopied(files, 'site/', 'site/');
	});

	it('run again, skips every file whose destination holds the same bytes: nothing is uploaded twice', async () => {
		const files = await tree('again/');
		expect((await folder('copy', 'again/', 'again-copy/')).error).toBeUndefined();
		emulator().resetStats();
		const result = await folder('copy', 'again/', 'again-copy/', { options: { summary: true } });
		expect(result.error).toBeUndefined();
		expect(result.items.slice(0, -1).map((item) => item.json.status)).toEqual(Array(files.size).fill('skipped'));
		expect(result.items.at(-1)?.json).toMatchObject({ summary: true, files: files.size, skipped: files.size });
		const { requests } = emulator().stats();
		expect([requests.upload ?? 0, requests.start ?? 0, requests.delete ?? 0]).toEqual([0, 0, 0]);
	});

	it('a file already at the destination with other bytes is reported, not replaced, unless Replace Existing Files is on', async () => {
		await tree('keep/');
		await put(api(), 'keep-copy/a.txt', 'someone else wrote this');
		const result = await folder('copy', 'keep/', 'keep-copy/');
		expect(result.error).toBeUndefined();
		expect(statuses(result)['keep/a.txt']).toBe('exists');
		expect(String(result.items.find((item) => item.json.key === 'keep-copy/a.txt')?.json.reason)).toMatch(
			/already exists and is not the same file: the destination is 23 bytes, the source 10/,
		);
		expect((await read('keep-copy/a.txt'))?.body.toString()).toBe('someone else wrote this');
		expect(statuses(result)['keep/sub/c.txt']).toBe('copied');
		const replaced = await folder('copy', 'keep/', 'keep-copy/', { replace: true });
		expect(statuses(replaced)['keep/a.txt']).toBe('copied');
		expect((await read('keep-copy/a.txt'))?.body.toString()).toBe('a of keep/');
	});

	it('Include Subfolders off copies only the files directly in the folder (and its marker)', async () => {
		await tree('flat/');
		await put(api(), 'flat/', '');
		const result = await folder('copy', 'flat/', 'flat-copy/', { includeSubfolders: false });
		expect(result.items.map((item) => item.json.key).sort()).toEqual([
			'flat-copy/',
			'flat-copy/a.txt',
			'flat-copy/b.bin',
		]);
		expect(await read('flat-copy/sub/c.txt')).toBeUndefined();
	});
});

describe('Folder → Move', () => {
	it("to the top of the bucket: the files go there; the source folder's own marker stays, said so", async () => {
		await put(api(), 'lift/', '');
		await put(api(), 'lift/top-level.txt', 'up');
		const result = await folder('move', 'lift/', '/');
		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual({ 'lift/': 'kept', 'lift/top-level.txt': 'moved' });
		expect((await read('top-level.txt'))?.body.toString()).toBe('up');
		expect(await read('lift/')).toBeDefined();
	});

	it('moves every file byte-identical, markers included; the source folder is empty after', async () => {
		const files = await tree('inbox/2026-11/', true);
		const result = await folder('move', 'inbox/2026-11/', 'archive/2026-11/');
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.status, item.json.sourceDeleted])).toEqual(
			Array(files.size).fill(['moved', true]),
		);
		await expectCopied(files, 'inbox/2026-11/', 'archive/2026-11/');
		for (const key of files.keys()) expect(await read(key)).toBeUndefined();
		expect(await read('archive/2026-11/empty/')).toBeDefined();
	});

	it('a Move stopped between a copy and its delete is finished by a run again: the source goes, the copy is not made twice', async () => {
		const files = await tree('half/');
		// The second delete fails: that file is copied and checked, its source still there.
		emulator().setFaults([{ operation: 'delete', status: 500, nth: [2] }]);
		const first = await folder('move', 'half/', 'half-done/', { options: { maxRetries: 0 } }, { continueOnFail: true });
		expect(first.error).toBeUndefined();
		const failed = first.items.filter((item) => item.json.status === 'failed');
		expect(failed).toHaveLength(1);
		expect(String(failed[0].json.error)).toMatch(/deleting the source failed/);
		expect(first.items.filter((item) => item.json.status === 'moved')).toHaveLength(files.size - 1);
		emulator().setFaults([]);
		emulator().resetStats();
		const again = await folder('move', 'half/', 'half-done/');
		expect(again.error).toBeUndefined();
		expect(
			again.items.map((item) => [item.json.status, item.json.destinationWasThere, item.json.sourceDeleted]),
		).toEqual([['moved', true, true]]);
		expect(emulator().stats().requests.upload ?? 0).toBe(0);
		await expectCopied(files, 'half/', 'half-done/');
		for (const key of files.keys()) expect(await read(key)).toBeUndefined();
	});

	it('a file at the destination with other bytes keeps its source: reported as exists, nothing deleted', async () => {
		await tree('clash/');
		await put(api(), 'clash-to/sub/c.txt', 'other bytes');
		const result = await folder('move', 'clash/', 'clash-to/');
		expect(result.error).toBeUndefined();
		expect(statuses(result)['clash/sub/c.txt']).toBe('exists');
		expect((await read('clash/sub/c.txt'))?.body.toString()).toBe('c of clash/');
		expect((await read('clash-to/sub/c.txt'))?.body.toString()).toBe('other bytes');
		expect(statuses(result)['clash/a.txt']).toBe('moved');
	});
});

describe('Folder → Copy and Move: refusals, Dry Run, failures', () => {
	it.each(['copy', 'move'] as const)(
		'%s: a destination inside the source (a/ → a/b/) is refused before any request',
		async (operation) => {
			emulator().resetStats();
			const inside = await folder(operation, 'nest/', 'nest/b/');
			expect(inside.error?.message).toMatch(
				/the destination 'nest\/b\/' in bucket 'my-bucket' \(region us-east-1\) is inside the source folder 'nest\/'/,
			);
			const itself = await folder(operation, 'nest', 'nest/');
			expect(itself.error?.message).toMatch(/is the source folder itself/);
			const { requests } = emulator().stats();
			expect(Object.values(requests).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(0);
		},
	);

	it('a source inside the destination (a/b/ → a/) never writes into the source folder: a file that would is kept', async () => {
		await put(api(), 'up/b/z.txt', 'z of b');
		await put(api(), 'up/b/b/z.txt', 'z of b/b');
		const result = await folder('move', 'up/b/', 'up/', { replace: true });
		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual({ 'up/b/z.txt': 'moved', 'up/b/b/z.txt': 'kept' });
		expect((await read('up/z.txt'))?.body.toString()).toBe('z of b');
		expect((await read('up/b/b/z.txt'))?.body.toString()).toBe('z of b/b');
	});

	it('an empty Destination Folder is refused before any request, naming the field', async () => {
		const result = await folder('move', 'nest/', '');
		expect(result.error?.message).toBe("The parameter 'Destination Folder' is empty");
		expect(result.error?.description).toMatch(/or \/ for the top of the bucket/);
		expect(Object.values(emulator().stats().requests).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(0);
	});

	it.each(['copy', 'move'] as const)(
		'%s with Dry Run lists every file and what would happen, and changes nothing',
		async (operation) => {
			const files = await tree(`dry-${operation}/`);
			await put(api(), `dry-${operation}-to/a.txt`, 'there already');
			emulator().resetStats();
			const result = await folder(operation, `dry-${operation}/`, `dry-${operation}-to/`, { dryRun: true });
			expect(result.error).toBeUndefined();
			const would = operation === 'copy' ? 'wouldCopy' : 'wouldMove';
			expect(statuses(result)).toEqual(
				Object.fromEntries([...files.keys()].map((key) => [key, key.endsWith('/a.txt') ? 'destinationExists' : would])),
			);
			expect(result.items.every((item) => item.json.dryRun === true)).toBe(true);
			const { requests } = emulator().stats();
			expect([requests.upload ?? 0, requests.start ?? 0, requests.delete ?? 0, requests.cdn ?? 0]).toEqual([
				0, 0, 0, 0,
			]);
			for (const [key, bytes] of files) expect((await read(key))?.body).toEqual(bytes);
			expect((await read(`dry-${operation}-to/a.txt`))?.body.toString()).toBe('there already');
			expect(await read(`dry-${operation}-to/sub/c.txt`)).toBeUndefined();
		},
	);

	it('Continue On Fail: a failed file is its own item, the others finish', async () => {
		const files = await tree('cof/');
		emulator().setFaults([{ operation: 'upload', status: 500, nth: [1] }]);
		const result = await folder('copy', 'cof/', 'cof-to/', { options: { maxRetries: 0 } }, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(files.size);
		const failed = result.items.filter((item) => item.json.status === 'failed');
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({
			error: expect.any(String),
			source: { key: expect.stringMatching(/^cof\//) },
		});
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(result.items.filter((item) => item.json.status === 'copied')).toHaveLength(files.size - 1);
	});

	it('a listing that fails stops the run, saying so; with Continue On Fail it is an item after the files done', async () => {
		await put(api(), 'lf/sub/x.txt', 'x');
		// Version 2 lists 'lf/' (request 1), then its sub-folder 'lf/sub/' (request 2), before any file.
		emulator().setFaults([{ operation: 'list', status: 500, nth: [2] }]);
		const failed = await folder('copy', 'lf/', 'lf-to/', { options: { maxRetries: 0 } }, { typeVersion: 2 });
		expect(failed.error?.message).toMatch(/^Copy of the folder 'lf\/' .* stopped: '\(listing of 'lf\/' .*\)' failed/);
		emulator().setFaults([{ operation: 'list', status: 500, nth: [2] }]);
		const items = await folder(
			'copy',
			'lf/',
			'lf-to/',
			{ options: { maxRetries: 0 } },
			{ typeVersion: 2, continueOnFail: true },
		);
		expect(items.error).toBeUndefined();
		expect(items.items.map((item) => item.json.status)).toEqual(['failed']);
		expect(items.items[0].json.error).toMatch(/List Contents/);
	});

	it('without Continue On Fail, a failed file fails the node, saying what was done and that a run again finishes', async () => {
		await tree('nocof/');
		emulator().setFaults([{ operation: 'upload', status: 500, nth: [2] }]);
		const result = await folder('move', 'nocof/', 'nocof-to/', { options: { maxRetries: 0 } });
		expect(result.error?.message).toMatch(
			/^Move of the folder 'nocof\/' in bucket 'my-bucket' \(region us-east-1\) stopped: 'nocof\/.*' failed/,
		);
		expect(result.error?.description).toMatch(/So far: .*1 failed.*run the node again to finish/);
		emulator().setFaults([]);
		const again = await folder('move', 'nocof/', 'nocof-to/');
		expect(again.error).toBeUndefined();
		expect(await read('nocof/a.txt')).toBeUndefined();
	});
});

describe('File → Copy and Move of an empty file', () => {
	it.each(['copy', 'move'] as const)(
		'File → %s stores an empty file (0 bytes, such as a folder marker) as it is',
		async (operation) => {
			await put(api(), `zero-${operation}/none.txt`, '');
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation,
				fileKey: { __rl: true, mode: 'path', value: `zero-${operation}/none.txt` },
				destinationKey: `zero-${operation}-to/none.txt`,
			});
			expect(result.error).toBeUndefined();
			// A Move reads its copy back and hashes it when the CDN sends no MD5 ETag (the emulator's sends none).
			const checked = operation === 'move' ? ['size', 'md5'] : ['size'];
			expect(result.items[0].json).toMatchObject({ size: 0, checked });
			expect((await read(`zero-${operation}-to/none.txt`))?.body.length).toBe(0);
		},
	);
});
