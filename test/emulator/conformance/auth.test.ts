/** Spec §1: signing, both test vectors, tampering and clock skew. */
import { authHeaders, formBody, rawRequest, sign } from './client';
import { startEmulator, type Running } from './setup';

const SECRET = 's3cr3t-signing-key';
const TS = '2026-01-02T03:04:05.678Z';
const T0 = Date.parse(TS);
const VECTOR_LIST =
	'/api/v1/files/list?bucket_name=my-bucket&region=us-east-1&prefix=photos%2F2026+summer%2F&page=2&limit=50';
const VECTOR_UPLOAD =
	'/api/v1/files/upload?bucket_name=my-bucket&region=us-east-1&visibility=private&key=reports%2FQ1+r%C3%A9sum%C3%A9%2Bfinal.pdf';
const SIG_LIST = 'fc9c056f30533a91dc2b8d5e3b64bedebbef8f9b7081660e101bc541dbbc04ba';
const SIG_UPLOAD = 'b946c5bda2f827c4e2c7ecb7db532aceb14d5cb11540dc0d094cf8e46094bfaf';
const AUTH_ERROR = { error: 'Invalid authentication credentials' };

describe('signature test vectors (spec §1)', () => {
	test('the client signer reproduces both vectors', () => {
		expect(sign(SECRET, 'GET', VECTOR_LIST, TS)).toBe(SIG_LIST);
		expect(sign(SECRET, 'PUT', VECTOR_UPLOAD, TS)).toBe(SIG_UPLOAD);
	});

	test('URLSearchParams in the SDK order yields the vector targets', () => {
		const list = new URLSearchParams({
			bucket_name: 'my-bucket',
			region: 'us-east-1',
			prefix: 'photos/2026 summer/',
			page: '2',
			limit: '50',
		});
		expect(`/api/v1/files/list?${list}`).toBe(VECTOR_LIST);
		const upload = new URLSearchParams({
			bucket_name: 'my-bucket',
			region: 'us-east-1',
			visibility: 'private',
			key: 'reports/Q1 résumé+final.pdf',
		});
		expect(`/api/v1/files/upload?${upload}`).toBe(VECTOR_UPLOAD);
	});

	describe('the emulator accepts the vectors verbatim', () => {
		let r: Running;
		beforeAll(async () => {
			r = await startEmulator({ secretKey: SECRET, now: () => T0 + 1234 });
		});
		afterAll(() => r.emu.stop());

		const vectorHeaders = (signature: string) => ({
			'X-Access-Key': r.emu.accessKey,
			'X-Timestamp': TS,
			'X-Signature': signature,
		});

		test('GET list vector', async () => {
			const res = await rawRequest(r.emu.url, { method: 'GET', target: VECTOR_LIST, headers: vectorHeaders(SIG_LIST) });
			expect(res.status).toBe(200);
			expect(res.json.data.contents).toMatchObject({ name: '2026 summer', path: 'photos/2026 summer/' });
			expect(res.json.data.pagination).toEqual({ current_page: 2, total_pages: 1, total_items: 0, items_per_page: 50 });
		});

		test('PUT upload vector, key decoded with + as space and %2B as +', async () => {
			const form = formBody([
				{
					name: 'file',
					filename: 'reports/Q1 résumé+final.pdf',
					contentType: 'application/pdf',
					data: Buffer.from('%PDF-1.7'),
				},
			]);
			const res = await rawRequest(r.emu.url, {
				method: 'PUT',
				target: VECTOR_UPLOAD,
				body: form.body,
				headers: { ...vectorHeaders(SIG_UPLOAD), 'Content-Type': form.contentType },
			});
			expect(res.status).toBe(200);
			expect(res.json.data.key).toBe('reports/Q1 résumé+final.pdf');
			expect(res.json.data.visibility).toBe('private');
		});
	});
});

