/**
 * The credential outside the File Storage node: its Test button (n8n's credential test over the
 * REST API of `n8n start`) and the HTTP Request node signing with it.
 */
import { executeWorkflow, importWorkflows, nodeJson, startN8n, tail, useRealN8n, workflowFrom } from './support';
import { setUpOwner, type RunningN8n } from '../../scripts/real-n8n/n8n';

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

	async function testCredential(data: Record<string, string>) {
		const response = await fetch(`${server!.url}/rest/credentials/test`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				credentials: { id: 'fsEmulatorCreds1', name: 'File Storage (local emulator)', type: 'fileStorageApi', data },
			}),
			signal: AbortSignal.timeout(60000),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`credential test answered ${response.status}: ${text}`);
		return (JSON.parse(text) as { data: { status: string; message: string } }).data;
	}

	it('passes for valid keys against the emulator', async () => {
		const { credential } = n8n();
		expect(await testCredential({ ...credential })).toMatchObject({ status: 'OK' });
	});

	it("fails with the service's message for a wrong secret, without showing it", async () => {
		const { credential } = n8n();
		const result = await testCredential({ ...credential, secretKey: 'e2e-wrong-secret-3c9d' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Invalid authentication credentials/);
		expect(JSON.stringify(result)).not.toContain('e2e-wrong-secret-3c9d');
	});
});
