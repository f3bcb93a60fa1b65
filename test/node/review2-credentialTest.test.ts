/**
 * Review: the credential's Test against servers that are not the File Storage API but answer
 * with a JSON `error`. README (Credentials): the Test "passes only on the API's own answer to
 * that: its 404 with the error "Resource not found"", and a Base URL of "a JSON API, a
 * framework's "Not Found"" fails; apiAnswer.ts: the Test and the node's errors "decide by these,
 * so a wrong Base URL is named the same way in both places".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode, testCredential } from '../harness';

describe("the credential's Test at a Base URL that is not the API", () => {
	let web: Server;
	let answer: [number, string] = [404, '{}'];
	const baseUrl = () => `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
	beforeAll(async () => {
		web = createServer((req, res) => {
			req.resume();
			res.writeHead(answer[0], { 'Content-Type': 'application/json' }).end(answer[1]);
		});
		await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => web.close(resolve)));

	it.each<[string, [number, string]]>([
		['a lower-case JSON "not found"', [404, '{"error":"not found"}']],
		['an upper-case JSON "NOT FOUND"', [404, '{"error":"NOT FOUND","code":404}']],
	])('%s 404 fails the Test, as the node itself calls it not the API', async (_kind, given) => {
		answer = given;
		const credentials = { accessKey: 'key', secretKey: 'secret', baseUrl: baseUrl() };
		// The node names this Base URL as not the API …
		const node = await runNode({
			credentials: { fileStorageApi: credentials },
			parameters: {
				bucketName: 'b',
				region: 'r',
				resource: 'file',
				operation: 'getSignedUrl',
				fileKey: { __rl: true, mode: 'key', value: 'a.txt' },
			},
		});
		expect(node.error?.description).toMatch(/The Base URL did not answer like the File Storage API/);
		// … the Test should say the same rather than "Connection successful!".
		const result = await testCredential('fileStorageApi', credentials);
		expect(result.status).toBe('Error');
	});

	it('another JSON API answering 401 {"error":"invalid_token"} fails the Test', async () => {
		answer = [401, '{"error":"invalid_token","error_description":"The access token is invalid"}'];
		const result = await testCredential('fileStorageApi', {
			accessKey: 'key',
			secretKey: 'secret',
			baseUrl: baseUrl(),
		});
		expect(result.status).toBe('Error');
	});
});
