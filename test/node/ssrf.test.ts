/**
 * n8n's SSRF protection (n8n 2.x, N8N_SSRF_PROTECTION_ENABLED) refuses the node's requests to a
 * blocked address as it refuses the HTTP Request node's: the node says n8n's reason, does not
 * retry, and leaves nothing open on the service. The emulator and the allowed sources listen on
 * 127.0.0.1 (allowed, see ssrfEnv.ts); a server on 127.0.0.2 plays the blocked host.
 */
import { ALLOWED_RANGE, BLOCKED_HOST } from './ssrfEnv';

import { SsrfProtectionService } from '@n8n/backend-network';
import { Container } from '@n8n/di';

import { redirectTo, startSourceServer, type SourceServer } from './sourceServer';
import { BUCKET, credentialsFor, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';
import { runNode } from '../harness';

const emulator = useEmulator();
const file = randomFile(64 * 1024 + 7);
const KEY = 'ssrf/report.bin';
/** n8n's own words for a refused address (SsrfBlockedIpError). */
const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';

let allowed: SourceServer;
let blocked: SourceServer;
/** What n8n's SSRF protection decided since the last reset: a count per verdict. */
const verdicts = { allowed: 0, blocked: 0 };

beforeAll(async () => {
	allowed = await startSourceServer({ 'report.bin': file });
	blocked = await startSourceServer({ 'report.bin': file }, BLOCKED_HOST);
	const events = Container.get(SsrfProtectionService).events;
	events.on('ssrf.allowed', () => verdicts.allowed++);
	events.on('ssrf.blocked', () => verdicts.blocked++);
});
afterAll(async () => {
	await allowed?.stop();
	await blocked?.stop();
});
beforeEach(() => {
	emulator().resetStats();
	emulator().setFaults([]);
	allowed.requests.splice(0);
	blocked.requests.splice(0);
	verdicts.allowed = 0;
	verdicts.blocked = 0;
});

const uploadFrom = async (url: string) =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'upload', source: 'url', sourceUrl: url, key: KEY });

const downloadByUrl = async (location: string) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: { __rl: true, mode: 'url', value: location },
	});

/** The file at KEY, uploaded from a binary (allowed: the emulator is on 127.0.0.1). */
async function putFile(): Promise<void> {
	const put = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: KEY },
		{ items: [fileItem(file)] },
	);
	expect(put.error).toBeUndefined();
	emulator().resetStats();
	verdicts.allowed = 0;
}

function expectRefusedOnce(error: { message?: string; description?: string | null } | undefined) {
	expect(error?.message).toContain(BLOCKED);
	// The administrator's way out is named.
	expect(error?.description).toMatch(/N8N_SSRF_ALLOWED_IP_RANGES/);
	// One refusal, no retries: the address does not change between attempts.
	expect(error?.message).not.toMatch(/attempts/);
	expect(verdicts.blocked).toBe(1);
	expect(blocked.requests).toHaveLength(0);
}

function expectNothingStarted() {
	const requests = emulator().stats().requests;
	expect(requests.start + requests.upload).toBe(0);
	expect(emulator().listOpenUploads()).toEqual([]);
}

describe(`with N8N_SSRF_PROTECTION_ENABLED=true and N8N_SSRF_ALLOWED_IP_RANGES=${ALLOWED_RANGE}`, () => {
	it('the emulator and a Source URL on the allowed 127.0.0.1 work: each request was checked and let through', async () => {
		const result = await uploadFrom(`${allowed.url}/file/report.bin`);
		expect(result.error).toBeUndefined();
		expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, KEY)).toBe(sha256(file));
		// The protection is on: it judged the source's request and the service's, and blocked none.
		expect(verdicts.allowed).toBeGreaterThanOrEqual(2);
		expect(verdicts.blocked).toBe(0);
	});

	it("a Source URL on a blocked address is refused with n8n's SSRF message, once, before any connection; nothing is started on the service", async () => {
		const result = await uploadFrom(`${blocked.url}/file/report.bin`);
		expectRefusedOnce(result.error);
		expect(result.error?.message).toContain(`'${blocked.url}/file/report.bin'`);
		expectNothingStarted();
	});

	it('a Source URL that redirects to a blocked address is refused at that hop', async () => {
		const result = await uploadFrom(redirectTo(allowed, `${blocked.url}/file/report.bin`));
		expectRefusedOnce(result.error);
		expect(allowed.requests).toHaveLength(1);
		expectNothingStarted();
	});

	it("a File given By URL is never requested from the link's host: its key goes to the service, whatever host the link names", async () => {
		await putFile();
		const result = await downloadByUrl(`${blocked.url}/f/${emulator().accessId}/${KEY}`);
		expect(result.error).toBeUndefined();
		expect(await result.binarySha256(result.items[0])).toBe(sha256(file));
		expect(blocked.requests).toHaveLength(0);
		expect(verdicts.blocked).toBe(0);
	});

	it("a Download whose signed link points at a blocked address is refused with n8n's SSRF message, not retried", async () => {
		await putFile();
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${blocked.url}/file/report.bin` } }]);
		const result = await downloadByUrl(`${emulator().cdnUrl}/f/${emulator().accessId}/${KEY}`);
		expectRefusedOnce(result.error);
		expect(result.error?.message).toMatch(/^Download of 'ssrf\/report\.bin' failed: /);
	});

	it('a Download whose signed link redirects to a blocked address is refused at that hop', async () => {
		await putFile();
		const hop = redirectTo(allowed, `${blocked.url}/file/report.bin`);
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: hop } }]);
		const result = await downloadByUrl(`${emulator().cdnUrl}/f/${emulator().accessId}/${KEY}`);
		expectRefusedOnce(result.error);
		expect(allowed.requests).toHaveLength(1);
	});

	it("a credential whose Base URL is a blocked address gets n8n's SSRF message, not a network error, and is not retried", async () => {
		const port = new URL(emulator().url).port;
		const result = await runNode({
			credentials: credentialsFor(emulator(), { baseUrl: `http://${BLOCKED_HOST}:${port}` }),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'delete',
				fileKey: { __rl: true, mode: 'key', value: KEY },
			},
		});
		expect(result.error?.message).toContain(BLOCKED);
		expect(result.error?.message).not.toMatch(/attempts/);
		expect(result.error?.description).toMatch(/N8N_SSRF_ALLOWED_IP_RANGES/);
		expect(verdicts.blocked).toBe(1);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});
});
