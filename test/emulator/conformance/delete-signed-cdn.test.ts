/** Spec §3.7–§3.9: delete, signed URLs (valid, expired, tampered), CDN bytes and types. */
import { createHmac } from 'node:crypto';

import { ApiClient, rawRequest } from './client';
import { startEmulator, type Running } from './setup';

let r: Running;
let clock = Date.parse('2031-03-04T05:06:07.089Z');
beforeAll(async () => {
	r = await startEmulator({
		now: () => clock,
		buckets: [
			{ name: 'main', region: 'eu-central-1' },
			{ name: 'second', region: 'ap-south-1' },
		],
	});
});
afterAll(() => r.emu.stop());

describe('delete', () => {
	test('deletes, then 404', async () => {
		await r.api.upload('trash/file.txt', Buffer.from('bye'), { visibility: 'public' });
		const res = await r.api.delete('trash/file.txt');
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ data: { message: 'File and all transformations deleted successfully' } });
		expect((await r.api.list({ prefix: 'trash/' })).json.data.contents.children).toEqual([]);
		expect((await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/trash/file.txt`)).status).toBe(404);
		const again = await r.api.delete('trash/file.txt');
		expect(again.status).toBe(404);
		expect(again.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
	});

	test('a folder is not a file', async () => {
		await r.api.upload('folder/inside.txt', Buffer.from('x'));
		expect((await r.api.delete('folder/')).status).toBe(404);
		expect((await r.api.delete('folder')).status).toBe(404);
	});

	test('validation and unknown bucket', async () => {
		const missing = await r.api.send('DELETE', '/api/v1/files/delete?bucket_name=main&region=eu-central-1');
		expect(missing.status).toBe(400);
		expect(missing.json.details).toEqual([{ field: 'key', message: 'Key is required' }]);
		const ghost = await r.api.send('DELETE', '/api/v1/files/delete?bucket_name=ghost&region=eu-central-1&key=a');
		expect(ghost.status).toBe(404);
	});
});

describe('signed URL and CDN', () => {
	const privateKey = 'secret/report 2031 #1.pdf';
	const publicKey = 'public/logo+mark.png';
	const privateData = Buffer.from('%PDF-1.7 private bytes');
	const publicData = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);

	beforeAll(async () => {
		await r.api.upload(privateKey, privateData, { contentType: 'application/pdf' });
		await r.api.upload(publicKey, publicData, { contentType: 'image/png', visibility: 'public' });
	});

	test('public file: the plain location, no expiry', async () => {
		const res = await r.api.signedUrl(publicKey);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			data: { url: `${r.emu.cdnUrl}/f/${r.emu.accessId}/public/logo%2Bmark.png`, is_public: true },
		});
		const cdn = await r.api.fetchUrl(res.json.data.url);
		expect(cdn.status).toBe(200);
		expect(cdn.headers['content-type']).toBe('image/png');
		expect(Number(cdn.headers['content-length'])).toBe(publicData.length);
		expect(cdn.body.equals(publicData)).toBe(true);
	});

	test('HEAD on the CDN', async () => {
		const res = await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/public/logo%2Bmark.png`, 'HEAD');
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('image/png');
		expect(res.body.length).toBe(0);
	});

	test('private file: a signed URL with the documented shape serves the bytes', async () => {
		const res = await r.api.signedUrl(privateKey);
		expect(res.status).toBe(200);
		const location = `${r.emu.cdnUrl}/f/${r.emu.accessId}/secret/${encodeURIComponent('report 2031 #1.pdf')}`;
		expect(res.json.data).toEqual({
			url: expect.stringMatching(/\?expires=\d+&signature=[0-9a-f]{64}$/),
			expires_in: 3600,
			is_public: false,
		});
		const url = new URL(res.json.data.url);
		expect(res.json.data.url.startsWith(`${location}?`)).toBe(true);
		const expires = Number(url.searchParams.get('expires'));
		expect(expires).toBe(Math.floor(clock / 1000) + 3600);
		// [ours] The signature is HMAC-SHA256(secret, "GET\n<path>\n<expires>").
		const expected = createHmac('sha256', r.emu.secretKey).update(`GET\n${url.pathname}\n${expires}`).digest('hex');
		expect(url.searchParams.get('signature')).toBe(expected);

		const cdn = await r.api.fetchUrl(res.json.data.url);
		expect(cdn.status).toBe(200);
		expect(cdn.headers['content-type']).toBe('application/pdf');
		expect(cdn.body.equals(privateData)).toBe(true);
	});

	test('private file without a signature → 403', async () => {
		const res = await r.api.fetchUrl(
			`${r.emu.cdnUrl}/f/${r.emu.accessId}/secret/${encodeURIComponent('report 2031 #1.pdf')}`,
		);
		expect(res.status).toBe(403);
		expect(res.json).toEqual({ error: 'Forbidden', message: expect.any(String) });
	});

	test('tampered signature, expiry or key → 403', async () => {
		await r.api.upload('secret/other.pdf', Buffer.from('other'));
		const url = (await r.api.signedUrl(privateKey)).json.data.url as string;
		const sig = url.slice(-64);
		const flipped = url.slice(0, -1) + (url.endsWith('0') ? '1' : '0');
		const laterExpiry = url.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 1}`);
		const otherKey = url.replace(encodeURIComponent('report 2031 #1.pdf'), 'other.pdf');
		for (const bad of [
			flipped,
			laterExpiry,
			otherKey,
			url.replace(sig, sig.toUpperCase()),
			url.replace(/&signature=.*$/, ''),
		]) {
			const res = await r.api.fetchUrl(bad);
			expect({ bad, status: res.status }).toEqual({ bad, status: 403 });
		}
	});

	test('expired → 403; expiresIn is honoured', async () => {
		const res = await r.api.signedUrl(privateKey, 60);
		expect(res.json.data.expires_in).toBe(60);
		const { url } = res.json.data;
		clock += 60_000;
		expect((await r.api.fetchUrl(url)).status).toBe(200);
		clock += 1_000;
		const expired = await r.api.fetchUrl(url);
		expect(expired.status).toBe(403);
		expect(expired.json.message).toMatch(/expired/);
	});

	test('expiresIn outside 1..604800 → 400; missing key → 404', async () => {
		for (const bad of [0, -5, 604_801, 'soon']) {
			const res = await r.api.signedUrl(privateKey, bad);
			expect(res.status).toBe(400);
			expect(res.json.details[0].field).toBe('expiresIn');
		}
		expect((await r.api.signedUrl(privateKey, 604_800)).status).toBe(200);
		const missing = await r.api.signedUrl('secret/nope.pdf');
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({ error: 'Resource not found', message: 'Bucket or file not found' });
	});

	test('CDN: missing key and wrong access id → 404', async () => {
		expect((await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/public/nope.png`)).status).toBe(404);
		expect((await r.api.fetchUrl(`${r.emu.cdnUrl}/f/someone-else/public/logo%2Bmark.png`)).status).toBe(404);
		expect((await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
		expect((await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/%E0%A4%A`)).status).toBe(404);
	});

	test('CDN: an equivalent percent-encoding of the same key is the same file', async () => {
		const res = await r.api.fetchUrl(`${r.emu.cdnUrl}/f/${r.emu.accessId}/%70ublic/logo%2bmark.png`);
		expect(res.status).toBe(200);
		expect(res.body.equals(publicData)).toBe(true);
	});

	test('a second bucket works the same, CDN included', async () => {
		const second = new ApiClient({ ...r.api.o, bucket: 'second', region: 'ap-south-1' });
		const res = await second.upload('only-in-second.txt', Buffer.from('2nd'), {
			visibility: 'public',
			contentType: 'text/plain',
		});
		expect(res.json.data).toMatchObject({ bucket: 'second', region: 'ap-south-1' });
		expect((await r.api.fetchUrl(res.json.data.location)).body.toString()).toBe('2nd');
		expect(
			(await r.api.list()).json.data.contents.children.some((c: { path: string }) => c.path === 'only-in-second.txt'),
		).toBe(false);
	});

	test('the CDN needs no API credentials', async () => {
		const res = await rawRequest(r.emu.url, {
			method: 'GET',
			target: `/f/${r.emu.accessId}/public/logo%2Bmark.png`,
			headers: { 'X-Signature': 'garbage' },
		});
		expect(res.status).toBe(200);
	});
});
