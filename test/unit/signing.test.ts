import { createHmac } from 'node:crypto';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { FileStorageApi } from '../../credentials/FileStorageApi.credentials';
import {
	buildTarget,
	checkBaseUrl,
	computeSignature,
	encodeQuery,
	querySignedTarget,
} from '../../nodes/FileStorage/transport/signing';

// The spec's published vectors: secret, timestamp, and expected signatures.
const SECRET = 's3cr3t-signing-key';
const TIMESTAMP = '2026-01-02T03:04:05.678Z';
const LIST_TARGET =
	'/api/v1/files/list?bucket_name=my-bucket&region=us-east-1&prefix=photos%2F2026+summer%2F&page=2&limit=50';
const LIST_SIGNATURE = 'fc9c056f30533a91dc2b8d5e3b64bedebbef8f9b7081660e101bc541dbbc04ba';
const UPLOAD_TARGET =
	'/api/v1/files/upload?bucket_name=my-bucket&region=us-east-1&visibility=private&key=reports%2FQ1+r%C3%A9sum%C3%A9%2Bfinal.pdf';
const UPLOAD_SIGNATURE = 'b946c5bda2f827c4e2c7ecb7db532aceb14d5cb11540dc0d094cf8e46094bfaf';

const credentials = { accessKey: 'AK-test', secretKey: SECRET, baseUrl: 'https://api.example.test' };

function header(options: IHttpRequestOptions, name: string): string {
	return String((options.headers ?? {})[name]);
}

describe('signature vectors of the spec', () => {
	it('pure signer reproduces both vectors', () => {
		expect(computeSignature(SECRET, 'GET', LIST_TARGET, TIMESTAMP)).toBe(LIST_SIGNATURE);
		expect(computeSignature(SECRET, 'put', UPLOAD_TARGET, TIMESTAMP)).toBe(UPLOAD_SIGNATURE);
	});

	it('query encoding matches the service SDK (URLSearchParams, spec order)', () => {
		expect(
			buildTarget('/api/v1/files/list', [
				['bucket_name', 'my-bucket'],
				['region', 'us-east-1'],
				['prefix', 'photos/2026 summer/'],
				['page', 2],
				['limit', 50],
			]),
		).toBe(LIST_TARGET);
		expect(
			encodeQuery([
				['a', undefined],
				['b', null],
				['c', ''],
			]),
		).toBe('c=');
	});

	describe('through the credential authenticate()', () => {
		beforeEach(() => jest.useFakeTimers({ now: new Date(TIMESTAMP), doNotFake: ['nextTick', 'setImmediate'] }));
		afterEach(() => jest.useRealTimers());

		it('signs the list vector from a relative url with qs, and folds qs into the url', async () => {
			const signed = await new FileStorageApi().authenticate(credentials, {
				method: 'GET',
				url: '/api/v1/files/list',
				qs: { bucket_name: 'my-bucket', region: 'us-east-1', prefix: 'photos/2026 summer/', page: 2, limit: 50 },
			});
			expect(signed.url).toBe(`https://api.example.test${LIST_TARGET}`);
			expect(signed.qs).toBeUndefined();
			expect(signed.baseURL).toBeUndefined();
			expect(header(signed, 'X-Timestamp')).toBe(TIMESTAMP);
			expect(header(signed, 'X-Access-Key')).toBe('AK-test');
			expect(header(signed, 'X-Signature')).toBe(LIST_SIGNATURE);
		});

		it('signs the upload vector from an absolute, already encoded url', async () => {
			const signed = await new FileStorageApi().authenticate(credentials, {
				method: 'PUT',
				url: `https://api.example.test${UPLOAD_TARGET}`,
				headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
			});
			expect(signed.url).toBe(`https://api.example.test${UPLOAD_TARGET}`);
			expect(header(signed, 'X-Signature')).toBe(UPLOAD_SIGNATURE);
			expect(header(signed, 'Content-Type')).toBe('multipart/form-data; boundary=x');
		});

		it('is idempotent: signing its own output again gives a valid request with a fresh timestamp', async () => {
			const api = new FileStorageApi();
			const first = await api.authenticate(credentials, { method: 'GET', url: LIST_TARGET });
			jest.setSystemTime(new Date('2026-01-02T03:09:00.000Z'));
			const second = await api.authenticate(credentials, first);
			expect(second.url).toBe(first.url);
			const headerNames = Object.keys(second.headers ?? {}).map((n) => n.toLowerCase());
			expect(headerNames.filter((n) => n === 'x-signature')).toHaveLength(1);
			expect(header(second, 'X-Timestamp')).toBe('2026-01-02T03:09:00.000Z');
			const expected = createHmac('sha256', SECRET)
				.update(`GET\n${LIST_TARGET}\n2026-01-02T03:09:00.000Z`)
				.digest('hex');
			expect(header(second, 'X-Signature')).toBe(expected);
		});

		it('signs the target the HTTP client will actually send when a url holds raw characters', async () => {
			const signed = await new FileStorageApi().authenticate(credentials, {
				method: 'GET',
				url: 'https://api.example.test/api/v1/files/list?bucket_name=my bucket&region=us-east-1',
			});
			const sentTarget = '/api/v1/files/list?bucket_name=my%20bucket&region=us-east-1';
			expect(header(signed, 'X-Signature')).toBe(computeSignature(SECRET, 'GET', sentTarget, TIMESTAMP));
		});

		it('refuses a base URL with a path before signing anything', async () => {
			await expect(
				new FileStorageApi().authenticate(
					{ ...credentials, baseUrl: 'https://api.example.test/api/v1' },
					{ url: '/x' },
				),
			).rejects.toThrow(/without a path/);
		});
	});
});

