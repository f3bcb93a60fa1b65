/**
 * File → Get Browser Upload URL (spec §3.10): the URL the node signs, sent with plain fetch
 * exactly as the browser SDK `@apexxcloud/sdk-js` sends it (form field `file` for an upload and a
 * part, JSON for start and complete, nothing for cancel and delete), against the emulator.
 */
import type { INodeParameters } from 'n8n-workflow';

import { BUCKET, randomFile, runFileStorage, useEmulator } from './support';

const MIN_PART = 1024;
let skewMs = 0;
const emulator = useEmulator({ minPartSize: MIN_PART, now: () => Date.now() + skewMs });

beforeEach(() => {
	skewMs = 0;
});

async function sign(parameters: INodeParameters, folder = 'uploads/') {
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'signedOperationUrl',
		folder: { __rl: true, mode: 'path', value: folder },
		...parameters,
	});
	return result;
}

async function urlFor(parameters: INodeParameters, folder?: string) {
	const result = await sign(parameters, folder);
	expect(result.error).toBeUndefined();
	return result.items[0].json as { url: string; method: string; type: string; key: string; timestamp: string };
}

/** What the browser SDK sends to each URL: no authentication headers, an Origin as a page has. */
async function sendAsBrowser(
	signed: { url: string; method: string; type: string },
	o: { data?: Buffer; name?: string; json?: unknown } = {},
) {
	let body: FormData | string | undefined;
	const headers: Record<string, string> = { Origin: 'https://app.example' };
	if (signed.type === 'upload' || signed.type === 'uploadpart') {
		body = new FormData();
		body.append('file', new Blob([o.data ?? Buffer.alloc(0)]), o.name ?? 'photo.jpg');
	} else if (o.json !== undefined) {
		body = JSON.stringify(o.json);
		headers['Content-Type'] = 'application/json';
	}
	const response = await fetch(signed.url, { method: signed.method, headers, body });
	const text = await response.text();
	let json: { data?: Record<string, unknown>; error?: string } = {};
	try {
		json = JSON.parse(text) as typeof json;
	} catch {
		// not JSON: status alone says
	}
	return { status: response.status, json };
}

const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);

