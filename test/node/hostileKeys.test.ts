import { BUCKET, byKey, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

/** At least 100 keys that break naive clients: every one must round-trip exactly. */
function hostileKeys(): string[] {
	const specials = [
		' ',
		'+',
		'%20',
		'%',
		'&',
		'=',
		'#',
		'?',
		';',
		'"',
		"'",
		'\\',
		',',
		':',
		'@',
		'$',
		'!',
		'*',
		'(',
		')',
		'[',
		']',
		'{',
		'}',
		'<',
		'>',
		'|',
		'^',
		'`',
		'~',
	];
	const keys = [
		' leading-space',
		'trailing-space ',
		'  both ends  ',
		'%20literally',
		'100%',
		'%2F-not-a-slash',
		'a+b',
		'+',
		'&',
		'=',
		'#hash',
		'?question',
		'multi//slash',
		'dots.in.name...',
		'.hidden',
		'dir.with.dots/file',
		'café-NFC-\u00e9',
		'cafe\u0301-NFD-e\u0301',
		'日本語/ファイル.txt',
		'emoji-🚀📦🧪',
		'flag-🇺🇦',
		'zwj-👩‍💻',
		'rtl-שלום-مرحبا',
		'mixed-ltr-שלום-rtl',
		'tab-lookalike-\u2003-em-space',
		'nbsp-\u00a0-here',
		// The spec forbids only NUL: a key the listing can show must be downloadable and deletable.
		'tab\there',
		'line\nbreak',
		'carriage\rreturn',
		'bell\u0007',
		'del\u007f',
		'x'.repeat(1024),
		'é'.repeat(512),
		`deep/${'a/'.repeat(100)}end`,
		'😀'.repeat(256),
	];
	specials.forEach((c, i) => {
		keys.push(`special-${i}-${c}-in-middle`);
		keys.push(`folder ${c}/file ${c}.txt`);
	});
	for (let i = 0; i < 10; i++) keys.push(`sequence/${'%+& '.slice(i % 4)}${i}`);
	return [...new Set(keys)];
}

const keys = hostileKeys();

describe('hostile keys round-trip through upload, list and delete', () => {
	it('has a corpus of at least 100 distinct keys, all valid', () => {
		expect(keys.length).toBeGreaterThanOrEqual(100);
		expect(keys.every((key) => Buffer.byteLength(key) <= 1024)).toBe(true);
	});

	it('uploads every key exactly as given', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: '={{ $json.key }}' },
			{ items: keys.map((key) => ({ ...fileItem(Buffer.from(`bytes of ${key}`)), json: { key } })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toEqual(keys);
		for (const key of keys) {
			const stored = await emulator().readObject('my-bucket', 'us-east-1', key);
			expect(stored?.body.toString()).toBe(`bytes of ${key}`);
		}
	});

	it('downloads the keys with control characters byte for byte', async () => {
		const controlKeys = keys.filter((key) => /[\u0001-\u001f\u007f]/.test(key));
		expect(controlKeys.length).toBeGreaterThanOrEqual(5);
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'download', fileKey: { __rl: true, mode: 'key', value: '={{ $json.key }}' } },
			{ items: controlKeys.map((key) => ({ json: { key } })) },
		);
		expect(result.error).toBeUndefined();
		for (const [index, key] of controlKeys.entries()) {
			expect((await result.readBinary(result.items[index])).toString()).toBe(`bytes of ${key}`);
		}
	});

	it('lists every key exactly (recursive walk over the whole bucket)', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: '',
			returnAll: true,
			options: { recursive: true, include: 'files' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.path).sort()).toEqual([...keys].sort());
	});

	it('deletes every key, leaving the bucket empty', async () => {
		const removed = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'delete', fileKey: { __rl: true, mode: 'key', value: '={{ $json.key }}' } },
			{ items: keys.map((key) => ({ json: { key } })) },
		);
		expect(removed.error).toBeUndefined();
		expect(removed.items).toHaveLength(keys.length);
		const after = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			returnAll: true,
			options: { recursive: true, include: 'files' },
		});
		expect(after.items).toEqual([]);
	});
});