describe('base URL check', () => {
	it.each([
		['https://api.apexxcloud.com', 'https://api.apexxcloud.com'],
		['https://api.apexxcloud.com/', 'https://api.apexxcloud.com'],
		[' http://127.0.0.1:9480 ', 'http://127.0.0.1:9480'],
	])('accepts %s', (input, origin) => {
		expect(checkBaseUrl(input)).toEqual({ ok: true, origin });
	});

	it.each([
		['', /empty/],
		['api.apexxcloud.com', /no scheme/],
		['https://api.apexxcloud.com/api/v1', /without a path/],
		['https://api.apexxcloud.com?x=1', /without a path or query/],
		['https://user:pw@api.apexxcloud.com', /user name or password/],
		['https://', /not a valid URL/],
	])('refuses %j with a message naming the problem', (input, problem) => {
		const result = checkBaseUrl(input);
		expect(result.ok).toBe(false);
		expect(result.ok ? '' : result.problem).toMatch(problem);
	});
});

describe('the HTTP Request node path (legacy options with `uri`)', () => {
	beforeEach(() => jest.useFakeTimers({ now: new Date(TIMESTAMP), doNotFake: ['nextTick', 'setImmediate'] }));
	afterEach(() => jest.useRealTimers());

	it('signs a legacy `uri` with `qs` and returns an absolute url that takes precedence', async () => {
		const legacy = {
			method: 'GET',
			uri: 'https://api.example.test/api/v1/files/list',
			qs: { bucket_name: 'my-bucket', region: 'us-east-1', prefix: 'photos/2026 summer/', page: 2, limit: 50 },
		} as unknown as IHttpRequestOptions;
		const signed = await new FileStorageApi().authenticate(credentials, legacy);
		expect(signed.url).toBe(`https://api.example.test${LIST_TARGET}`);
		expect(header(signed, 'X-Signature')).toBe(LIST_SIGNATURE);
	});
});

describe('querySignedTarget (spec §3.10, signed operation URLs)', () => {
	const target =
		'/api/v1/files/upload?bucket_name=my-bucket&region=us-east-1&visibility=private&key=reports%2FQ1+r%C3%A9sum%C3%A9%2Bfinal.pdf';

	it('appends access_key, signature and timestamp last, signed over the target before them (the spec vector)', () => {
		const url = querySignedTarget('AK', 's3cr3t-signing-key', 'PUT', target, '2026-01-02T03:04:05.678Z');
		expect(url).toBe(
			`${target}&access_key=AK&signature=b946c5bda2f827c4e2c7ecb7db532aceb14d5cb11540dc0d094cf8e46094bfaf&timestamp=2026-01-02T03%3A04%3A05.678Z`,
		);
		expect(url).not.toContain('s3cr3t');
	});

	it('starts the query when the target has none', () => {
		expect(querySignedTarget('AK', 'k', 'DELETE', '/api/v1/files/multipart/abc', 't')).toMatch(
			/^\/api\/v1\/files\/multipart\/abc\?access_key=AK&signature=[0-9a-f]{64}&timestamp=t$/,
		);
	});
});
