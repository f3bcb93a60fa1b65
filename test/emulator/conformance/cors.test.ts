/**
 * CORS for browsers [ours] (spec §3.10): preflights for the API's and the CDN's routes, and the
 * Access-Control headers on every answer, errors included, so a page can read them.
 */
import { rawRequest } from './client';
import { sendAsBrowser, signOperation, type Signer } from './operation-urls';
import { startEmulator, type Running } from './setup';

const ORIGIN = 'https://app.example';

let r: Running;
let signer: Signer;
beforeAll(async () => {
	r = await startEmulator({ minPartSize: 1 });
	const { name, region } = r.emu.buckets[0];
	signer = { credentials: { accessKey: r.emu.accessKey, secretKey: r.emu.secretKey }, bucket: name, region };
});
afterAll(() => r.emu.stop());

function preflight(target: string, method: string, requestHeaders?: string) {
	return rawRequest(r.emu.url, {
		method: 'OPTIONS',
		target,
		headers: {
			Origin: ORIGIN,
			'Access-Control-Request-Method': method,
			...(requestHeaders ? { 'Access-Control-Request-Headers': requestHeaders } : {}),
		},
	});
}

describe('preflight', () => {
	const routes: Array<[string, string, string]> = [
		['PUT', '/api/v1/files/upload?bucket_name=b&region=r&key=k&visibility=public', 'upload'],
		['DELETE', '/api/v1/files/delete?key=k', 'delete'],
		['POST', '/api/v1/files/multipart/start?key=k', 'start-multipart'],
		['POST', '/api/v1/files/multipart/0123abcd', 'uploadpart (SDK path)'],
		['POST', '/api/v1/files/multipart/0123abcd/upload', 'part upload (reference path)'],
		['POST', '/api/v1/files/multipart/0123abcd/complete', 'completemultipart'],
		['DELETE', '/api/v1/files/multipart/0123abcd', 'cancelmultipart (SDK path)'],
		['GET', '/api/v1/files/list?bucket_name=b', 'list'],
		['GET', '/f/emulator/photos/cat.jpg', 'CDN'],
		['GET', '/f/emulator/tr-w_200,h_100/photos/cat.jpg', 'CDN with a transformation'],
	];
	test.each(routes)('%s %s (%s): 204 with origin, methods, headers', async (method, target) => {
		const res = await preflight(target, method, 'content-type');
		expect(res.status).toBe(204);
		expect(res.body.length).toBe(0);
		expect(res.headers['access-control-allow-origin']).toBe('*');
		expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(['GET', 'PUT', 'POST', 'DELETE']);
		const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
		expect(allowed).toEqual(expect.arrayContaining(['content-type', 'x-access-key', 'x-timestamp', 'x-signature']));
		expect(res.headers['access-control-max-age']).toBe('600');
	});

	test('is neither authenticated, faulted nor counted as the operation', async () => {
		r.emu.setFaults([{ operation: '*', status: 503 }]);
		r.emu.resetStats();
		try {
			expect((await preflight('/api/v1/files/upload?key=k', 'PUT')).status).toBe(204);
			expect(r.emu.stats().requests.upload).toBe(0);
		} finally {
			r.emu.setFaults([]);
		}
	});

	test('a method the path does not have, or a path that does not exist: no preflight answer', async () => {
		const wrongMethod = await preflight('/api/v1/files/upload', 'PATCH');
		expect(wrongMethod.status).toBe(404);
		expect(wrongMethod.headers['access-control-allow-methods']).toBeUndefined();
		expect((await preflight('/api/v1/files/nowhere', 'GET')).status).toBe(404);
	});

	test('OPTIONS without Access-Control-Request-Method is not a preflight: no route', async () => {
		const res = await rawRequest(r.emu.url, {
			method: 'OPTIONS',
			target: '/api/v1/files/upload',
			headers: { Origin: ORIGIN },
		});
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ error: 'Resource not found', message: 'No route for OPTIONS /api/v1/files/upload' });
	});

	test("an emulator answering only the reference family has no preflight for the SDK's paths", async () => {
		const only = await startEmulator({ paths: 'reference' });
		try {
			const res = await rawRequest(only.emu.url, {
				method: 'OPTIONS',
				target: '/api/v1/files/multipart/0123abcd',
				headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'DELETE' },
			});
			expect(res.status).toBe(404);
			expect(res.headers['access-control-allow-methods']).toBeUndefined();
		} finally {
			await only.emu.stop();
		}
	});
});

describe('actual requests', () => {
	test('a signed upload from a page: allowed origin and exposed headers on the answer', async () => {
		const op = signOperation(signer, 'upload', { key: 'cors/page.txt' });
		const res = await sendAsBrowser(r.emu.url, 'upload', op.method, op.target, { data: Buffer.from('hi') });
		expect(res.status).toBe(200);
		expect(res.headers['access-control-allow-origin']).toBe('*');
		const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
		expect(exposed).toEqual(expect.arrayContaining(['Date', 'X-Emulator-Auth-Reason', 'X-Emulator-Transformation']));
	});

	test('errors carry it too, so a page can read the 401 and 404 bodies', async () => {
		const op = signOperation(signer, 'delete', { key: 'cors/none.txt' });
		const missing = await sendAsBrowser(r.emu.url, 'delete', op.method, op.target);
		expect(missing.status).toBe(404);
		expect(missing.headers['access-control-allow-origin']).toBe('*');
		const refused = await sendAsBrowser(
			r.emu.url,
			'delete',
			op.method,
			op.target.replace('cors%2Fnone', 'cors%2Fother'),
		);
		expect(refused.status).toBe(401);
		expect(refused.headers['access-control-allow-origin']).toBe('*');
	});

	test('the CDN: a public file, and a 404', async () => {
		await r.api.upload('cors/pic.png', Buffer.from('png'), { visibility: 'public', contentType: 'image/png' });
		const headers = { Origin: ORIGIN };
		const file = await rawRequest(r.emu.url, { method: 'GET', target: `/f/${r.emu.accessId}/cors/pic.png`, headers });
		expect(file.status).toBe(200);
		expect(file.headers['access-control-allow-origin']).toBe('*');
		const none = await rawRequest(r.emu.url, { method: 'GET', target: `/f/${r.emu.accessId}/cors/none.png`, headers });
		expect(none.status).toBe(404);
		expect(none.headers['access-control-allow-origin']).toBe('*');
	});
});
