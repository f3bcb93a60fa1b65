/**
 * The credential outside the File Storage node: its Test button (n8n's credential test over the
 * REST API of `n8n start`) and the HTTP Request node signing with it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { executeWorkflow, importWorkflows, nodeJson, startN8n, tail, useRealN8n, workflowFrom } from './support';
import { setUpOwner, testCredential as testCredentialOverRest, type RunningN8n } from '../../scripts/real-n8n/n8n';
import { start, type Emulator } from '../emulator';

const n8n = useRealN8n({ workflows: [] });
const OWNER = { email: 'owner@example.com', password: 'E2e-owner-password-1', firstName: 'E2e', lastName: 'Owner' };

jest.setTimeout(300000);

describe('HTTP Request node with the File Storage credential', () => {
	it('lists a folder whose name needs encoding, signed as sent', async () => {
		const { instance, emulator, filesDir, credential } = n8n();
		await importWorkflows(instance, [
			await workflowFrom('http-request-node.json', { BASE_URL: credential.baseUrl }, filesDir),
		]);
		emulator.resetStats();
		const result = await executeWorkflow(instance, 'fsE2eHttpRequest1');
		if (result.code !== 0 || result.run?.status !== 'success') {
			throw new Error(`workflow failed (exit ${result.code}):\n${tail(result.output, 40)}`);
		}
		const [body] = nodeJson(result.run, 'List via HTTP Request');
		expect(body).toMatchObject({ data: { contents: { path: 'http node/a+b & c/' } } });
		expect(emulator.stats().authFailures).toBe(0);
	});
});

describe("the credential's Test button", () => {
	let server: RunningN8n | undefined;
	let cookie = '';

	beforeAll(async () => {
		const { instance } = n8n();
		server = await startN8n(instance);
		cookie = await setUpOwner(server.url, OWNER);
	}, 300000);
	afterAll(async () => {
		await server?.stop();
	});

	const testCredential = async (data: Record<string, string>) =>
		await testCredentialOverRest(server!.url, cookie, data);

	it('passes for valid keys against the emulator', async () => {
		const { credential } = n8n();
		expect(await testCredential({ ...credential })).toMatchObject({ status: 'OK' });
	});

	describe('at a Base URL that is not the File Storage API', () => {
		let web: Server;
		let skewed: Emulator;
		// What other web servers answer to the signed request: a page, a 404 page, a framework's
		// JSON 404 in several spellings, another JSON API, an OAuth server's refusal.
		const answers: Record<string, [number, string, string]> = {
			'a web page': [200, 'text/html', '<html><body>Welcome</body></html>'],
			'a 404 page': [404, 'text/html', '<html><body>Not Found</body></html>'],
			"a framework's JSON 404": [404, 'application/json', '{"error":"Not Found","status":404}'],
			'another JSON API': [200, 'application/json', '{"items":[],"ok":true}'],
			'a lower-case JSON "not found"': [404, 'application/json', '{"error":"not found"}'],
			'an OAuth server\'s "invalid_token"': [401, 'application/json', '{"error":"invalid_token"}'],
			'an error object with a 404 code': [404, 'application/json', '{"error":{"code":404,"message":"Not found"}}'],
		};
		let answer = answers['a web page'];

		beforeAll(async () => {
			web = createServer((_req, res) => {
				const [status, type, body] = answer;
				res.writeHead(status, { 'Content-Type': type }).end(body);
			});
			await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
			// The service's clock 15 minutes ahead of this host.
			const { credential } = n8n();
			skewed = await start({
				port: 0,
				accessKey: credential.accessKey,
				secretKey: credential.secretKey,
				now: () => Date.now() + 15 * 60 * 1000,
			});
		});
		afterAll(async () => {
			await new Promise((resolve) => web.close(resolve));
			await skewed.stop();
		});

		it.each(Object.keys(answers))('a server answering with %s fails, naming the Base URL', async (kind) => {
			answer = answers[kind];
			const { credential } = n8n();
			const { port } = web.address() as AddressInfo;
			const result = await testCredential({ ...credential, baseUrl: `http://127.0.0.1:${port}` });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Base URL did not answer like the File Storage API/);
		});

		it('a service whose clock differs fails, pointing at the clock', async () => {
			const { credential } = n8n();
			const result = await testCredential({ ...credential, baseUrl: skewed.url });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Invalid authentication credentials: .*clock of the n8n host/);
		});
	});

	it("fails with the service's message for a wrong secret, without showing it", async () => {
		const { credential } = n8n();
		const result = await testCredential({ ...credential, secretKey: 'e2e-wrong-secret-3c9d' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Invalid authentication credentials/);
		expect(JSON.stringify(result)).not.toContain('e2e-wrong-secret-3c9d');
	});
});
