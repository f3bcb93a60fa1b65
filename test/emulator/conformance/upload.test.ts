/** Spec §3.2 and §4 key rules; keys with awkward characters round-trip exactly. */
import { formBody, query, sha256, show } from './client';
import { startEmulator, type Running } from './setup';

let r: Running;
beforeAll(async () => {
	r = await startEmulator();
});
afterAll(() => r.emu.stop());

const encodeLocationKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

describe('single upload', () => {
	test('success shape (seed 2.4) and location', async () => {
		const data = Buffer.from('hello, storage');
		const res = await r.api.upload('greetings/hello.txt', data, { visibility: 'public', contentType: 'text/plain' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.json).toEqual({
			data: {
				message: 'File uploaded successfully',
				key: 'greetings/hello.txt',
				location: `${r.emu.cdnUrl}/f/${r.emu.accessId}/greetings/hello.txt`,
				bucket: r.emu.buckets[0].name,
				region: r.emu.buckets[0].region,
				visibility: 'public',
				size: data.length,
				content_type: 'text/plain',
			},
		});
		const cdn = await r.api.fetchUrl(res.json.data.location);
		expect(cdn.status).toBe(200);
		expect(cdn.body.equals(data)).toBe(true);
	});

	test('visibility defaults to private', async () => {
		const res = await r.api.upload('private-by-default.bin', Buffer.from([1, 2, 3]));
		expect(res.json.data.visibility).toBe('private');
		expect(
			(await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, 'private-by-default.bin'))?.visibility,
		).toBe('private');
	});

	test('an existing key is replaced', async () => {
		await r.api.upload('replace/me.txt', Buffer.from('first version'), {
			contentType: 'text/plain',
			visibility: 'public',
		});
		const res = await r.api.upload('replace/me.txt', Buffer.from('v2'), { contentType: 'text/csv' });
		expect(res.json.data).toMatchObject({ size: 2, content_type: 'text/csv', visibility: 'private' });
		const stored = await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, 'replace/me.txt');
		expect(stored?.body.toString()).toBe('v2');
		const list = await r.api.list({ prefix: 'replace/' });
		expect(list.json.data.contents.children).toHaveLength(1);
	});

	test("content type is the form part's, parameters included", async () => {
		const res = await r.api.upload('types/page.html', Buffer.from('<p>'), { contentType: 'text/html; charset=utf-8' });
		expect(res.json.data.content_type).toBe('text/html; charset=utf-8');
		const cdn = await r.api.fetchUrl(
			(await r.api.upload('types/pic.png', Buffer.from('png'), { contentType: 'image/png', visibility: 'public' })).json
				.data.location,
		);
		expect(cdn.headers['content-type']).toBe('image/png');
	});

	test('a file part without Content-Type is application/octet-stream', async () => {
		const key = 'types/untyped';
		const res = await r.api.sendForm('PUT', r.api.uploadTarget(key), [
			{ name: 'file', filename: key, data: Buffer.from('??') },
		]);
		expect(res.status).toBe(200);
		expect(res.json.data.content_type).toBe('application/octet-stream');
	});

	test('extra text fields are ignored; an empty file is fine', async () => {
		const key = 'forms/with-fields.txt';
		const res = await r.api.sendForm('PUT', r.api.uploadTarget(key), [
			{ name: 'note', data: Buffer.from('ignored') },
			{ name: 'file', filename: key, contentType: 'text/plain', data: Buffer.alloc(0) },
		]);
		expect(res.status).toBe(200);
		expect(res.json.data.size).toBe(0);
	});

	test('binary bytes that look like a boundary survive', async () => {
		const data = Buffer.concat([Buffer.from('\r\n--'), Buffer.alloc(70_000, 0x2d), Buffer.from('\r\n\r\n--x--\r\n')]);
		const res = await r.api.upload('forms/tricky.bin', data);
		expect(res.json.data.size).toBe(data.length);
		expect(await r.emu.objectSha256(r.emu.buckets[0].name, r.emu.buckets[0].region, 'forms/tricky.bin')).toBe(
			sha256(data),
		);
	});
});

