/** Spec §3.3–§3.6 and §4: start, parts, complete (and each of its errors), cancel. */
import { md5, randomData, sha256, show, type ApiClient, type PartRef } from './client';
import { putPart, startEmulator, startUpload, type Running } from './setup';

const MiB = 1024 * 1024;

describe('with the default 5 MiB minimum part size', () => {
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator();
	});
	afterAll(() => r.emu.stop());

	test('3 full parts + a short last part, uploaded out of order, assemble byte-identical', async () => {
		const key = 'videos/big movie 🎬.mp4';
		const start = await r.api.start(key, { mimeType: 'video/mp4', visibility: 'public', totalParts: 4 });
		expect(start.status).toBe(200);
		expect(start.json.data).toEqual({
			uploadId: expect.stringMatching(/^[0-9a-f]+$/),
			key,
			bucket: r.emu.buckets[0].name,
			fileId: expect.any(String),
		});
		const { uploadId } = start.json.data;
		expect(r.emu.stats().openMultipartUploads).toBe(1);

		const parts = [randomData(5 * MiB), randomData(5 * MiB), randomData(5 * MiB), randomData(12_345)];
		const refs = await Promise.all(
			[3, 1, 4, 2].map(async (n) => {
				const res = await r.api.uploadPart(uploadId, key, n, parts[n - 1], 4);
				expect(res.status).toBe(200);
				expect(res.json).toEqual({ data: { partNumber: n, ETag: `"${md5(parts[n - 1])}"` } });
				return { PartNumber: n, ETag: res.json.data.ETag as string };
			}),
		);
		expect(r.emu.listOpenUploads()).toEqual([
			{ uploadId, bucket: r.emu.buckets[0].name, region: r.emu.buckets[0].region, key, parts: [1, 2, 3, 4] },
		]);

		refs.sort((a, b) => a.PartNumber - b.PartNumber);
		const done = await r.api.complete(uploadId, key, refs);
		expect(done.status).toBe(200);
		const whole = Buffer.concat(parts);
		expect(done.json).toEqual({
			data: {
				message: 'Multipart upload completed successfully',
				key,
				location: `${r.emu.cdnUrl}/f/${r.emu.accessId}/videos/${encodeURIComponent('big movie 🎬.mp4')}`,
				bucket: r.emu.buckets[0].name,
				region: r.emu.buckets[0].region,
				visibility: 'public',
				size: whole.length,
				content_type: 'video/mp4',
			},
		});
		expect(await r.emu.objectSha256(r.emu.buckets[0].name, r.emu.buckets[0].region, key)).toBe(sha256(whole));
		const cdn = await r.api.fetchUrl(done.json.data.location);
		expect(cdn.headers['content-type']).toBe('video/mp4');
		expect(sha256(cdn.body)).toBe(sha256(whole));
		expect(r.emu.stats().openMultipartUploads).toBe(0);
		expect(r.emu.listOpenUploads()).toEqual([]);
		// A completed upload is gone.
		expect((await r.api.uploadPart(uploadId, key, 5, Buffer.from('late'))).status).toBe(404);
		expect((await r.api.complete(uploadId, key, refs)).status).toBe(404);
	});

	test('a part below 5 MiB that is not last → 400; exactly 5 MiB is fine', async () => {
		const key = 'sizes.bin';
		const uploadId = await startUpload(r.api, key);
		const exact = await putPart(r.api, uploadId, key, 1, randomData(5 * MiB));
		const short = await putPart(r.api, uploadId, key, 2, randomData(5 * MiB - 1));
		const last = await putPart(r.api, uploadId, key, 3, randomData(10));
		const res = await r.api.complete(uploadId, key, [exact, short, last]);
		expect(res.status).toBe(400);
		expect(res.json.error).toBe('Validation failed');
		expect(res.json.details).toEqual([
			{ field: 'parts[1].PartNumber', message: expect.stringMatching(/5242879 bytes.*5242880/) },
		]);
		// Dropping the short part makes a valid upload: parts not listed are discarded.
		const ok = await r.api.complete(uploadId, key, [exact, last]);
		expect(ok.status).toBe(200);
		expect(ok.json.data.size).toBe(5 * MiB + 10);
	});
});

