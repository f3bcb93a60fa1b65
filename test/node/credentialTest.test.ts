/**
 * The credential's Test button through n8n-core's request routing (test/harness/credential-test.ts);
 * test/e2e/credential.test.ts runs the same cases in `n8n start`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { testCredential } from '../harness';
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
	});
});