describe('tampering and credentials → 401 with the spec body', () => {
	let r: Running;
	let clock = Date.now();
	beforeAll(async () => {
		r = await startEmulator({ now: () => clock });
	});
	afterAll(() => r.emu.stop());
	beforeEach(() => {
		clock = Date.now();
	});

	const creds = () => ({ accessKey: r.emu.accessKey, secretKey: r.emu.secretKey });
	const target = () => r.api.listTarget({ prefix: 'photos/2026 summer/', page: 1, limit: 5 });
	async function expect401(method: string, sent: string, headers: Record<string, string>, reason?: RegExp) {
		const res = await rawRequest(r.emu.url, { method, target: sent, headers });
		expect(res.status).toBe(401);
		expect(res.json).toEqual(AUTH_ERROR);
		if (reason) expect(String(res.headers['x-emulator-auth-reason'])).toMatch(reason);
		return res;
	}

	test('a correctly signed request passes', async () => {
		const res = await rawRequest(r.emu.url, {
			method: 'GET',
			target: target(),
			headers: authHeaders(creds(), 'GET', target()),
		});
		expect(res.status).toBe(200);
	});

	test('method tampered', async () => {
		const t = r.api.uploadTarget('a.txt');
		const form = formBody([{ name: 'file', filename: 'a.txt', data: Buffer.from('x') }]);
		const res = await rawRequest(r.emu.url, {
			method: 'PUT',
			target: t,
			body: form.body,
			headers: { ...authHeaders(creds(), 'PUT', t, { signMethod: 'POST' }), 'Content-Type': form.contentType },
		});
		expect(res.status).toBe(401);
		expect(res.json).toEqual(AUTH_ERROR);
	});

	test('path tampered', async () => {
		const sent = target();
		const signedFor = sent.replace('/api/v1/files/list', '/api/v1/files/signed-url');
		await expect401(
			'GET',
			sent,
			authHeaders(creds(), 'GET', sent, { signTarget: signedFor }),
			/signature does not match/,
		);
	});

	test('every single query byte tampered', async () => {
		const sent = target();
		const q = sent.indexOf('?');
		const headers = authHeaders(creds(), 'GET', sent);
		const tampered: string[] = [];
		for (let i = q + 1; i < sent.length; i++) {
			const c = sent[i];
			const replacement =
				c === 'a'
					? 'b'
					: /[0-9]/.test(c)
						? String((Number(c) + 1) % 10)
						: /[A-Za-z]/.test(c)
							? 'a'
							: c === '+'
								? '%20'
								: 'x';
			tampered.push(sent.slice(0, i) + replacement + sent.slice(i + 1));
		}
		// Re-ordered and re-encoded (equivalent!) copies are tampering too: only the raw target counts.
		tampered.push(
			`/api/v1/files/list?region=${r.emu.buckets[0].region}&bucket_name=${r.emu.buckets[0].name}&prefix=photos%2F2026+summer%2F&page=1&limit=5`,
		);
		tampered.push(sent.replace('+', '%20'));
		tampered.push(sent.replace(/%2F/g, '%2f'));
		tampered.push(`${sent}&`);
		for (const t of tampered) {
			const res = await rawRequest(r.emu.url, { method: 'GET', target: t, headers });
			expect({ t, status: res.status }).toEqual({ t, status: 401 });
		}
	});

	test('a client may encode differently if it signs what it sends', async () => {
		const sent = `/api/v1/files/list?bucket_name=${r.emu.buckets[0].name}&region=${r.emu.buckets[0].region}&prefix=photos%2f2026%20summer%2f`;
		const res = await rawRequest(r.emu.url, {
			method: 'GET',
			target: sent,
			headers: authHeaders(creds(), 'GET', sent),
		});
		expect(res.status).toBe(200);
		expect(res.json.data.contents.path).toBe('photos/2026 summer/');
	});

	test('timestamp header changed after signing', async () => {
		const sent = target();
		const signedAt = new Date(clock).toISOString();
		const sentAt = new Date(clock + 1000).toISOString();
		await expect401(
			'GET',
			sent,
			authHeaders(creds(), 'GET', sent, { timestamp: sentAt, signTimestamp: signedAt }),
			/signature/,
		);
	});

	test('wrong access key, wrong secret, malformed signature, missing headers', async () => {
		const sent = target();
		await expect401(
			'GET',
			sent,
			authHeaders({ accessKey: 'someone-else', secretKey: r.emu.secretKey }, 'GET', sent),
			/access key/,
		);
		await expect401(
			'GET',
			sent,
			authHeaders({ accessKey: r.emu.accessKey, secretKey: 'wrong-secret' }, 'GET', sent),
			/signature/,
		);
		const good = authHeaders(creds(), 'GET', sent);
		await expect401('GET', sent, { ...good, 'X-Signature': good['X-Signature'].toUpperCase() }, /hex/);
		await expect401('GET', sent, { ...good, 'X-Signature': good['X-Signature'].slice(0, 63) });
		for (const omit of ['X-Access-Key', 'X-Timestamp', 'X-Signature'] as const) {
			await expect401('GET', sent, authHeaders(creds(), 'GET', sent, { omit: [omit] }), new RegExp(`missing ${omit}`));
		}
	});

	test('timestamps that are not toISOString() output', async () => {
		const sent = target();
		const d = new Date(clock);
		for (const ts of [
			d.toISOString().replace(/\.\d{3}Z$/, 'Z'),
			d.toUTCString(),
			String(clock),
			d.toISOString().replace('Z', '+00:00'),
			'2026-02-30T00:00:00.000Z',
		]) {
			await expect401('GET', sent, authHeaders(creds(), 'GET', sent, { timestamp: ts }), /ISO 8601/);
		}
	});

	test('skew: inside ±300 s passes, outside fails, both directions', async () => {
		const sent = target();
		const at = (offsetMs: number) =>
			authHeaders(creds(), 'GET', sent, { timestamp: new Date(clock + offsetMs).toISOString() });
		for (const offset of [-299_000, 299_000, 300_000, -300_000]) {
			const res = await rawRequest(r.emu.url, { method: 'GET', target: sent, headers: at(offset) });
			expect({ offset, status: res.status }).toEqual({ offset, status: 200 });
		}
		for (const offset of [-300_001, 300_001, -3_600_000, 86_400_000]) {
			await expect401('GET', sent, at(offset), /timestamp outside the allowed window/);
		}
	});

	test("answers carry the emulator's own clock in the Date header", async () => {
		const sent = target();
		const res = await rawRequest(r.emu.url, {
			method: 'GET',
			target: sent,
			headers: authHeaders(creds(), 'GET', sent, { timestamp: new Date(clock).toISOString() }),
		});
		expect(Date.parse(String(res.headers.date))).toBe(Math.floor(clock / 1000) * 1000);
	});

	test('auth failures are counted', async () => {
		r.emu.resetStats();
		const sent = target();
		await expect401('GET', sent, authHeaders(creds(), 'GET', sent, { signature: '0'.repeat(64) }));
		expect(r.emu.stats().authFailures).toBe(1);
		expect(r.emu.stats().responses['401']).toBe(1);
	});
});

describe('configurable clock tolerance', () => {
	let r: Running;
	const now = Date.parse('2030-06-01T12:00:00.000Z');
	beforeAll(async () => {
		r = await startEmulator({ clockToleranceSeconds: 10, now: () => now });
	});
	afterAll(() => r.emu.stop());

	test('±10 s window', async () => {
		const creds = { accessKey: r.emu.accessKey, secretKey: r.emu.secretKey };
		const t = r.api.listTarget();
		const send = (offset: number) =>
			rawRequest(r.emu.url, {
				method: 'GET',
				target: t,
				headers: authHeaders(creds, 'GET', t, { timestamp: new Date(now + offset).toISOString() }),
			});
		expect((await send(-10_000)).status).toBe(200);
		expect((await send(10_001)).status).toBe(401);
		expect((await send(-11_000)).status).toBe(401);
	});
});
