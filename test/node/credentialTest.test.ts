/**
 * The credential's Test button through n8n-core's request routing (test/harness/credential-test.ts);
 * test/e2e/credential.test.ts runs the same cases in `n8n start`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { FileStorageApi } from '../../credentials/FileStorageApi.credentials';
import { runNode, testCredential } from '../harness';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator();

describe("the credential's Test", () => {
	it('passes for valid keys against the emulator', async () => {
		expect(await testCredential('fileStorageApi', credentialsFor(emulator()).fileStorageApi)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	it.each(['reference', 'sdk'] as const)(
		'passes for valid keys against a service that answers only the %s paths',
		async (family) => {
			emulator().setPaths(family);
			try {
				expect(await testCredential('fileStorageApi', credentialsFor(emulator()).fileStorageApi)).toEqual({
					status: 'OK',
					message: 'Connection successful!',
				});
			} finally {
				emulator().setPaths('both');
			}
		},
	);

	it('fails for a wrong secret, pointing at the keys and the clock, without showing the secret', async () => {
		const result = await testCredential(
			'fileStorageApi',
			credentialsFor(emulator(), { secretKey: 'harness-wrong-secret-51e0' }).fileStorageApi,
		);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Invalid authentication credentials: check the Access Key and Secret Key/);
		expect(JSON.stringify(result)).not.toContain('harness-wrong-secret-51e0');
	});

	it('an unreachable Base URL: n8n shows only the network code, and the Base URL field says what it means and the fix', async () => {
		const result = await testCredential(
			'fileStorageApi',
			credentialsFor(emulator(), { baseUrl: 'http://127.0.0.1:9' }).fileStorageApi,
		);
		// n8n's tester words a request without an answer by its code; a declarative test cannot change that.
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
		const baseUrl = new FileStorageApi().properties.find((property) => property.name === 'baseUrl');
		expect(baseUrl?.description).toMatch(
			/Test says ECONNREFUSED.*nothing answered at this address: check the scheme, host and port/,
		);
	});

	describe('at a Base URL that is not the File Storage API', () => {
		let web: Server;
		let answer: [number, string, string] = [200, 'text/html', ''];
		beforeAll(async () => {
			web = createServer((req, res) => {
				req.resume();
				res.writeHead(answer[0], { 'Content-Type': answer[1] }).end(answer[2]);
			});
			await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
		});
		afterAll(async () => await new Promise((resolve) => web.close(resolve)));

		it.each<[string, [number, string, string]]>([
			['a 200 web page', [200, 'text/html', '<html><body>Welcome</body></html>']],
			['a 200 answer of another JSON API', [200, 'application/json', '{"items":[],"ok":true}']],
			['a 404 page', [404, 'text/html', '<html><body>Not Found</body></html>']],
			["a framework's JSON 404", [404, 'application/json', '{"error":"Not Found","status":404}']],
			['a lower-case JSON "not found" 404', [404, 'application/json', '{"error":"not found"}']],
			['an upper-case JSON "NOT FOUND" 404', [404, 'application/json', '{"error":"NOT FOUND","code":404}']],
			['a JSON "not_found" 404', [404, 'application/json', '{"error":"not_found"}']],
			['a JSON "404 Not Found"', [404, 'application/json', '{"error":"404 Not Found"}']],
			['a JSON "Not found." in message', [404, 'application/json', '{"error":"E_ROUTE","message":"Not found."}']],
			['an OAuth "invalid_token" 401', [401, 'application/json', '{"error":"invalid_token"}']],
			[
				'an "Unauthorized" 401',
				[401, 'application/json', '{"error":"Unauthorized","message":"Full authentication is required"}'],
			],
			['a "Forbidden" 403', [403, 'application/json', '{"error":"Forbidden"}']],
			[
				'an error object with a 404 code',
				[404, 'application/json', '{"error":{"code":404,"message":"Requested entity was not found."}}'],
			],
			['an error flag instead of words', [400, 'application/json', '{"error":true,"message":"Unknown route"}']],
		])('a server answering with %s fails, naming the Base URL', async (_kind, given) => {
			answer = given;
			const { port } = web.address() as AddressInfo;
			const result = await testCredential(
				'fileStorageApi',
				credentialsFor(emulator(), { baseUrl: `http://127.0.0.1:${port}` }).fileStorageApi,
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^The Base URL did not answer like the File Storage API \(.+\)\. Set the Base URL of the File Storage API credential to the API's scheme and host/,
			);
		});

		it.each<[string, [number, string, string]]>([
			['a "Bad Gateway" 502', [502, 'application/json', '{"error":"Bad Gateway"}']],
			['an "Internal Server Error" 500', [500, 'application/json', '{"error":"Internal Server Error"}']],
			['a "Too Many Requests" 429', [429, 'application/json', '{"error":"Too Many Requests"}']],
		])('a server answering with %s fails, saying to try again later', async (_kind, given) => {
			answer = given;
			const { port } = web.address() as AddressInfo;
			const result = await testCredential(
				'fileStorageApi',
				credentialsFor(emulator(), { baseUrl: `http://127.0.0.1:${port}` }).fileStorageApi,
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/try the test again later/);
		});

		it.each<[string, string]>([
			['a lower-case "not found"', '{"error":"not found"}'],
			['an upper-case "NOT FOUND"', '{"error":"NOT FOUND","code":404}'],
			['a "not_found"', '{"error":"not_found"}'],
		])('a JSON 404 with %s: the node names the Base URL as not the API, as the Test does', async (_kind, body) => {
			answer = [404, 'application/json', body];
			const { port } = web.address() as AddressInfo;
			const credentials = credentialsFor(emulator(), { baseUrl: `http://127.0.0.1:${port}` });
			const node = await runNode({
				credentials,
				parameters: {
					bucketName: 'b',
					region: 'r',
					resource: 'file',
					operation: 'getSignedUrl',
					fileKey: { __rl: true, mode: 'key', value: 'a.txt' },
				},
			});
			expect(node.error?.description).toMatch(/^The Base URL did not answer like the File Storage API/);
			const result = await testCredential('fileStorageApi', credentials.fileStorageApi);
			expect(result.message).toMatch(/^The Base URL did not answer like the File Storage API/);
		});

		it.each<[string, [number, string]]>([
			[
				"the API's 404 for a missing bucket",
				[404, '{"error":"Resource not found","message":"Bucket or file not found"}'],
			],
			["the API's 404 without a message", [404, '{"error":"Resource not found"}']],
		])('%s passes', async (_kind, [status, body]) => {
			answer = [status, 'application/json', body];
			const { port } = web.address() as AddressInfo;
			const result = await testCredential(
				'fileStorageApi',
				credentialsFor(emulator(), { baseUrl: `http://127.0.0.1:${port}` }).fileStorageApi,
			);
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		});
	});
});