describe('File → Get Browser Upload URL', () => {
	it('an upload URL works with the browser SDK’s PUT of form field "file", and the file lands under Folder', async () => {
		const bytes = randomFile(3000);
		const signed = await urlFor({ requestType: 'upload', browserKey: 'photo.jpg', visibility: 'public' });
		expect(signed).toMatchObject({ type: 'upload', method: 'PUT', key: 'uploads/photo.jpg' });
		const { pathname, searchParams } = new URL(signed.url);
		expect(pathname).toBe('/api/v1/files/upload');
		expect([...searchParams.keys()]).toEqual([
			'bucket_name',
			'region',
			'key',
			'visibility',
			'access_key',
			'signature',
			'timestamp',
		]);
		const answer = await sendAsBrowser(signed, { data: bytes });
		expect(answer.status).toBe(200);
		const stored = await read('uploads/photo.jpg');
		expect(stored?.body.equals(bytes)).toBe(true);
		expect(stored?.visibility).toBe('public');
	});

	it.each([
		['upload', 'PUT', '/api/v1/files/upload', ['visibility']],
		['delete', 'DELETE', '/api/v1/files/delete', []],
		['start-multipart', 'POST', '/api/v1/files/multipart/start', ['totalParts', 'mimeType', 'visibility']],
		['uploadpart', 'POST', '/api/v1/files/multipart/u1', ['partNumber', 'totalParts']],
		['completemultipart', 'POST', '/api/v1/files/multipart/u1/complete', []],
		['cancelmultipart', 'DELETE', '/api/v1/files/multipart/u1', []],
	])(
		'%s: method %s, path %s, query in the order of spec §3.10, the credentials last',
		async (type, method, path, own) => {
			const signed = await urlFor({
				requestType: type,
				browserKey: 'a.bin',
				uploadId: 'u1',
				partNumber: 2,
				totalParts: 3,
			});
			const url = new URL(signed.url);
			expect([signed.method, url.pathname]).toEqual([method, path]);
			expect([...url.searchParams.keys()]).toEqual([
				'bucket_name',
				'region',
				'key',
				...(own as string[]),
				'access_key',
				'signature',
				'timestamp',
			]);
		},
	);

	it('a full multipart upload (start → 2 parts → complete) from its URLs stores the bytes exactly', async () => {
		const bytes = randomFile(MIN_PART * 2 + 300);
		const halves = [bytes.subarray(0, MIN_PART), bytes.subarray(MIN_PART)];
		const common = { browserKey: 'video.mp4', totalParts: 2 };
		const startUrl = await urlFor({ requestType: 'start-multipart', ...common, mimeType: 'video/mp4' });
		expect(startUrl.method).toBe('POST');
		const started = await sendAsBrowser(startUrl, {
			json: { filename: 'video.mp4', contentType: 'video/mp4', size: bytes.length },
		});
		expect(started.status).toBe(200);
		const uploadId = String(started.json.data?.uploadId);
		const parts: Array<{ ETag: string; PartNumber: number }> = [];
		for (const [index, half] of halves.entries()) {
			const partUrl = await urlFor({ requestType: 'uploadpart', ...common, uploadId, partNumber: String(index + 1) });
			expect(new URL(partUrl.url).pathname).toBe(`/api/v1/files/multipart/${uploadId}`);
			const sent = await sendAsBrowser(partUrl, { data: half, name: 'video.mp4' });
			expect(sent.status).toBe(200);
			parts.push({ ETag: String(sent.json.data?.ETag), PartNumber: Number(sent.json.data?.partNumber) });
		}
		const completeUrl = await urlFor({ requestType: 'completemultipart', browserKey: 'video.mp4', uploadId });
		const completed = await sendAsBrowser(completeUrl, { json: { parts } });
		expect(completed.status).toBe(200);
		const stored = await read('uploads/video.mp4');
		expect(stored?.body.equals(bytes)).toBe(true);
		expect(stored?.contentType).toBe('video/mp4');
	});

	it('cancel and delete URLs work with the browser’s bodyless DELETE', async () => {
		const startUrl = await urlFor({ requestType: 'start-multipart', browserKey: 'gone.bin', totalParts: 1 });
		const uploadId = String((await sendAsBrowser(startUrl, { json: {} })).json.data?.uploadId);
		const cancelUrl = await urlFor({ requestType: 'cancelmultipart', browserKey: 'gone.bin', uploadId });
		expect(cancelUrl.method).toBe('DELETE');
		expect((await sendAsBrowser(cancelUrl)).status).toBe(200);
		expect(
			emulator()
				.listOpenUploads()
				.map((u) => u.uploadId),
		).not.toContain(uploadId);

		await sendAsBrowser(await urlFor({ requestType: 'upload', browserKey: 'old.txt' }), { data: Buffer.from('x') });
		expect(await read('uploads/old.txt')).toBeDefined();
		const deleteUrl = await urlFor({ requestType: 'delete', browserKey: 'old.txt' });
		expect((await sendAsBrowser(deleteUrl)).status).toBe(200);
		expect(await read('uploads/old.txt')).toBeUndefined();
	});

	it('a tampered URL, a URL reused for another key and an expired one are refused with 401', async () => {
		const signed = await urlFor({ requestType: 'upload', browserKey: 'a.txt' });
		const tampered = { ...signed, url: signed.url.replace('visibility=private', 'visibility=public') };
		expect((await sendAsBrowser(tampered, { data: Buffer.from('x') })).status).toBe(401);
		const otherKey = { ...signed, url: signed.url.replace('uploads%2Fa.txt', 'uploads%2Fb.txt') };
		expect(otherKey.url).not.toBe(signed.url);
		expect((await sendAsBrowser(otherKey, { data: Buffer.from('x') })).status).toBe(401);
		skewMs = 301_000;
		expect((await sendAsBrowser(signed, { data: Buffer.from('x') })).status).toBe(401);
		skewMs = 0;
		expect((await sendAsBrowser(signed, { data: Buffer.from('x') })).status).toBe(200);
		expect(await read('uploads/b.txt')).toBeUndefined();
	});

	it('says until when the URL is good and never outputs the secret', async () => {
		const result = await sign({ requestType: 'upload', browserKey: 'a.txt' });
		const json = result.items[0].json;
		expect(Date.parse(String(json.expiresAt)) - Date.parse(String(json.timestamp))).toBe(300_000);
		expect(String(json.validity)).toMatch(/not published/);
		expect(JSON.stringify(result.items)).not.toContain(emulator().secretKey);
		expect(new URL(String(json.url)).searchParams.get('access_key')).toBe(emulator().accessKey);
	});

	it('a saved version 1 node, whose Folder is typed text, puts the key under it too', async () => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'signedOperationUrl',
				requestType: 'delete',
				folder: 'inbox',
				browserKey: 'a.txt',
			},
			{ typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ key: 'inbox/a.txt', method: 'DELETE' });
	});

	it('the type passed straight from the browser’s request as an expression works', async () => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'signedOperationUrl',
				requestType: '={{ $json.params.type }}',
				browserKey: '={{ $json.params.key }}',
				totalParts: '={{ $json.params.totalParts }}',
				mimeType: '={{ $json.params.mimeType }}',
			},
			{
				items: [
					{ json: { params: { type: 'start-multipart', key: 'clip.mp4', totalParts: 3, mimeType: 'video/mp4' } } },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const url = new URL(String(result.items[0].json.url));
		expect(url.searchParams.get('totalParts')).toBe('3');
		expect(url.searchParams.get('mimeType')).toBe('video/mp4');
		expect(url.searchParams.get('key')).toBe('clip.mp4');
	});
});

