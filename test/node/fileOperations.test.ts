import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runListSearch } from '../harness';
import {
	BUCKET,
	byKey,
	credentialsFor,
	fileItem,
	MIB,
	randomFile,
	runFileStorage,
	sha256,
	storedHttpDate,
	useEmulator,
} from './support';

const OTHER = { bucket: 'archive', region: 'eu-west-1' };
const emulator = useEmulator({
	buckets: [
		{ name: BUCKET.bucketName, region: BUCKET.region },
		{ name: OTHER.bucket, region: OTHER.region },
	],
});

async function store(key: string, bytes: Buffer, visibility = 'private', mimeType = 'application/pdf') {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key, visibility, options: { multipartThreshold: 5 } },
		{ items: [fileItem(bytes, 'upload.bin', mimeType)] },
	);
	expect(result.error).toBeUndefined();
}

/**
 * A Move reads a source written moments before once more, after the listed second and the CDN
 * clock margin (files/proof.ts): a test that counts signed links or CDN faults moves a source
 * written before that.
 */
const settled = async () => await new Promise((resolve) => setTimeout(resolve, 4100));

const read = (key: string, bucket = BUCKET.bucketName, region = BUCKET.region) =>
	emulator().readObject(bucket, region, key);

async function run(operation: string, key: string, parameters: INodeParameters = {}, resource = 'file') {
	return await runFileStorage(emulator(), { resource, operation, fileKey: byKey(key), ...parameters });
}

beforeEach(() => {
	emulator().setFaults([]);
	emulator().resetStats();
});

describe('File → Get Info', () => {
	it('gives size, content type, last modified, visibility and location from one signed link and one HEAD, no bytes', async () => {
		const bytes = randomFile(300_000);
		await store('info/report.pdf', bytes);
		emulator().resetStats();
		const result = await run('getInfo', 'info/report.pdf');
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			key: 'info/report.pdf',
			bucket: BUCKET.bucketName,
			region: BUCKET.region,
			exists: true,
			size: 300_000,
			content_type: 'application/pdf',
			visibility: 'private',
			location: `${emulator().cdnUrl}/f/${emulator().accessId}/info/report.pdf`,
			etag: null,
		});
		expect(result.items[0].json.last_modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		expect(String(result.items[0].json.location)).not.toMatch(/signature|expires/);
		const { requests } = emulator().stats();
		expect([requests.signedUrl, requests.cdn]).toEqual([1, 1]);
	});

	it('says public for a public file', async () => {
		await store('info/public.txt', Buffer.from('hello'), 'public', 'text/plain');
		const result = await run('getInfo', 'info/public.txt');
		expect(result.items[0].json).toMatchObject({ size: 5, content_type: 'text/plain', visibility: 'public' });
	});

	it('a missing file is a "not found" error, or exists: false when Error If Missing is off', async () => {
		const failed = await run('getInfo', 'info/nothing.pdf');
		expect(failed.error?.message).toBe(
			"The file 'info/nothing.pdf' was not found in bucket 'my-bucket' (region us-east-1)",
		);
		const quiet = await run('getInfo', 'info/nothing.pdf', { options: { errorIfMissing: false } });
		expect(quiet.error).toBeUndefined();
		expect(quiet.items[0].json).toEqual({
			key: 'info/nothing.pdf',
			bucket: BUCKET.bucketName,
			region: BUCKET.region,
			exists: false,
		});
	});
});

