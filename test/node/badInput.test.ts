import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MIB, byKey, credentialsFor, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const withBaseUrl = (baseUrl: string) => ({ credentials: credentialsFor(emulator(), { baseUrl }) });

describe('bad input gets a clear error naming the field', () => {
	beforeEach(() => emulator().resetStats());

	it('an input field that holds JSON but no binary', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'x' },
			{ items: [{ json: { data: 'I am text, not a file' } }] },
		);
		expect(result.error?.message).toMatch(/no binary field 'data' \(parameter 'Input Binary Field'\)/);
	});

	it('an empty Input Binary Field parameter', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', binaryPropertyName: '={{ "" }}' },
			{ items: [fileItem(Buffer.from('x'))] },
		);
		expect(result.error?.message).toMatch(/'Input Binary Field' is empty/);
	});

	it('a 0-byte file for Multipart Upload and Upload Part', async () => {
		const multipart = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'empty' },
			{ items: [fileItem(Buffer.alloc(0))] },
		);
		expect(multipart.error?.message).toMatch(/is empty \(0 bytes\)/);
		const part = await runFileStorage(
			emulator(),
			{ resource: 'multipartUpload', operation: 'uploadPart', uploadId: 'u', key: 'k', partNumber: 1, totalParts: 1 },
			{ items: [fileItem(Buffer.alloc(0))] },
		);
		expect(part.error?.message).toMatch(/is empty \(0 bytes\)/);
		expect(emulator().stats().requests.start).toBe(0);
	});

	it('a part size above 5 GiB (the 10,000-part limit is covered by the unit tests)', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'multipartUpload', key: 'k', partSize: 5121 },
			{ items: [fileItem(randomFile(MIB))] },
		);
		expect(result.error?.message).toMatch(/Part Size must be between 5 and 5120 MiB \(got 5121\)/);
	});

	it('a page size that is not a number', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			returnAll: true,
			options: { pageSize: '={{ "many" }}' },
		});
		expect(result.error?.message).toMatch(/Page Size must be a whole number from 1 to 1000 \(got NaN\)/);
	});

	it('a negative limit', async () => {
		const result = await runFileStorage(emulator(), { resource: 'bucket', operation: 'listContents', limit: -5 });
		expect(result.error?.message).toMatch(/Limit must be a whole number of at least 1 \(got -5\)/);
	});

	it('a part number outside 1–10,000 and an empty upload ID', async () => {
		const base = { resource: 'multipartUpload', operation: 'uploadPart', key: 'k', totalParts: 1 };
		const items = { items: [fileItem(Buffer.from('x'))] };
		const zero = await runFileStorage(emulator(), { ...base, uploadId: 'u', partNumber: 0 }, items);
		expect(zero.error?.message).toMatch(/Part Number must be a whole number from 1 to 10000 \(got 0\)/);
		const noId = await runFileStorage(emulator(), { ...base, uploadId: '={{ "" }}', partNumber: 1 }, items);
		expect(noId.error?.message).toMatch(/'Upload ID' is empty/);
	});

	it('an unknown upload ID is the service 404', async () => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId: 'does-not-exist',
				key: 'k',
				partNumber: 1,
				totalParts: 1,
			},
			{ items: [fileItem(Buffer.from('x'))] },
		);
		expect(result.error?.message).toMatch(/Upload of part 1 of 1 of 'k' failed: .*\(HTTP 404\)/);
	});

	it('Expires In outside 1 s – 7 days', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: { __rl: true, mode: 'key', value: 'a' },
			expiresIn: 0,
		});
		expect(result.error?.message).toMatch(/Expires In must be a whole number of seconds from 1 to 604800 \(got 0\)/);
	});
});