describe('File → Get Browser Upload URL: bad input', () => {
	it.each([
		[
			'a key with a ".." segment',
			{ requestType: 'upload', browserKey: '../secret.txt' },
			/'\.\.' segment.*parameter 'Key'/,
		],
		[
			'a key with a "." segment',
			{ requestType: 'upload', browserKey: 'a/./b.txt' },
			/'\.' or '\.\.' segment.*parameter 'Key'/,
		],
		[
			'a key starting with "/"',
			{ requestType: 'upload', browserKey: '/etc/passwd' },
			/starts with '\/'.*parameter 'Key'/,
		],
		['an empty key', { requestType: 'upload', browserKey: '={{ "" }}' }, /parameter 'Key' is empty/],
		[
			'a part without an upload ID',
			{ requestType: 'uploadpart', browserKey: 'a', partNumber: 1 },
			/'Upload ID' is empty/,
		],
		['a complete without an upload ID', { requestType: 'completemultipart', browserKey: 'a' }, /'Upload ID' is empty/],
		['a cancel without an upload ID', { requestType: 'cancelmultipart', browserKey: 'a' }, /'Upload ID' is empty/],
		[
			'part number 0',
			{ requestType: 'uploadpart', browserKey: 'a', uploadId: 'u', partNumber: 0 },
			/'Part Number' must be a whole number from 1 to 10000/,
		],
		[
			'part number 10001',
			{ requestType: 'uploadpart', browserKey: 'a', uploadId: 'u', partNumber: 10001 },
			/'Part Number' must be a whole number from 1 to 10000/,
		],
		[
			'totalParts 0 at start',
			{ requestType: 'start-multipart', browserKey: 'a', totalParts: 0 },
			/'Total Parts' must be a whole number from 1 to 10000/,
		],
		[
			'totalParts 10001 at start',
			{ requestType: 'start-multipart', browserKey: 'a', totalParts: 10001 },
			/'Total Parts' must be a whole number from 1 to 10000/,
		],
		['an unknown type', { requestType: 'download', browserKey: 'a' }, /'Request Type' is "download"/],
	])('%s is refused naming the field, and nothing is signed', async (_, parameters, message) => {
		const result = await sign(parameters as INodeParameters);
		expect(result.error?.message).toMatch(message);
		expect(result.items).toHaveLength(0);
	});

	it('an unknown type names the six types', async () => {
		const result = await sign({ requestType: 'download', browserKey: 'a' });
		expect(result.error?.description).toBe(
			'Use one of: upload, start-multipart, uploadpart, completemultipart, cancelmultipart, delete.',
		);
	});

	it('with Continue On Fail a refused key is an error item paired with its input', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'signedOperationUrl', requestType: 'upload', browserKey: '={{ $json.key }}' },
			{ items: [{ json: { key: 'ok.txt' } }, { json: { key: 'a/../../b' } }], continueOnFail: true },
		);
		expect(result.items.map((i) => [Boolean(i.json.url), Boolean(i.json.error), i.pairedItem])).toEqual([
			[true, false, { item: 0 }],
			[false, true, { item: 1 }],
		]);
	});
});