describe('keys that cannot be valid are refused before any request', () => {
	beforeEach(() => emulator().resetStats());
	afterEach(() => {
		const { requests } = emulator().stats();
		expect(Object.values(requests).reduce((a, b) => a + b, 0)).toBe(0);
	});

	it('an empty key on Delete (Upload falls back to the file name instead)', async () => {
		const removed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'key', value: '={{ "" }}' },
		});
		expect(removed.error?.message).toMatch(/it is empty/);
	});

	it.each([
		['/leading/slash', /starts with '\/'/],
		['a/../b', /'\.\.' segment/],
		['../up', /'\.\.' segment/],
		['nul\u0000', /U\+0000/],
		['x'.repeat(1025), /1025 bytes long as UTF-8; the limit is 1024 bytes/],
	])('key %j', async (key, rule) => {
		for (const operation of ['upload', 'multipartUpload']) {
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation, key },
				{ items: [fileItem(Buffer.from('x'))] },
			);
			expect(result.error?.message).toMatch(rule);
		}
		const removed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'key', value: key },
		});
		expect(removed.error?.message).toMatch(rule);
	});
});

/**
 * Keys with a "." segment are valid (only ".." is refused) and distinct from the key without it,
 * but a URL client resolves "/./" in a CDN link: the link of "./docs/a.txt" fetches "docs/a.txt".
 * What needs the link fails with an error naming the segment; it never gets another file's bytes.
 */
describe('keys with a "." segment', () => {
	const stored = async (key: string) => await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);
	async function store(key: string, bytes: Buffer, visibility = 'private') {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key, visibility },
			{ items: [fileItem(bytes, 'upload.bin')] },
		);
		expect(result.error).toBeUndefined();
	}

	it.each([
		['Move', 'move'],
		['Copy', 'copy'],
	])(
		'%s of "./dir/a.txt" onto "dir/a.txt" (Replace on) fails naming the "." segment; both files keep their bytes',
		async (_verb, operation) => {
			const source = randomFile(3000);
			const other = randomFile(5000);
			// Public: the CDN serves a public file by its path, whatever the link's signature.
			await store(`./${operation}/a.txt`, source, 'public');
			await store(`${operation}/a.txt`, other, 'public');
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation,
				fileKey: byKey(`./${operation}/a.txt`),
				destinationKey: `${operation}/a.txt`,
				options: { replace: true },
			});
			expect(result.error?.message).toMatch(/'\.\/(move|copy)\/a\.txt' has a '\.' segment/);
			expect(await stored(`./${operation}/a.txt`)).toBe(sha256(source));
			expect(await stored(`${operation}/a.txt`)).toBe(sha256(other));
		},
	);

	it('Copy onto "./docs/c.txt" is refused before anything is stored (the copy could not be checked)', async () => {
		await store('plain/c.txt', randomFile(100));
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'copy',
			fileKey: byKey('plain/c.txt'),
			destinationKey: './plain/c.txt',
		});
		expect(result.error?.message).toMatch(/destination '\.\/plain\/c\.txt' has a '\.' segment/);
		expect(await stored('./plain/c.txt')).toBeUndefined();
	});

	it('Download and Get Info of "./docs/b.txt" fail naming the "." segment, never with another file\'s bytes; Delete removes it', async () => {
		await store('./docs/b.txt', randomFile(3000));
		await store('docs/b.txt', randomFile(5000));
		for (const operation of ['download', 'getInfo']) {
			const result = await runFileStorage(emulator(), { resource: 'file', operation, fileKey: byKey('./docs/b.txt') });
			expect(result.items).toEqual([]);
			expect(result.error?.message).toMatch(/of '\.\/docs\/b\.txt' is not possible: .* has a '\.' segment/);
			expect(result.error?.description).toMatch(/File → Delete needs no link/);
		}
		const removed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('./docs/b.txt'),
		});
		expect(removed.error).toBeUndefined();
		expect(await stored('./docs/b.txt')).toBeUndefined();
		expect(await stored('docs/b.txt')).toBeDefined();
	});
});
