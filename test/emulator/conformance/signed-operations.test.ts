/**
 * Spec §3.10: signed operation URLs for browsers. Each of the six types is accepted with no
 * authentication headers, as the browser SDK sends it; any change to what was signed, a stale
 * or future timestamp, misplaced credentials, or a mix with header authentication is a 401.
 */
import { createHash } from 'node:crypto';

import { rawRequest, type Response } from './client';
import {
	sendAsBrowser,
	signOperation,
	withCredentials,
	type OperationParams,
	type OperationType,
	type Signer,
} from './operation-urls';
import { startEmulator, type Running } from './setup';

let r: Running;
let clock = Date.parse('2031-05-06T07:08:09.010Z');
let signer: Signer;
beforeAll(async () => {
	r = await startEmulator({ now: () => clock, minPartSize: 8 });
	const { name, region } = r.emu.buckets[0];
	signer = {
		credentials: { accessKey: r.emu.accessKey, secretKey: r.emu.secretKey },
		bucket: name,
		region,
		now: () => clock,
	};
});
afterAll(() => r.emu.stop());

function expectRefused(res: Response, reason: RegExp): void {
	expect({ status: res.status, body: res.json }).toEqual({
		status: 401,
		body: { error: 'Invalid authentication credentials' },
	});
	expect(String(res.headers['x-emulator-auth-reason'])).toMatch(reason);
}

/** Signs `type` for `p` and sends it as the browser SDK does. */
async function viaUrl(type: OperationType, p: OperationParams, send: Parameters<typeof sendAsBrowser>[4] = {}) {
	const op = signOperation(signer, type, p);
	return sendAsBrowser(r.emu.url, type, op.method, op.target, send);
}

async function startVia(key: string, totalParts = 2): Promise<string> {
	const res = await viaUrl('start-multipart', { key, totalParts, mimeType: 'video/mp4' }, { filename: key });
	expect(res.status).toBe(200);
	return res.json.data.uploadId;
}

describe('each of the six types, with no authentication headers', () => {
	test('upload: PUT form field `file`, stored with the form part type and the signed visibility', async () => {
		const data = Buffer.from('browser bytes');
		const res = await viaUrl(
			'upload',
			{ key: 'web/a b+c.txt', visibility: 'public' },
			{ data, contentType: 'text/plain' },
		);
		expect(res.status).toBe(200);
		expect(res.json.data).toMatchObject({ key: 'web/a b+c.txt', visibility: 'public', size: data.length });
		const stored = await r.emu.readObject(signer.bucket, signer.region, 'web/a b+c.txt');
		expect(stored?.body).toEqual(data);
		expect(stored?.contentType).toBe('text/plain');
	});

	test('start-multipart (JSON body as the SDK sends), uploadpart ×2 on the SDK path, completemultipart', async () => {
		const key = 'web/movie.mp4';
		const uploadId = await startVia(key);
		const chunks = [Buffer.alloc(16, 1), Buffer.from('tail')];
		const parts = [];
		for (const [i, data] of chunks.entries()) {
			const p = { key, uploadId, partNumber: i + 1, totalParts: 2 };
			const res = await viaUrl('uploadpart', p, { data, filename: key, contentType: 'application/octet-stream' });
			expect(res.status).toBe(200);
			const md5 = createHash('md5').update(data).digest('hex');
			expect(res.json.data).toEqual({ partNumber: i + 1, ETag: `"${md5}"` });
			parts.push({ ETag: res.json.data.ETag, PartNumber: res.json.data.partNumber });
		}
		const done = await viaUrl('completemultipart', { key, uploadId }, { parts });
		expect(done.status).toBe(200);
		expect(done.json.data).toMatchObject({ key, size: 20, content_type: 'video/mp4', visibility: 'public' });
		expect((await r.emu.readObject(signer.bucket, signer.region, key))?.body).toEqual(Buffer.concat(chunks));
	});

	test('cancelmultipart: DELETE on the SDK path', async () => {
		const uploadId = await startVia('web/cancel.bin');
		const res = await viaUrl('cancelmultipart', { key: 'web/cancel.bin', uploadId });
		expect(res.status).toBe(200);
		expect(res.json.data.message).toBe('Multipart upload cancelled successfully');
		expect(r.emu.listOpenUploads().map((u) => u.uploadId)).not.toContain(uploadId);
	});

	test('delete: DELETE with no body', async () => {
		await viaUrl('upload', { key: 'web/gone.txt' }, { data: Buffer.from('x') });
		const res = await viaUrl('delete', { key: 'web/gone.txt' });
		expect(res.status).toBe(200);
		expect(await r.emu.readObject(signer.bucket, signer.region, 'web/gone.txt')).toBeUndefined();
	});

	test('a URL stays good for the whole clock tolerance (±300 s), the boundary included', async () => {
		const op = signOperation({ ...signer, now: () => clock - 300_000 }, 'delete', { key: 'web/never-there' });
		// Authenticated (the file is missing: 404), not refused.
		expect((await sendAsBrowser(r.emu.url, 'delete', op.method, op.target)).status).toBe(404);
		const ahead = signOperation({ ...signer, now: () => clock + 300_000 }, 'delete', { key: 'web/never-there' });
		expect((await sendAsBrowser(r.emu.url, 'delete', ahead.method, ahead.target)).status).toBe(404);
	});
});