describe('form errors → 400 on field "file"', () => {
	const expect400 = async (res: Awaited<ReturnType<typeof r.api.send>>) => {
		expect(res.status).toBe(400);
		expect(res.json.error).toBe('Validation failed');
		expect(res.json.details[0].field).toBe('file');
	};

	test('no file part', async () => {
		await expect400(
			await r.api.sendForm('PUT', r.api.uploadTarget('x.txt'), [{ name: 'other', data: Buffer.from('1') }]),
		);
	});
	test('the file under another field name', async () => {
		await expect400(
			await r.api.sendForm('PUT', r.api.uploadTarget('x.txt'), [
				{ name: 'upload', filename: 'x.txt', data: Buffer.from('1') },
			]),
		);
	});
	test('two file parts', async () => {
		const part = { name: 'file', filename: 'x.txt', data: Buffer.from('1') };
		await expect400(await r.api.sendForm('PUT', r.api.uploadTarget('x.txt'), [part, part]));
	});
	test('"file" as a plain field without filename', async () => {
		await expect400(
			await r.api.sendForm('PUT', r.api.uploadTarget('x.txt'), [{ name: 'file', data: Buffer.from('1') }]),
		);
	});
	test('not multipart/form-data', async () => {
		await expect400(
			await r.api.send('PUT', r.api.uploadTarget('x.txt'), Buffer.from('raw'), {
				'Content-Type': 'application/octet-stream',
			}),
		);
	});
	test('truncated form', async () => {
		const form = formBody([{ name: 'file', filename: 'x.txt', data: Buffer.from('12345') }]);
		await expect400(
			await r.api.send('PUT', r.api.uploadTarget('x.txt'), form.body.subarray(0, form.body.length - 10), {
				'Content-Type': form.contentType,
			}),
		);
		expect(await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, 'x.txt')).toBeUndefined();
	});
});

describe('query errors', () => {
	test('missing key, bad visibility → 400 naming both', async () => {
		const target = `/api/v1/files/upload${query([
			['bucket_name', r.emu.buckets[0].name],
			['region', r.emu.buckets[0].region],
			['visibility', 'world'],
		])}`;
		const res = await r.api.sendForm('PUT', target, [{ name: 'file', filename: 'x', data: Buffer.from('1') }]);
		expect(res.status).toBe(400);
		expect(res.json.details.map((d: { field: string }) => d.field).sort()).toEqual(['key', 'visibility']);
	});

	test('a parameter given twice → 400', async () => {
		const res = await r.api.sendForm('PUT', `${r.api.uploadTarget('a.txt')}&key=b.txt`, [
			{ name: 'file', filename: 'x', data: Buffer.from('1') },
		]);
		expect(res.status).toBe(400);
		expect(res.json.details[0].field).toBe('key');
	});

	test('unknown bucket → 404', async () => {
		const target = `/api/v1/files/upload${query([
			['bucket_name', 'ghost'],
			['region', 'nowhere'],
			['key', 'a.txt'],
		])}`;
		const res = await r.api.sendForm('PUT', target, [{ name: 'file', filename: 'a.txt', data: Buffer.from('1') }]);
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
	});
});

describe('key rules (spec §4) → 400 naming the rule', () => {
	test.each([
		['empty', '', /required/i],
		['leading slash', '/leading-slash.txt', /start with "\/"/],
		['".."', '..', /\.\./],
		['"../etc/passwd"', '../etc/passwd', /\.\./],
		['"a/../../b"', 'a/../../b', /\.\./],
		['"a/.."', 'a/..', /\.\./],
		['NUL', 'nul\0byte', /NUL/],
		['1025 ASCII bytes', 'x'.repeat(1025), /1024 bytes/],
		['1026 bytes of "€"', '€'.repeat(342), /1024 bytes/],
	])('%s', async (_label, key, rule) => {
		const res = await r.api.upload(key, Buffer.from('nope'));
		expect(res.status).toBe(400);
		expect(res.json.error).toBe('Validation failed');
		const detail = res.json.details.find((d: { field: string }) => d.field === 'key');
		expect(detail.message).toMatch(rule);
	});

	test('a key of invalid UTF-8 bytes → 400', async () => {
		const target = `/api/v1/files/upload${query([
			['bucket_name', r.emu.buckets[0].name],
			['region', r.emu.buckets[0].region],
		])}&key=%C3%28`;
		const res = await r.api.sendForm('PUT', target, [{ name: 'file', filename: 'x', data: Buffer.from('1') }]);
		expect(res.status).toBe(400);
		expect(res.json.details[0].field).toBe('key');
	});

	test.each([
		['1024 ASCII bytes', 'x'.repeat(1024)],
		['1023 bytes of "€"', '€'.repeat(341)],
		['dots that are not a ".." segment', 'a..b/..c/d..'],
		['a "." segment', './dot/segment'],
		['a control character other than NUL', 'tab\there'],
	])('allowed: %s', async (_label, key) => {
		const res = await r.api.upload(key, Buffer.from('ok'));
		expect(res.status).toBe(200);
		expect(res.json.data.key).toBe(key);
	});
});