describe('with a small minimum part size', () => {
	const MIN = 1024;
	let r: Running;
	beforeAll(async () => {
		r = await startEmulator({ minPartSize: MIN });
	});
	afterAll(() => r.emu.stop());
	const bucket = () => r.emu.buckets[0].name;
	const region = () => r.emu.buckets[0].region;

	async function threeParts(key: string) {
		const uploadId = await startUpload(r.api, key, { mimeType: 'text/plain' });
		const data = [randomData(MIN), randomData(MIN), randomData(100)];
		const refs: PartRef[] = [];
		for (let n = 1; n <= 3; n++) refs.push(await putPart(r.api, uploadId, key, n, data[n - 1]));
		return { uploadId, data, refs };
	}

	describe('complete-time errors → 400, the upload stays usable', () => {
		type Case = [string, (refs: PartRef[]) => unknown, RegExp, string];
		const cases: Case[] = [
			['empty list', () => [], /non-empty/, 'parts'],
			['no parts field', () => undefined, /non-empty/, 'parts'],
			['not ascending', (p) => [p[1], p[0], p[2]], /ascending/, 'parts[1].PartNumber'],
			['a part listed twice', (p) => [p[0], p[0], p[2]], /ascending/, 'parts[1].PartNumber'],
			[
				'a part never uploaded',
				(p) => [p[0], p[1], { PartNumber: 7, ETag: p[2].ETag }],
				/never uploaded/,
				'parts[2].PartNumber',
			],
			['an ETag that differs', (p) => [p[0], { PartNumber: 2, ETag: p[0].ETag }, p[2]], /ETag/, 'parts[1].ETag'],
			[
				'an ETag without its quotes',
				(p) => [{ PartNumber: 1, ETag: p[0].ETag.replace(/"/g, '') }, p[1], p[2]],
				/ETag/,
				'parts[0].ETag',
			],
			[
				'lower-case partNumber field',
				(p) => p.map((x) => ({ partNumber: x.PartNumber, ETag: x.ETag })),
				/PartNumber/,
				'parts[0].PartNumber',
			],
			['PartNumber 0', (p) => [{ PartNumber: 0, ETag: p[0].ETag }], /PartNumber/, 'parts[0].PartNumber'],
			['PartNumber as a string', (p) => [{ PartNumber: '1', ETag: p[0].ETag }], /PartNumber/, 'parts[0].PartNumber'],
		];
		test.each(cases)('%s', async (_label, mutate, message, field) => {
			const key = `errors/${_label}.txt`;
			const { uploadId, data, refs } = await threeParts(key);
			const res = await r.api.complete(uploadId, key, mutate(refs));
			expect(res.status).toBe(400);
			expect(res.json.error).toBe('Validation failed');
			expect(res.json.details[0]).toEqual({ field, message: expect.stringMatching(message) });
			expect(r.emu.listOpenUploads().some((u) => u.uploadId === uploadId)).toBe(true);
			const ok = await r.api.complete(uploadId, key, refs);
			expect(ok.status).toBe(200);
			expect(await r.emu.objectSha256(bucket(), region(), key)).toBe(sha256(Buffer.concat(data)));
		});

		test('a body that is not JSON, or not sent as application/json', async () => {
			const key = 'errors/not-json.txt';
			const { uploadId } = await threeParts(key);
			const target = r.api.completeTarget(uploadId, key);
			const bad = await r.api.send('POST', target, Buffer.from('{"parts": ['), { 'Content-Type': 'application/json' });
			expect(bad.status).toBe(400);
			const form = await r.api.send('POST', target, Buffer.from('{"parts": []}'), { 'Content-Type': 'text/plain' });
			expect(form.status).toBe(400);
			expect(form.json.details[0].field).toBe('Content-Type');
		});
	});

	test('uploading a part again replaces it: the last ETag wins', async () => {
		const key = 'replace-part.bin';
		const uploadId = await startUpload(r.api, key);
		const first = await putPart(r.api, uploadId, key, 1, Buffer.alloc(MIN, 1));
		const second = await putPart(r.api, uploadId, key, 1, Buffer.alloc(MIN, 2));
		const last = await putPart(r.api, uploadId, key, 2, Buffer.from('end'));
		expect(second.ETag).not.toBe(first.ETag);
		expect((await r.api.complete(uploadId, key, [first, last])).status).toBe(400);
		expect((await r.api.complete(uploadId, key, [second, last])).status).toBe(200);
		const stored = await r.emu.readObject(bucket(), region(), key);
		expect(stored?.body.equals(Buffer.concat([Buffer.alloc(MIN, 2), Buffer.from('end')]))).toBe(true);
		expect(stored?.contentType).toBe('application/octet-stream');
		expect(stored?.visibility).toBe('private');
	});

	test('totalParts is informational: fewer parts complete fine', async () => {
		const key = 'fewer-than-announced.bin';
		const uploadId = await startUpload(r.api, key, { totalParts: 10 });
		const only = await putPart(r.api, uploadId, key, 1, Buffer.from('single short part'));
		const res = await r.api.complete(uploadId, key, [only]);
		expect(res.status).toBe(200);
		expect(res.json.data.size).toBe(17);
	});

	test('part numbers 1..10000', async () => {
		const key = 'part-numbers.bin';
		const uploadId = await startUpload(r.api, key);
		for (const n of [0, 10_001, -1]) {
			const res = await r.api.send('POST', r.api.partTarget(uploadId, key, n), Buffer.alloc(0));
			expect(res.status).toBe(400);
			expect(res.json.details[0].field).toBe('partNumber');
		}
		expect((await r.api.uploadPart(uploadId, key, 10_000, Buffer.from('x'))).status).toBe(200);
	});

	test('cancel discards the upload and its parts', async () => {
		const key = 'cancel-me.bin';
		const { uploadId, refs } = await threeParts(key);
		const open = r.emu.stats().openMultipartUploads;
		const res = await r.api.cancel(uploadId, key);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ data: { message: 'Multipart upload cancelled successfully' } });
		expect(r.emu.stats().openMultipartUploads).toBe(open - 1);
		expect((await r.api.uploadPart(uploadId, key, 4, Buffer.from('x'))).status).toBe(404);
		expect((await r.api.complete(uploadId, key, refs)).status).toBe(404);
		expect((await r.api.cancel(uploadId, key)).status).toBe(404);
		expect(await r.emu.readObject(bucket(), region(), key)).toBeUndefined();
	});

	test('unknown uploadId, or one used with another key → 404 on every multipart route', async () => {
		const key = 'owned.bin';
		const uploadId = await startUpload(r.api, key);
		for (const [id, k] of [
			['0123456789abcdef0123456789abcdef', key],
			['not-an-id', key],
			['..%2F..%2Fetc', key],
			[uploadId, 'other.bin'],
		]) {
			const part = await r.api.uploadPart(id, k, 1, Buffer.from('x'));
			const complete = await r.api.complete(id, k, [{ PartNumber: 1, ETag: '"x"' }]);
			const cancel = await r.api.cancel(id, k);
			for (const res of [part, complete, cancel]) {
				expect(res.status).toBe(404);
				expect(res.json).toEqual({ error: 'Resource not found', message: expect.any(String) });
			}
		}
	});

	test('unknown bucket: 404, and on complete the seed\'s { message: "Bucket not found" }', async () => {
		const key = 'bucketless.bin';
		const uploadId = await startUpload(r.api, key);
		const target = `/api/v1/files/multipart/${uploadId}/complete?bucket_name=ghost&region=${region()}&key=${key}`;
		const res = await r.api.send('POST', target, Buffer.from(JSON.stringify({ parts: [] })), {
			'Content-Type': 'application/json',
		});
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ message: 'Bucket not found' });
		const start = await r.api.send('POST', `/api/v1/files/multipart/start?bucket_name=ghost&region=${region()}&key=a`);
		expect(start.status).toBe(404);
		expect(start.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
	});

	test('start validates its query', async () => {
		const res = await r.api.send('POST', '/api/v1/files/multipart/start?visibility=everyone&totalParts=0&key=%2Fabs');
		expect(res.status).toBe(400);
		expect(res.json.details.map((d: { field: string }) => d.field).sort()).toEqual([
			'bucket_name',
			'key',
			'region',
			'totalParts',
			'visibility',
		]);
	});
});
