import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const upload = async (parameters: Record<string, unknown>, items = [fileItem(randomFile(1000))], extra = {}) =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'upload', ...parameters }, { items, ...extra });

describe('File → Upload', () => {
	it('stores the bytes exactly, with content type and visibility, and returns the stored-file result', async () => {
		const bytes = randomFile(3 * MIB + 17);
		const result = await upload({ visibility: 'public' }, [fileItem(bytes, 'photo.png', 'image/png')]);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toMatchObject({
			key: 'photo.png',
			bucket: 'my-bucket',
			region: 'us-east-1',
			visibility: 'public',
			size: bytes.length,
			content_type: 'image/png',
			message: 'File uploaded successfully',
		});
		expect(String(json.location)).toBe(`${emulator().cdnUrl}/f/${emulator().accessId}/photo.png`);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		const stored = await emulator().readObject('my-bucket', 'us-east-1', 'photo.png');
		expect(stored && sha256(stored.body)).toBe(sha256(bytes));
		expect(stored?.contentType).toBe('image/png');
		expect(stored?.visibility).toBe('public');
		expect(emulator().stats().requests.start).toBe(0);
	});

	it('defaults to private, uses Key and Folder, and a Content Type option over the binary type', async () => {
		const result = await upload({ key: 'q1.csv', folder: 'reports/2026/', options: { contentType: 'text/csv' } });
		expect(result.items[0].json).toMatchObject({
			key: 'reports/2026/q1.csv',
			visibility: 'private',
			content_type: 'text/csv',
		});
	});

	it('handles inline base64 binaries (as a Code node makes them)', async () => {
		const bytes = randomFile(4096);
		const result = await upload({ key: 'inline.bin' }, [
			{
				json: {},
				binary: { data: { data: bytes, fileName: 'x.bin', mimeType: 'application/x-test', base64Inline: true } },
			},
		]);
		expect(result.error).toBeUndefined();
		const stored = await emulator().readObject('my-bucket', 'us-east-1', 'inline.bin');
		expect(stored && sha256(stored.body)).toBe(sha256(bytes));
		expect(stored?.contentType).toBe('application/x-test');
	});

	it('switches to Multipart Upload above the threshold, byte-identical', async () => {
		emulator().resetStats();
		const bytes = randomFile(11 * MIB + 5);
		const result = await upload({ key: 'auto/big.bin', options: { multipartThreshold: 5, partSize: 5 } }, [
			fileItem(bytes),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ key: 'auto/big.bin', size: bytes.length, partCount: 3 });
		expect(emulator().stats().requests.start).toBe(1);
		expect(emulator().stats().requests.upload).toBe(0);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'auto/big.bin')).toBe(sha256(bytes));
	});

	it.each([
		['exactly the threshold goes in one request', 5 * MIB, { upload: 1, start: 0 }],
		['one byte over the threshold goes in parts', 5 * MIB + 1, { upload: 0, start: 1 }],
	])('Multipart Threshold boundary: a file of %s', async (_name, size, requests) => {
		emulator().resetStats();
		const bytes = randomFile(size as number);
		const result = await upload({ key: 'auto/edge.bin', options: { multipartThreshold: 5, partSize: 5 } }, [
			fileItem(bytes),
		]);
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests).toMatchObject(requests as object);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'auto/edge.bin')).toBe(sha256(bytes));
	});

	// The default threshold, with no option set: version 3 sends parts from just above 28 MiB, where
	// 24 MiB parts start to win against a far service (BENCHMARKS.md); saved version 1 and 2
	// workflows keep 32 MiB.
	it.each([
		[3, 'exactly 28 MiB goes in one request', 28 * MIB, { upload: 1, start: 0, uploadPart: 0 }],
		[3, '28 MiB and one byte goes in two parts', 28 * MIB + 1, { upload: 0, start: 1, uploadPart: 2 }],
		[2, 'exactly 32 MiB goes in one request', 32 * MIB, { upload: 1, start: 0, uploadPart: 0 }],
		[2, '32 MiB and one byte goes in parts', 32 * MIB + 1, { upload: 0, start: 1, uploadPart: 5 }],
		[1, 'exactly 32 MiB goes in one request', 32 * MIB, { upload: 1, start: 0, uploadPart: 0 }],
		[1, '32 MiB and one byte goes in parts', 32 * MIB + 1, { upload: 0, start: 1, uploadPart: 5 }],
	])('default Multipart Threshold at node version %i: a file of %s', async (typeVersion, _name, size, requests) => {
		emulator().resetStats();
		const bytes = randomFile(size as number);
		const result = await upload({ key: 'auto/default.bin' }, [fileItem(bytes)], { typeVersion });
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests).toMatchObject(requests as object);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'auto/default.bin')).toBe(sha256(bytes));
	});

	const oddKeys = [
		'spaces in name .txt',
		' leading and trailing ',
		'a+b=c&d#e?f%g;h.txt',
		'%20literally%2F.txt',
		'quotes "double" \'single\' back\\slash.txt',
		'unicode/résumé-Ünïcödé-日本語.txt',
		'emoji/🚀📦-files.txt',
		'rtl/שלום-مرحبا.txt',
	];

	it.each(oddKeys)('stores key %j exactly as typed', async (key) => {
		const bytes = Buffer.from(`payload for ${key}`);
		const result = await upload({ key }, [fileItem(bytes, 'ignored.txt', 'text/plain')]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe(key);
		const stored = await emulator().readObject('my-bucket', 'us-east-1', key);
		expect(stored?.body.equals(bytes)).toBe(true);
	});

	it('one output item per input item, paired, and continueOnFail turns a bad item into an error item', async () => {
		const result = await upload(
			{ key: '={{ $json.name }}' },
			[
				fileItem(Buffer.from('one'), 'one.txt'),
				{ json: { name: 'two.txt' } },
				fileItem(Buffer.from('three'), 'three.txt'),
			],
			{ continueOnFail: true },
		);
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json.key).toBe('one.txt');
		expect(String(result.items[1].json.error)).toMatch(/no binary field 'data'/);
		expect(result.items[2].json.key).toBe('three.txt');
	});
});