describe('refused with 401 and the spec body', () => {
	test('a tampered query: another key in place of the signed one', async () => {
		const op = signOperation(signer, 'delete', { key: 'web/mine.txt' });
		const target = op.target.replace('key=web%2Fmine.txt', 'key=web%2Fyours.txt');
		expect(target).not.toBe(op.target);
		expectRefused(await sendAsBrowser(r.emu.url, 'delete', 'DELETE', target), /signature does not match/);
	});

	test("a signature and timestamp moved onto another key's URL", async () => {
		const mine = signOperation(signer, 'upload', { key: 'web/mine.txt' });
		const other = signOperation(signer, 'upload', { key: 'web/other.txt' });
		const target = withCredentials(other.signedTarget, mine);
		expectRefused(
			await sendAsBrowser(r.emu.url, 'upload', 'PUT', target, { data: Buffer.from('x') }),
			/signature does not match/,
		);
	});

	test('a tampered path: a cancel URL sent to another upload', async () => {
		const a = await startVia('web/p1.bin');
		const b = await startVia('web/p2.bin');
		const op = signOperation(signer, 'cancelmultipart', { key: 'web/p1.bin', uploadId: a });
		expectRefused(
			await sendAsBrowser(r.emu.url, 'cancelmultipart', 'DELETE', op.target.replace(a, b)),
			/signature does not match/,
		);
	});

	test('another method on the same path: the cancel URL (DELETE) sent as a part upload (POST)', async () => {
		const uploadId = await startVia('web/m.bin');
		const op = signOperation(signer, 'cancelmultipart', { key: 'web/m.bin', uploadId });
		const res = await sendAsBrowser(r.emu.url, 'uploadpart', 'POST', op.target, { data: Buffer.from('x') });
		expectRefused(res, /signature does not match/);
		expect(String(res.headers['x-emulator-string-to-sign'])).toMatch(/^POST\\n\/api\/v1\/files\/multipart\//);
	});

	test('the signed part re-encoded (same meaning, other bytes): the raw target is what is verified', async () => {
		const op = signOperation(signer, 'delete', { key: 'web/sub/x.txt' });
		const target = op.target.replace('key=web%2Fsub%2Fx.txt', 'key=web/sub/x.txt');
		expect(target).not.toBe(op.target);
		expectRefused(await sendAsBrowser(r.emu.url, 'delete', 'DELETE', target), /signature does not match/);
	});

	test('a timestamp past the tolerance, either way', async () => {
		for (const skew of [-301_000, 301_000]) {
			const op = signOperation({ ...signer, now: () => clock + skew }, 'delete', { key: 'web/t.txt' });
			expectRefused(await sendAsBrowser(r.emu.url, 'delete', 'DELETE', op.target), /outside the allowed window/);
		}
	});

	test('another access key', async () => {
		const op = signOperation(
			{ ...signer, credentials: { ...signer.credentials, accessKey: 'someone-else' } },
			'delete',
			{
				key: 'web/k.txt',
			},
		);
		expectRefused(await sendAsBrowser(r.emu.url, 'delete', 'DELETE', op.target), /unknown access key/);
	});

	test('the three not last, out of order, or one missing', async () => {
		const op = signOperation(signer, 'upload', { key: 'web/o.txt', visibility: 'private' });
		const [path, query] = op.target.split('?');
		const pairs = query.split('&');
		const [access, signature, timestamp] = pairs.slice(-3);
		const rest = pairs.slice(0, -3);
		const variants = [
			[...rest.slice(0, -1), access, signature, timestamp, rest[rest.length - 1]], // visibility after them
			[...rest, access, timestamp, signature], // out of order
			[...rest, signature, timestamp], // access_key missing
			[...rest, access, signature, timestamp, access], // access_key twice
		];
		for (const v of variants) {
			const res = await sendAsBrowser(r.emu.url, 'upload', 'PUT', `${path}?${v.join('&')}`, { data: Buffer.from('x') });
			expectRefused(res, /must be the last three query parameters/);
		}
	});

	test('header authentication and query authentication together', async () => {
		const op = signOperation(signer, 'delete', { key: 'web/h.txt' });
		const res = await rawRequest(r.emu.url, {
			method: 'DELETE',
			target: op.target,
			headers: { 'X-Access-Key': op.accessKey, 'X-Timestamp': op.timestamp, 'X-Signature': op.signature },
		});
		expectRefused(res, /use one/);
	});

	test('a refused URL did nothing', async () => {
		const op = signOperation(signer, 'upload', { key: 'web/nothing.txt' });
		const target = op.target.replace('visibility=public', 'visibility=private');
		await sendAsBrowser(r.emu.url, 'upload', 'PUT', target, { data: Buffer.from('x') });
		expect(await r.emu.readObject(signer.bucket, signer.region, 'web/nothing.txt')).toBeUndefined();
	});
});