describe('File → Copy', () => {
	it('copies byte for byte to another path, keeping content type and visibility, checked by size', async () => {
		const bytes = randomFile(200_000);
		await store('copy/a.pdf', bytes, 'public');
		const result = await run('copy', 'copy/a.pdf', { destinationKey: 'copied/b.pdf' });
		expect(result.error).toBeUndefined();
		const copy = await read('copied/b.pdf');
		expect(sha256(copy!.body)).toBe(sha256(bytes));
		expect(copy).toMatchObject({ contentType: 'application/pdf', visibility: 'public' });
		expect(result.items[0].json).toMatchObject({
			key: 'copied/b.pdf',
			size: 200_000,
			visibility: 'public',
			checked: ['size'],
			source: { key: 'copy/a.pdf', bucket: BUCKET.bucketName, region: BUCKET.region },
		});
		expect(result.items[0].json.md5).toMatch(/^[0-9a-f]{32}$/);
		expect(await read('copy/a.pdf')).toBeDefined();
	});

	it('a destination ending in "/" is a folder: the copy keeps its name', async () => {
		await store('copy/name.txt', Buffer.from('name'), 'private', 'text/plain');
		const result = await run('copy', 'copy/name.txt', { destinationKey: 'kept/' });
		expect(result.items[0].json.key).toBe('kept/name.txt');
		expect((await read('kept/name.txt'))?.body.toString()).toBe('name');
	});

	it('copies a large file in parts into another bucket and region, with visibility and content type set', async () => {
		const bytes = randomFile(12 * MIB + 123);
		await store('copy/big.bin', bytes, 'private', 'application/octet-stream');
		emulator().resetStats();
		const result = await run('copy', 'copy/big.bin', {
			destinationKey: 'archived/big.bin',
			options: {
				destinationBucket: OTHER.bucket,
				destinationRegion: OTHER.region,
				visibility: 'public',
				contentType: 'video/mp4',
				multipartThreshold: 5,
				partSize: 5,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ bucket: OTHER.bucket, region: OTHER.region, size: 12 * MIB + 123 });
		expect(emulator().stats().requests.uploadPart).toBe(3);
		expect(await emulator().objectSha256(OTHER.bucket, OTHER.region, 'archived/big.bin')).toBe(sha256(bytes));
		expect(await read('archived/big.bin', OTHER.bucket, OTHER.region)).toMatchObject({
			contentType: 'video/mp4',
			visibility: 'public',
		});
	});

	it('refuses the same file as source and destination before any request', async () => {
		await store('copy/self.txt', Buffer.from('self'), 'private', 'text/plain');
		emulator().resetStats();
		const result = await run('copy', 'copy/self.txt', { destinationKey: 'copy/self.txt' });
		expect(result.error?.message).toBe('Copy: the source and the destination are the same file');
		expect(emulator().stats().requests.signedUrl ?? 0).toBe(0);
	});

	it('refuses an existing destination unless Replace Existing File is on', async () => {
		await store('copy/new.txt', Buffer.from('new'), 'private', 'text/plain');
		await store('copy/old.txt', Buffer.from('old'), 'private', 'text/plain');
		const refused = await run('copy', 'copy/new.txt', { destinationKey: 'copy/old.txt' });
		expect(refused.error?.message).toBe(
			"Copy: the destination 'copy/old.txt' in bucket 'my-bucket' (region us-east-1) already exists",
		);
		expect(refused.error?.description).toMatch(/Replace Existing File/);
		expect((await read('copy/old.txt'))?.body.toString()).toBe('old');
		const replaced = await run('copy', 'copy/new.txt', { destinationKey: 'copy/old.txt', options: { replace: true } });
		expect(replaced.error).toBeUndefined();
		expect((await read('copy/old.txt'))?.body.toString()).toBe('new');
	});

	it('a missing source is a "not found" error and creates nothing', async () => {
		const result = await run('copy', 'copy/missing.txt', { destinationKey: 'copy/never.txt' });
		expect(result.error?.message).toBe(
			"The file 'copy/missing.txt' was not found in bucket 'my-bucket' (region us-east-1)",
		);
		expect(await read('copy/never.txt')).toBeUndefined();
	});

	it('a destination bucket that does not exist in that region fails naming the upload, and the source stays', async () => {
		await store('copy/region.txt', Buffer.from('region'), 'private', 'text/plain');
		const result = await run('move', 'copy/region.txt', {
			destinationKey: 'x/region.txt',
			options: { destinationBucket: OTHER.bucket, destinationRegion: 'us-east-1' },
		});
		expect(result.error?.message).toMatch(/Upload of 'x\/region\.txt' failed: .*HTTP 404/);
		expect(result.error?.description).toMatch(/The source 'copy\/region\.txt' .* was not deleted/);
		expect(await read('copy/region.txt')).toBeDefined();
	});
});

describe('the copy is checked against an MD5 ETag where the CDN gives one', () => {
	// A CDN that answers the HEAD of the copy with this ETag (the emulator's CDN sends none).
	let etag = '';
	// The CDN's Last-Modified (`now`: the time it answers): without one an answer may be an earlier
	// version it kept.
	let lastModified: string | undefined;
	let server: Server;
	let cdn = '';
	const seenHeaders: Array<Record<string, unknown>> = [];
	beforeAll(async () => {
		server = createServer((req, res) => {
			seenHeaders.push(req.headers);
			// 'copy': the copy's own Last-Modified, as the storage dates it (an ETag of another date proves no copy).
			const dating =
				lastModified === 'copy'
					? storedHttpDate(emulator(), 'etag/copy.txt')
					: Promise.resolve(lastModified === 'now' ? new Date().toUTCString() : lastModified);
			void dating.then((stamp) => {
				const dated: Record<string, string> = stamp ? { 'Last-Modified': stamp } : {};
				res.writeHead(200, { 'Content-Length': '4', 'Content-Type': 'text/plain', ETag: etag, ...dated });
				res.end(req.method === 'HEAD' ? undefined : 'copy');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/etag/copy.txt`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	// With Replace on, the second signed link asked for is the copy's (for its HEAD).
	const copyWithEtag = async (value: string) => {
		etag = value;
		await store('etag/source.txt', Buffer.from('copy'), 'private', 'text/plain');
		await settled();
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn }, nth: [2] }]);
		return await run('move', 'etag/source.txt', { destinationKey: 'etag/copy.txt', options: { replace: true } });
	};

	it('a matching MD5 ETag is reported as checked', async () => {
		lastModified = 'copy';
		try {
			const result = await copyWithEtag(`"${createHash('md5').update('copy').digest('hex')}"`);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ checked: ['size', 'etag'], sourceDeleted: true });
		} finally {
			lastModified = undefined;
		}
	});

	it('the CDN gets neither the credential nor a signature of the node: the source link is fetched as it is', async () => {
		seenHeaders.length = 0;
		etag = '';
		await store('etag/plain.txt', Buffer.from('copy'), 'private', 'text/plain');
		emulator().setFaults([
			{
				operation: 'signedUrl',
				rewrite: { url: `${cdn.replace('etag/copy.txt', 'etag/plain.txt')}?expires=1&signature=given` },
				nth: [1],
			},
		]);
		// The source's own Last-Modified, passed on (an undated answer is never copied).
		lastModified = await storedHttpDate(emulator(), 'etag/plain.txt');
		const result = await run('copy', 'etag/plain.txt', {
			destinationKey: 'etag/plain-copy.txt',
			options: { replace: true },
		});
		lastModified = undefined;
		expect(result.error).toBeUndefined();
		expect(seenHeaders).toHaveLength(1);
		const names = Object.keys(seenHeaders[0]).map((name) => name.toLowerCase());
		expect(names.filter((name) => /^x-|authorization|cookie/.test(name))).toEqual([]);
		expect((await read('etag/plain-copy.txt'))?.body.toString()).toBe('copy');
	});

	it('an ETag that is not the MD5 of the bytes sent fails the Move, keeps the file there (it may be another writer’s), and the source stays', async () => {
		// Stamped when the CDN answers, after the copy was written: a slow run cannot make it look older.
		lastModified = 'now';
		const result = await copyWithEtag('"00000000000000000000000000000000"');
		lastModified = undefined;
		expect(result.error?.message).toMatch(
			/^Move: the copy 'etag\/copy\.txt' could not be checked: the CDN's ETag .* is not the MD5/,
		);
		expect(result.error?.description).toMatch(/^The file at the destination was kept/);
		expect(result.error?.description).toMatch(/The source 'etag\/source\.txt' .* was not deleted\.$/);
		expect(await read('etag/copy.txt')).toBeDefined();
		expect(await read('etag/source.txt')).toBeDefined();
	});
});

describe('an ETag mismatch the CDN may have answered from its cache', () => {
	let server: Server;
	let cdn = '';
	beforeAll(async () => {
		// An ETag of other bytes and no Last-Modified: nothing says the answer is of the copy.
		server = createServer((req, res) => {
			res.writeHead(200, { 'Content-Length': '4', 'Content-Type': 'text/plain', ETag: `"${'0'.repeat(32)}"` });
			res.end(req.method === 'HEAD' ? undefined : 'copy');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/undated/copy.txt`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('an ETag that is not the MD5 in an undated CDN answer keeps the copy: the check is inconclusive, the source stays', async () => {
		await store('undated/source.txt', Buffer.from('copy'), 'private', 'text/plain');
		await settled();
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn }, nth: [2] }]);
		const result = await run('move', 'undated/source.txt', {
			destinationKey: 'undated/copy.txt',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/^Move: the copy 'undated\/copy\.txt' could not be checked: the CDN's ETag/);
		expect(result.error?.description).toMatch(/^The file at the destination was kept/);
		expect((await read('undated/copy.txt'))?.body.toString()).toBe('copy');
		expect(await read('undated/source.txt')).toBeDefined();
	});
});

describe('a source the CDN sends without Content-Length', () => {
	let server: Server;
	beforeAll(async () => {
		// Chunked: no length stated, so a cut-off body could not be told from the whole file.
		server = createServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.write('no ');
			res.end('length');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('Move is refused with words for Copy and Move (no option to name), nothing is copied and the source stays', async () => {
		await store('nolength/source.txt', Buffer.from('no length'), 'private', 'text/plain');
		const cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/nolength/source.txt`;
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn }, nth: [1] }]);
		const result = await run('move', 'nolength/source.txt', {
			destinationKey: 'nolength/copy.txt',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/did not state its length \(no Content-Length\)/);
		expect(result.error?.description).toMatch(
			/^The CDN stated no length for the source file, so the copy could not be checked against it\. Nothing was copied or deleted\./,
		);
		expect(result.error?.description).not.toMatch(/Allow Source Without Content-Length/);
		expect(await read('nolength/copy.txt')).toBeUndefined();
		expect(await read('nolength/source.txt')).toBeDefined();
	});
});

describe('a copy cut half-way never loses the source', () => {
	it('Move whose source body is cut mid-way: the source stays, no copy, no upload left open, and the error says so', async () => {
		const bytes = randomFile(12 * MIB);
		await store('cut/source.bin', bytes, 'private', 'application/octet-stream');
		await settled();
		emulator().setFaults([{ operation: 'cdn', truncate: 6 * MIB, times: 1 }]);
		const result = await run('move', 'cut/source.bin', {
			destinationKey: 'cut/target.bin',
			options: { multipartThreshold: 5, partSize: 5, parallelUploads: 1, maxRetries: 0 },
		});
		expect(emulator().stats().faultsInjected).toBe(1);
		expect(result.error?.message).toMatch(/broke after|ended after/);
		expect(result.error?.description).toMatch(/cancelled on the service; nothing was stored/);
		expect(result.error?.description).toMatch(/The source 'cut\/source\.bin' .* was not deleted\.$/);
		expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, 'cut/source.bin')).toBe(sha256(bytes));
		expect(await read('cut/target.bin')).toBeUndefined();
		expect(emulator().listOpenUploads()).toEqual([]);
		expect(emulator().stats().requests.delete ?? 0).toBe(0);
	});

	it('Copy whose one-request body is cut: nothing is stored', async () => {
		await store('cut/small.txt', randomFile(100_000), 'private', 'text/plain');
		emulator().resetStats();
		emulator().setFaults([{ operation: 'cdn', truncate: 50_000, times: 1 }]);
		const result = await run('copy', 'cut/small.txt', {
			destinationKey: 'cut/small-copy.txt',
			options: { maxRetries: 0 },
		});
		// How much arrived before the cut depends on when the reset overtakes the bytes in flight (the
		// source is opened, then the destination checked again, then read): never the whole file.
		const arrived = /broke after (\d+) of 100000 bytes/.exec(result.error?.message ?? '');
		expect(Number(arrived?.[1])).toBeLessThanOrEqual(50_000);
		expect(await read('cut/small-copy.txt')).toBeUndefined();
		expect(emulator().stats().requests.upload ?? 0).toBe(0);
	});
});

describe('File → Move', () => {
	it('moves (renames): the copy is checked, then the source is deleted', async () => {
		const bytes = randomFile(70_000);
		await store('inbox/a.csv', bytes, 'private', 'text/csv');
		const result = await run('move', 'inbox/a.csv', { destinationKey: 'done/' });
		expect(result.error).toBeUndefined();
		// Read back and hashed before the source goes: the emulator's CDN sends no MD5 ETag.
		expect(result.items[0].json).toMatchObject({ key: 'done/a.csv', sourceDeleted: true, checked: ['size', 'md5'] });
		expect(await read('inbox/a.csv')).toBeUndefined();
		expect(sha256((await read('done/a.csv'))!.body)).toBe(sha256(bytes));
	});

	it('a delete that fails after a good copy says that both files exist', async () => {
		await store('inbox/b.csv', Buffer.from('b'), 'private', 'text/csv');
		emulator().setFaults([{ operation: 'delete', status: 500 }]);
		const result = await run('move', 'inbox/b.csv', { destinationKey: 'done/b.csv', options: { maxRetries: 0 } });
		expect(result.error?.message).toMatch(/^Move: the copy is complete and checked, but deleting the source failed/);
		expect(result.error?.description).toMatch(/^Both files exist now/);
		expect(await read('inbox/b.csv')).toBeDefined();
		expect(await read('done/b.csv')).toBeDefined();
	});

	it('an existing destination is refused and nothing is deleted', async () => {
		await store('inbox/c.csv', Buffer.from('c'), 'private', 'text/csv');
		await store('done/c.csv', Buffer.from('older c'), 'private', 'text/csv');
		const result = await run('move', 'inbox/c.csv', { destinationKey: 'done/' });
		expect(result.error?.message).toMatch(/^Move: the destination 'done\/c\.csv' .* already exists$/);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted/);
		expect(await read('inbox/c.csv')).toBeDefined();
		expect((await read('done/c.csv'))?.body.toString()).toBe('older c');
	});

	it('with continueOnFail the failing item reports its error and the next one is moved', async () => {
		await store('inbox/d.csv', Buffer.from('d'), 'private', 'text/csv');
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: byKey('={{ $json.key }}'),
				destinationKey: 'done/',
			},
			{ items: [{ json: { key: 'inbox/none.csv' } }, { json: { key: 'inbox/d.csv' } }], continueOnFail: true },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.items[0].json.error).toMatch(/was not found/);
		expect(result.items[1].json).toMatchObject({ key: 'done/d.csv', sourceDeleted: true });
	});
});

describe('Folder → Delete', () => {
	const tree = ['old/a.txt', 'old/sub/b.txt', 'old/sub/deeper/c.txt', 'older/keep.txt', 'keep.txt'];
	beforeEach(async () => {
		for (const key of tree) await store(key, Buffer.from(key), 'private', 'text/plain');
	});
	const deleteFolder = (folder: string, parameters: INodeParameters = {}) =>
		runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: folder },
			...parameters,
		});

	it('Dry Run lists every file under the folder, sub-folders included, and deletes nothing', async () => {
		const listed = await deleteFolder('old/', { dryRun: true });
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((item) => item.json)).toEqual(
			['old/a.txt', 'old/sub/b.txt', 'old/sub/deeper/c.txt'].map((key) => ({
				key,
				size: key.length,
				bucket: BUCKET.bucketName,
				region: BUCKET.region,
				deleted: false,
				dryRun: true,
			})),
		);
		for (const key of tree) expect(await read(key)).toBeDefined();
	});

	it('deletes every file under the folder and outputs them; a folder of the same stem stays', async () => {
		const result = await deleteFolder('old');
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.key, item.json.deleted])).toEqual([
			['old/a.txt', true],
			['old/sub/b.txt', true],
			['old/sub/deeper/c.txt', true],
		]);
		for (const key of ['old/a.txt', 'old/sub/b.txt', 'old/sub/deeper/c.txt']) expect(await read(key)).toBeUndefined();
		expect(await read('older/keep.txt')).toBeDefined();
		expect(await read('keep.txt')).toBeDefined();
	});

	it('Include Subfolders off deletes only the files directly in the folder', async () => {
		const result = await deleteFolder('old/', { includeSubfolders: false });
		expect(result.items.map((item) => item.json.key)).toEqual(['old/a.txt']);
		expect(await read('old/sub/b.txt')).toBeDefined();
	});

	it('refuses an empty folder (the whole bucket) before any request unless Allow Whole Bucket is on', async () => {
		emulator().resetStats();
		const result = await deleteFolder('');
		expect(result.error?.message).toBe("The parameter 'Folder' is empty: that would delete the whole bucket");
		expect(emulator().stats().requests.list ?? 0).toBe(0);
		const dry = await deleteFolder('', { dryRun: true, options: { allowWholeBucket: true } });
		expect(dry.items.map((item) => item.json.key)).toEqual(expect.arrayContaining(['keep.txt', 'old/sub/b.txt']));
	});

	it('a delete that fails says how many were deleted and that the rest are still there', async () => {
		emulator().setFaults([{ operation: 'delete', status: 500, nth: [2] }]);
		const result = await deleteFolder('old/', { options: { maxRetries: 0 } });
		expect(result.error?.message).toMatch(/^Deleted 1 file under 'old\/'; deleting 'old\/sub\/b\.txt' failed/);
		expect(result.error?.description).toMatch(/the others are still there/);
	});
});

describe('the file picker finds any file', () => {
	beforeAll(async () => {
		for (const key of [
			'pick/one/two/needle-report.pdf',
			'pick/one/other.pdf',
			'pick/top.pdf',
			'elsewhere/needle.txt',
		]) {
			await store(key, Buffer.from(key), 'private', 'text/plain');
		}
	});
	const search = async (filter?: string, paginationToken?: string) =>
		await runListSearch({
			method: 'searchFiles',
			parameters: { ...BUCKET, resource: 'file', operation: 'getInfo' },
			credentials: credentialsFor(emulator()),
			filter,
			paginationToken,
		});

	it('typing part of a name finds a file two folders deep', async () => {
		const values: unknown[] = [];
		let token: string | undefined;
		do {
			const found = await search('needle', token);
			values.push(...found.results.map((r) => r.value));
			token = found.paginationToken;
		} while (token);
		expect(values).toEqual(expect.arrayContaining(['pick/one/two/needle-report.pdf', 'elsewhere/needle.txt']));
		const under = await search('pick/NEEDLE');
		expect(under.results.map((r) => r.value)).toEqual(['pick/one/two/needle-report.pdf']);
	});

	it('lists no folder as a file: browsing and searching give files only (typing a folder path steps into it)', async () => {
		const browsed = await search('pick/');
		expect(browsed.results.map((r) => r.value)).toEqual(['pick/top.pdf']);
		const inside = await search('pick/one/');
		expect(inside.results.map((r) => r.value)).toEqual(['pick/one/other.pdf']);
		const values: unknown[] = [];
		let token: string | undefined;
		do {
			const found = await search('one', token);
			values.push(...found.results.map((r) => r.value));
			token = found.paginationToken;
		} while (token);
		expect(values.some((value) => String(value).endsWith('/'))).toBe(false);
	});

	it('walks a bounded number of requests per answer and goes on where it stood', async () => {
		for (let i = 0; i < 25; i++) await store(`wide/f${String(i).padStart(2, '0')}/x.txt`, Buffer.from('x'));
		await store('wide/f24/target-file.txt', Buffer.from('t'));
		emulator().resetStats();
		const first = await search('wide/target');
		expect(emulator().stats().requests.list).toBe(20);
		expect(first.results).toEqual([]);
		expect(first.paginationToken).toBeDefined();
		// Each folder takes two requests (its page, then the empty page after it): the third answer reaches f24.
		emulator().resetStats();
		const second = await search('wide/target', first.paginationToken);
		expect(emulator().stats().requests.list).toBe(20);
		expect(second.results).toEqual([]);
		const third = await search('wide/target', second.paginationToken);
		expect(third.results.map((r) => r.value)).toEqual(['wide/f24/target-file.txt']);
		expect(third.paginationToken).toBeUndefined();
	});
});