describe('Get Browser Upload URL: a hostile browser', () => {
	it.each([
		['uploadpart', 'start'],
		// Express, which the service's SDK hints at (multer), routes without regard to case.
		['uploadpart', 'Start'],
		['uploadpart', '..'],
		['completemultipart', '.'],
		['cancelmultipart', '..'],
	])('a %s with Upload ID "%s" is refused naming Upload ID: its path would name another call', async (type, id) => {
		const result = await sign({ requestType: type, browserKey: 'a.bin', uploadId: id, partNumber: 1, totalParts: 2 });
		expect(result.error?.message).toMatch(/parameter 'Upload ID'/);
		expect(result.items).toHaveLength(0);
	});

	it('a part URL asked with Upload ID "start" cannot start an upload the workflow never signed', async () => {
		const result = await sign({ requestType: 'uploadpart', browserKey: 'a.bin', uploadId: 'start', partNumber: 1 });
		const url = result.items[0]?.json.url;
		if (url !== undefined) {
			// What the browser would do with it: the emulator takes it as a start-multipart.
			await fetch(String(url), { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
		}
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it.each([
		['Key', 'an object with toString', 'browserKey', { toString: 1 }],
		['Key', 'an empty object', 'browserKey', {}],
		['Key', 'an array', 'browserKey', ['a', 'b']],
		['Upload ID', 'an object', 'uploadId', { id: 'u1' }],
	])('a %s given as %s is refused naming the field, with Continue On Fail paired', async (label, _, name, value) => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'signedOperationUrl',
				requestType: 'uploadpart',
				browserKey: 'a.bin',
				uploadId: 'u1',
				partNumber: 1,
				[name]: '={{ $json.value }}',
			},
			{ items: [{ json: { value } as never }], continueOnFail: true },
		);
		expect(result.items.map((i) => [String(i.json.error), i.pairedItem])).toEqual([
			[`The parameter '${label}' is ${Array.isArray(value) ? 'an array' : 'an object'}, not text`, { item: 0 }],
		]);
	});

	it('a Key with a lone surrogate is refused naming Key: the URL would sign another key (U+FFFD) than the output says', async () => {
		const result = await sign({ requestType: 'upload', browserKey: '={{ "a\\ud800.txt" }}' });
		expect(result.error?.message).toMatch(/lone UTF-16 surrogate.*parameter 'Key'/);
		expect(result.items).toHaveLength(0);
	});

	it.each([
		['a line break', 'text/html\r\nSet-Cookie: a=b'],
		['no subtype', 'texthtml'],
		['a NUL', 'text/plain\u0000'],
	])('a MIME Type with %s is refused naming MIME Type', async (_, mimeType) => {
		const result = await sign({ requestType: 'start-multipart', browserKey: 'a.bin', totalParts: 1, mimeType });
		expect(result.error?.message).toMatch(/parameter 'MIME Type'/);
		expect(result.items).toHaveLength(0);
	});
});
