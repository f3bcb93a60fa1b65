/**
 * Review 32, a hostile reading of Get Browser Upload URL, Source Text and Transform: each test
 * is a defect found by attacking the operation as a hostile browser, user or CDN would, run
 * through n8n's engine against the emulator over real HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import { BUCKET, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator({ minPartSize: 1024 });
afterEach(() => emulator().setFaults([]));

const sign = async (parameters: INodeParameters) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'signedOperationUrl',
		folder: { __rl: true, mode: 'path', value: 'uploads/' },
		...parameters,
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

describe('Source Text: an expression that gives no text', () => {
	it('an object is refused naming Text, never stored as "[object Object]"', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', source: 'text', text: '={{ $json.body }}', textFileName: 'obj.txt' },
			{ items: [{ json: { body: { a: 1 } } }] },
		);
		expect(result.error?.message).toMatch(/parameter 'Text'/);
		expect(await emulator().readObject(BUCKET.bucketName, BUCKET.region, 'obj.txt')).toBeUndefined();
	});
});

describe('Transform: a hostile CDN and raw strings', () => {
	const IMAGE = randomFile(50_000);
	beforeAll(async () => {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'r32/cat.jpg', visibility: 'public' },
			{ items: [fileItem(IMAGE, 'cat.jpg', 'image/jpeg')] },
		);
		expect(stored.error).toBeUndefined();
	});
	const transform = async (parameters: INodeParameters) =>
		await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'transform',
			fileKey: { __rl: true, mode: 'key', value: 'r32/cat.jpg' },
			...parameters,
		});

	it('a transformed download cut short by a close-delimited answer says sizeConfirmed: false', async () => {
		emulator().setFaults([{ operation: 'cdn', closeDelimited: 1000 }]);
		const result = await transform({ transformation: 'image', width: 10, downloadTransformed: true });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ size: 1000, sizeConfirmed: false });
	});

	it('a whole transformed download with a stated length says sizeConfirmed: true', async () => {
		const result = await transform({ transformation: 'image', width: 10, downloadTransformed: true });
		expect(result.items[0].json).toMatchObject({ size: IMAGE.length, sizeConfirmed: true });
	});

	it('the URL of a key with a "." segment is refused: a URL client would fetch another file', async () => {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'r32/./dot.jpg', visibility: 'public' },
			{ items: [fileItem(IMAGE, 'dot.jpg', 'image/jpeg')] },
		);
		expect(stored.error).toBeUndefined();
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'transform',
			fileKey: { __rl: true, mode: 'key', value: 'r32/./dot.jpg' },
			transformation: 'image',
			width: 10,
		});
		expect(result.error?.message).toMatch(/'r32\/\.\/dot\.jpg' has a '\.' segment, which its link cannot carry/);
		expect(result.items).toHaveLength(0);
	});

	it('a raw string with a lone surrogate is refused naming Raw Transformation', async () => {
		const result = await transform({ transformation: 'raw', rawTransformation: '={{ "tr-w_1\\ud800" }}' });
		expect(result.error?.message).toMatch(/parameter 'Raw Transformation'/);
	});
});