describe('keys round-trip exactly', () => {
	const keys = [
		'with space.txt',
		'plus+sign.txt',
		'percent%20literal.txt',
		'100%.txt',
		'amp&and=equals.txt',
		'hash#fragment.txt',
		'question?mark.txt',
		'quotes\'and"double.txt',
		'unicode/résumé – 日本語.txt',
		'emoji 😀🎉/file 👍.bin',
		'all/ +%&=#?~!*()[]{};:,@$ 😀.txt',
		'trailing space ',
		'%2F not a slash',
	];

	test.each(keys)('%j: upload, list, CDN, signed URL, delete', async (key) => {
		const data = Buffer.from(`content of ${key}`);
		const up = await r.api.upload(key, data, { visibility: 'public', contentType: 'text/plain' });
		expect(up.status).toBe(200);
		expect(up.json.data.key).toBe(key);
		expect(up.json.data.location).toBe(`${r.emu.cdnUrl}/f/${r.emu.accessId}/${encodeLocationKey(key)}`);
		// The location is a normal URL: parsing it changes nothing.
		expect(new URL(up.json.data.location).href).toBe(up.json.data.location);

		const slash = key.lastIndexOf('/');
		const prefix = slash === -1 ? '' : key.slice(0, slash + 1);
		const list = await r.api.list({ prefix, limit: 1000 });
		const entry = list.json.data.contents.children.find((c: { path: string }) => c.path === key);
		expect(entry).toMatchObject({ type: 'file', name: key.slice(slash + 1), size: data.length });

		const cdn = await r.api.fetchUrl(up.json.data.location);
		expect(cdn.status).toBe(200);
		expect(cdn.body.equals(data)).toBe(true);

		const signed = await r.api.signedUrl(key);
		expect(signed.json.data).toEqual({ url: up.json.data.location, is_public: true });

		const del = await r.api.delete(key);
		expect(del.status).toBe(200);
		expect((await r.api.fetchUrl(up.json.data.location)).status).toBe(404);
	});

	test('private keys with awkward characters download through their signed URLs', async () => {
		for (const key of keys) {
			const data = Buffer.from(`secret ${key}`);
			expect((await r.api.upload(key, data)).status).toBe(200);
			const signed = await r.api.signedUrl(key);
			expect(signed.status).toBe(200);
			const res = await r.api.fetchUrl(signed.json.data.url);
			expect({ key, status: res.status }).toEqual({ key, status: 200 });
			expect(res.body.equals(data)).toBe(true);
		}
	});

	test('the SDK way: URLSearchParams target, field "file", filename = key', async () => {
		const key = 'sdk/Q1 résumé+final (v2) #1 & more?.pdf';
		const params = new URLSearchParams({
			bucket_name: r.emu.buckets[0].name,
			region: r.emu.buckets[0].region,
			visibility: 'private',
			key,
		});
		const res = await r.api.sendForm('PUT', `/api/v1/files/upload?${params}`, [
			{ name: 'file', filename: key, contentType: 'application/pdf', data: Buffer.from('%PDF') },
		]);
		expect(res.status).toBe(200);
		expect(res.json.data.key).toBe(key);
		expect(show(res)).toContain('application/pdf');
	});
});
