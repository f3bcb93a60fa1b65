import { runListSearch } from '../harness';
import { BUCKET, MIB, credentialsFor, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

async function store(key: string, bytes: Buffer, visibility = 'private', mimeType = 'application/pdf') {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'multipartUpload', key, visibility, partSize: 5 },
		{ items: [fileItem(bytes, 'upload.pdf', mimeType)] },
	);
	expect(result.error).toBeUndefined();
}

const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

describe('File → Download', () => {
	it('version 2 keeps the incoming item: its JSON and other binary fields stay, the file is added', async () => {
		const bytes = Buffer.from('the downloaded file');
		await store('keep/item.txt', bytes, 'private', 'text/plain');
		const incoming = { ...fileItem(Buffer.from('already here'), 'other.txt', 'text/plain', 'other') };
		incoming.json = { order: 42, customer: 'ACME' };
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'download', fileKey: byKey('keep/item.txt'), binaryPropertyName: 'file' },
			{ items: [incoming], typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toEqual({ order: 42, customer: 'ACME' });
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['file', 'other']);
		expect((await result.readBinary(item, 'other')).toString()).toBe('already here');
		expect((await result.readBinary(item, 'file')).toString()).toBe('the downloaded file');
		expect(item.binary?.file?.fileName).toBe('item.txt');
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('version 1 downloads a multi-part-sized private file byte-identical into the binary field, streamed', async () => {
		const bytes = randomFile(12 * MIB + 321);
		await store('private/report.pdf', bytes);
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'download',
				fileKey: byKey('private/report.pdf'),
				binaryPropertyName: 'file',
			},
			{ typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({
			key: 'private/report.pdf',
			fileName: 'report.pdf',
			size: bytes.length,
			content_type: 'application/pdf',
		});
		expect(item.binary?.file?.id).toEqual(expect.any(String));
		expect(item.binary?.file?.fileName).toBe('report.pdf');
		expect(item.binary?.file?.mimeType).toBe('application/pdf');
		expect(await result.binarySha256(item, 'file')).toBe(sha256(bytes));
	});

	it('downloads a public file and uses the File Name option', async () => {
		const bytes = Buffer.from('hello public world');
		await store('pub/hello.txt', bytes, 'public', 'text/plain');
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('pub/hello.txt'),
			options: { fileName: 'greeting.txt' },
		});
		expect((await result.readBinary(result.items[0])).equals(bytes)).toBe(true);
		expect(result.items[0].binary?.data?.fileName).toBe('greeting.txt');
	});

	it('a missing file is "not found", naming the bucket and the key, without internal steps or unrelated hints', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('nope/missing.pdf'),
		});
		expect(result.error?.message).toBe(
			"The file 'nope/missing.pdf' was not found in bucket 'my-bucket' (region us-east-1)",
		);
		expect(result.error?.description).toBe(
			'Check the key, and the bucket name and region (a bucket is identified by both).',
		);
		expect(result.error?.httpCode).toBe('404');
	});
});

describe('File → Get Signed URL', () => {
	beforeAll(async () => {
		await store('links/secret.pdf', Buffer.from('%PDF secret'));
		await store('links/open.txt', Buffer.from('open'), 'public', 'text/plain');
	});

	it('gives a private file a link the CDN serves, and the CDN refuses it once expired', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: byKey('links/secret.pdf'),
			expiresIn: 4,
		});
		const json = result.items[0].json;
		expect(json).toMatchObject({ key: 'links/secret.pdf', is_public: false, expires_in: 4 });
		const served = await fetch(String(json.url));
		expect(served.status).toBe(200);
		expect(await served.text()).toBe('%PDF secret');
		const unsigned = await fetch(String(json.url).split('?')[0]);
		expect(unsigned.status).toBe(403);
		await new Promise((resolve) => setTimeout(resolve, 5100));
		expect((await fetch(String(json.url))).status).toBe(403);
	});

	it('gives a public file its plain location, default expiry 1 hour for private ones', async () => {
		const open = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: byKey('links/open.txt'),
		});
		expect(open.items[0].json).toMatchObject({
			is_public: true,
			url: `${emulator().cdnUrl}/f/${emulator().accessId}/links/open.txt`,
		});
		const secret = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: byKey('links/secret.pdf'),
		});
		expect(secret.items[0].json.expires_in).toBe(3600);
	});
});

describe('File → Delete', () => {
	it('deletes the file, and deleting again is a 404', async () => {
		await store('trash/old.bin', randomFile(100));
		const removed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('trash/old.bin'),
		});
		expect(removed.items[0].json).toMatchObject({ key: 'trash/old.bin', deleted: true });
		expect(await emulator().readObject('my-bucket', 'us-east-1', 'trash/old.bin')).toBeUndefined();
		const again = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('trash/old.bin'),
		});
		expect(again.error?.message).toMatch(/Delete of 'trash\/old\.bin' failed.*HTTP 404/);
	});

	it('refuses an empty key before any request', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('={{ "" }}'),
		});
		expect(result.error?.message).toMatch(/not valid: it is empty \(parameter 'File'\)/);
	});
});

describe('File field "From List" search', () => {
	beforeAll(async () => {
		for (const key of ['search/alpha.txt', 'search/beta.txt', 'search/sub/gamma.txt', 'top-level.txt']) {
			await store(key, Buffer.from(key), 'private', 'text/plain');
		}
	});

	const search = async (filter?: string, paginationToken?: string) =>
		await runListSearch({
			method: 'searchFiles',
			parameters: { ...BUCKET, resource: 'file', operation: 'delete' },
			credentials: credentialsFor(emulator()),
			filter,
			paginationToken,
		});

	it('returns keys of the files in the folder typed so far, filtered by name', async () => {
		const folder = await search('search/');
		expect(folder.results.map((r) => r.value)).toEqual(['search/alpha.txt', 'search/beta.txt']);
		const narrowed = await search('search/BE');
		expect(narrowed.results).toEqual([{ name: 'search/beta.txt', value: 'search/beta.txt' }]);
		const root = await search();
		expect(root.results.map((r) => r.value)).toContain('top-level.txt');
		expect(root.paginationToken).toBeUndefined();
	});

	it('says to set the bucket first when it is empty', async () => {
		await expect(
			runListSearch({
				method: 'searchFiles',
				parameters: { bucketName: '', region: 'us-east-1', resource: 'file', operation: 'delete' },
				credentials: credentialsFor(emulator()),
			}),
		).rejects.toThrow(/Set Bucket Name and Region first/);
	});
});
