/**
 * Spec §3.11, CDN transformations: `/f/<access id>/<transformation>/<key>`. The emulator serves
 * the original bytes and names the transformation in X-Emulator-Transformation [ours].
 */
import { rawRequest, type Response } from './client';
import { startEmulator, type Running } from './setup';

let r: Running;
const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);

beforeAll(async () => {
	r = await startEmulator();
	await r.api.upload('photos/cat.png', image, { visibility: 'public', contentType: 'image/png' });
	await r.api.upload('tr-notes/read me.txt', Buffer.from('notes'), { visibility: 'public', contentType: 'text/plain' });
	await r.api.upload('tr-w_200', Buffer.from('odd key'), { visibility: 'public', contentType: 'text/plain' });
	await r.api.upload('tr-w_300/shadowed.txt', Buffer.from('shadowed'), { visibility: 'public' });
	await r.api.upload('private/scan.png', image, { contentType: 'image/png' });
});
afterAll(() => r.emu.stop());

function cdn(path: string, method = 'GET', checkContract = true): Promise<Response> {
	return rawRequest(r.emu.url, { method, target: `/f/${r.emu.accessId}/${path}`, checkContract });
}

describe('a transformation segment before the key', () => {
	test.each([
		['tr-w_200,h_100', 'tr-w_200,h_100'],
		['tr-w_200,h_100+g_face,c_crop', 'tr-w_200,h_100+g_face,c_crop'],
		['thumb-w_300,h_200', 'thumb-w_300,h_200'],
		['thumb-so_5.0', 'thumb-so_5.0'],
		['tr-f_auto,q_auto:best,dpr_2.0', 'tr-f_auto,q_auto:best,dpr_2.0'],
		[
			'tr-l_text:Hello:l_size_20,e_grayscale,blur_5,bo_2_solid_ff0000',
			'tr-l_text:Hello:l_size_20,e_grayscale,blur_5,bo_2_solid_ff0000',
		],
		// Percent-encoded as encodeURIComponent writes it: the same transformation.
		['tr-w_200%2Ch_100%2Bg_face', 'tr-w_200,h_100+g_face'],
	])('%s: the original bytes and type, the transformation named', async (segment, named) => {
		const res = await cdn(`${segment}/photos/cat.png`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual(image);
		expect(res.headers['content-type']).toBe('image/png');
		expect(res.headers['x-emulator-transformation']).toBe(named);
	});

	test('HEAD names it too; the plain location names none', async () => {
		const head = await cdn('tr-w_50/photos/cat.png', 'HEAD');
		expect(head.status).toBe(200);
		expect(head.headers['x-emulator-transformation']).toBe('tr-w_50');
		const plain = await cdn('photos/cat.png');
		expect(plain.status).toBe(200);
		expect(plain.headers['x-emulator-transformation']).toBeUndefined();
	});

	test('a missing key behind a transformation is a 404', async () => {
		expect((await cdn('tr-w_200/photos/dog.png')).status).toBe(404);
	});

	test('an unknown parameter name is a 400 naming it', async () => {
		const res = await cdn('tr-w_200,zz_9+size_3/photos/cat.png', 'GET', false);
		expect(res.status).toBe(400);
		expect(res.json.error).toBe('Validation failed');
		expect(res.json.details).toHaveLength(1);
		expect(res.json.details[0].field).toBe('transformation');
		expect(res.json.details[0].message).toMatch(
			/^Unknown transformation parameters "zz", "size" in "tr-w_200,zz_9\+size_3"/,
		);
	});
});

describe('keys whose first segment starts with tr- or thumb-', () => {
	test('a segment without the shape of a transformation is part of the key', async () => {
		const res = await cdn('tr-notes/read%20me.txt');
		expect(res.status).toBe(200);
		expect(res.body.toString()).toBe('notes');
		expect(res.headers['x-emulator-transformation']).toBeUndefined();
	});

	test('the last segment is always the key, whatever it looks like', async () => {
		const res = await cdn('tr-w_200');
		expect(res.status).toBe(200);
		expect(res.body.toString()).toBe('odd key');
	});

	test('a first segment with the shape of a transformation is one: such a key is not reachable at its location', async () => {
		// The key `tr-w_300/shadowed.txt` exists, but its location reads as `shadowed.txt` behind `tr-w_300`.
		const res = await cdn('tr-w_300/shadowed.txt');
		expect(res.status).toBe(404);
	});
});

describe('private files', () => {
	test('a transformation is refused (403) even with a valid signed link; the plain signed link works', async () => {
		const signed = await r.api.signedUrl('private/scan.png');
		expect(signed.status).toBe(200);
		const url = new URL(signed.json.data.url);
		const plain = await rawRequest(r.emu.url, { method: 'GET', target: `${url.pathname}${url.search}` });
		expect(plain.status).toBe(200);
		const withTr = url.pathname.replace(`/f/${r.emu.accessId}/`, `/f/${r.emu.accessId}/tr-w_100/`);
		const res = await rawRequest(r.emu.url, { method: 'GET', target: `${withTr}${url.search}` });
		expect(res.status).toBe(403);
		expect(res.json).toEqual({
			error: 'Forbidden',
			message: 'Transformations are served for public files only; a private file is served as stored',
		});
	});
});