describe('File → Upload: bad input is named and nothing is sent', () => {
	beforeEach(() => emulator().resetStats());
	afterEach(() => expect(emulator().stats().requests.upload).toBe(0));

	it('missing binary field names the field and the fields present', async () => {
		const result = await upload({ binaryPropertyName: 'file' }, [
			fileItem(Buffer.from('x'), 'a.txt', 'text/plain', 'attachment'),
		]);
		expect(result.error?.message).toMatch(/no binary field 'file' \(parameter 'Input Binary Field'\)/);
		expect(result.error?.description).toMatch(/'attachment'/);
	});

	it('an item without any binary says so', async () => {
		const result = await upload({}, [{ json: { hello: 'world' } }]);
		expect(result.error?.description).toMatch(/carries no binary data/);
	});

	it('an empty (0-byte) file', async () => {
		const result = await upload({ key: 'empty.txt' }, [fileItem(Buffer.alloc(0))]);
		expect(result.error?.message).toMatch(/binary field 'data' is empty \(0 bytes\)/);
	});

	it.each([
		['/leading-slash.txt', /starts with '\/'/],
		['a/../b.txt', /'\.\.' segment/],
		['nul\u0000char', /NUL character \(U\+0000\)/],
		['x'.repeat(1025), /1025 bytes/],
	])('invalid key %j is refused naming the rule, before any request', async (key, rule) => {
		emulator().resetStats();
		const result = await upload({ key });
		expect(result.error?.message).toMatch(rule);
		expect(result.error?.message).toMatch(/parameter 'Path in Folder'/);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});

	it('an empty or blank region', async () => {
		const blank = await upload({ region: '  ' });
		expect(blank.error?.message).toMatch(/'Region' is empty/);
		// n8n itself refuses to start a node whose required parameter is empty.
		await expect(upload({ region: '' })).rejects.toThrow(/Parameter "Region" is required/);
	});
});