describe('the credential Base URL', () => {
	const list = { resource: 'bucket', operation: 'listContents', limit: 1 };

	it('a trailing slash is fine', async () => {
		const result = await runFileStorage(emulator(), list, withBaseUrl(`${emulator().url}/`));
		expect(result.error).toBeUndefined();
	});

	it('without a scheme it is refused, naming the field', async () => {
		const result = await runFileStorage(emulator(), list, withBaseUrl(emulator().url.replace('http://', '')));
		expect(result.error?.message).toMatch(/File Storage API credential: Base URL ".*" has no scheme/);
		expect(result.error?.description).toMatch(/correct its Base URL/);
	});

	it('with a path it is refused, showing the URL to use', async () => {
		const result = await runFileStorage(emulator(), list, withBaseUrl(`${emulator().url}/api/v1`));
		expect(result.error?.message).toMatch(new RegExp(`without a path.*Use ${emulator().url.replace(/\./g, '\\.')}`));
	});

	it('a port nothing listens on gives a connection error, not a hang', async () => {
		const result = await runFileStorage(
			emulator(),
			{ ...list, options: { maxRetries: 1 } },
			withBaseUrl('http://127.0.0.1:9'),
		);
		expect(result.error?.message).toMatch(
			/List Contents of 'my-bucket' \(page 1\) failed after 2 attempts: the service refused the connection/,
		);
	});
});

describe('a Base URL pointing at a server that is not the API', () => {
	let web: Server;
	let answer: [string, string] = ['text/html', ''];
	const webUrl = () => `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
	beforeAll(async () => {
		web = createServer((req, res) => {
			req.resume();
			res.writeHead(404, { 'Content-Type': answer[0] }).end(answer[1]);
		});
		await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => web.close(resolve)));

	it.each([
		['a 404 page', 'text/html', '<html><body><h1>Not Found</h1></body></html>'],
		["a framework's JSON 404", 'application/json', '{"statusCode":404,"message":"Cannot GET /x","error":"Not Found"}'],
		["another JSON API's 404", 'application/json', '{"message":"Not Found","documentation_url":"https://x"}'],
		['an empty 404', 'text/plain', ''],
	])('a 404 that is %s says the Base URL is probably wrong, not the bucket', async (_kind, type, body) => {
		answer = [type, body];
		const result = await runFileStorage(
			emulator(),
			{ resource: 'bucket', operation: 'listContents', limit: 1 },
			withBaseUrl(webUrl()),
		);
		expect(result.error?.message).toMatch(/answered HTTP 404 \(Not Found\), not as the File Storage API does/);
		expect(result.error?.description).toMatch(
			/did not answer like the File Storage API.*Base URL of the File Storage API credential/,
		);
		expect(result.error?.description).not.toMatch(/bucket name/);
	});

	it("the API's own 404 (an unknown bucket) still points at the bucket name and region", async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			limit: 1,
			bucketName: 'no-such-bucket',
		});
		expect(result.error?.message).toMatch(/\(HTTP 404\)/);
		expect(result.error?.description).toMatch(
			/The bucket 'no-such-bucket' \(region us-east-1\) was not found: check Bucket Name and Region/,
		);
	});
});

describe('every error a user can cause says what to do', () => {
	it.each([
		[
			'an empty Put Output File in Field',
			{ resource: 'file', operation: 'download', fileKey: byKey('a'), binaryPropertyName: '={{ "" }}' },
		],
		[
			'Parts that are not a JSON array',
			{
				resource: 'multipartUpload',
				operation: 'complete',
				uploadId: 'u',
				key: 'k',
				partsSource: 'json',
				partsJson: '{}',
			},
		],
		['an empty Upload ID', { resource: 'multipartUpload', operation: 'cancel', uploadId: '={{ "" }}', key: 'k' }],
		['a Total Parts of 0', { resource: 'multipartUpload', operation: 'start', key: 'k', totalParts: '={{ 0 }}' }],
		['an Expires In of 0', { resource: 'file', operation: 'getSignedUrl', fileKey: byKey('a'), expiresIn: '={{ 0 }}' }],
		['a Page Size of 0', { resource: 'bucket', operation: 'listContents', options: { pageSize: '={{ 0 }}' } }],
		['a key with a ".." segment', { resource: 'file', operation: 'delete', fileKey: byKey('a/../b') }],
		['an empty Bucket Name', { resource: 'file', operation: 'delete', fileKey: byKey('a'), bucketName: '={{ "" }}' }],
	])('%s says what to do, before any request', async (_name, parameters) => {
		emulator().resetStats();
		const result = await runFileStorage(emulator(), parameters as never);
		expect(result.error?.message).toEqual(expect.any(String));
		expect(result.error?.description).toMatch(/\w{3,}.*\w{3,}/);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});
});
