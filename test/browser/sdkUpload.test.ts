/**
 * The browser-upload example as a user runs it: the `npm run dev` stack (real n8n with the example
 * workflow browser-upload-backend.json active on its production webhook, the emulator, and the
 * example page served by scripts/dev/pageServer.ts), the page loaded in headless Chromium, a file
 * set on its input and the service's browser SDK (@apexxcloud/sdk-js) uploading it with URLs the
 * workflow signs. The page and n8n are different origins, so the webhook's CORS is exercised too.
 * What the emulator stored under the workflow's folder must be the file, byte for byte.
 */
import { randomBytes } from 'node:crypto';

import type { Page } from 'playwright-core';

import { browserUploadBackend } from '../../scripts/dev/pageServer';
import type { Stack } from '../../scripts/dev/stack';
import { DEFAULTS as EMULATOR_DEFAULTS } from '../emulator/config';
import { emulatorClient, sha256 } from '../emulator/conformance/client';
import { useDevStackInChromium } from './devStack';

/** The Folder of the example workflow's File Storage node. */
const FOLDER = 'browser-uploads/';
const MiB = 1024 * 1024;

const started = useDevStackInChromium('file-storage-sdk-');
let stack: Stack | undefined;
let page: Page;
/** Every request the page sent to the emulator: the URLs the workflow signed, as the SDK used them. */
const sent: Array<{ method: string; url: string }> = [];

jest.setTimeout(180000);

beforeAll(() => {
	({ stack, page } = started());
	page.on('request', (request) => {
		if (request.url().startsWith(stack!.emulatorUrl) && request.method() !== 'OPTIONS')
			sent.push({ method: request.method(), url: request.url() });
	});
});

function client() {
	return emulatorClient({
		url: stack!.emulatorUrl,
		accessKey: EMULATOR_DEFAULTS.accessKey,
		secretKey: EMULATOR_DEFAULTS.secretKey,
	});
}

/** The stored file's bytes, read back through a signed download link. */
async function stored(key: string): Promise<Buffer> {
	const link = await client().signedUrl(key);
	if (link.status !== 200) throw new Error(`no download link for ${key}: HTTP ${link.status} ${link.body}`);
	const file = await client().fetchUrl(link.json.data.url);
	if (file.status !== 200) throw new Error(`${key} not readable: HTTP ${file.status}`);
	return file.body;
}

/** Loads the page, sets the file on its input, clicks the button and waits for the SDK's answer. */
async function uploadInPage(name: string, data: Buffer, button: '#upload' | '#upload-parts'): Promise<string> {
	await page.goto(stack!.pageUrl);
	await page.setInputFiles('#file', { name, mimeType: 'application/octet-stream', buffer: data });
	await page.click(button);
	const status = page.locator('#status');
	await page.waitForSelector('#status[data-state="done"], #status[data-state="error"]', { timeout: 120000 });
	const text = await status.innerText();
	if ((await status.getAttribute('data-state')) !== 'done') throw new Error(`the page says: ${text}`);
	return text;
}

/** A PUT of a form with a file, as the SDK sends an upload. */
function putFile(url: string, data: Buffer, name: string): Promise<Response> {
	const form = new FormData();
	form.append('file', new Blob([data]), name);
	return fetch(url, { method: 'PUT', body: form });
}

it('uploads a small file in one request through the webhook, and the emulator stores its bytes under the folder', async () => {
	const data = randomBytes(3000);
	await uploadInPage('small.bin', data, '#upload');
	const put = sent.filter((r) => r.method === 'PUT' && r.url.includes('/api/v1/files/upload'));
	expect(put).toHaveLength(1);
	expect(new URL(put[0].url).searchParams.get('key')).toBe(`${FOLDER}small.bin`);
	expect(sha256(await stored(`${FOLDER}small.bin`))).toBe(sha256(data));
});

it('uploads a 12 MiB file in 5 MiB parts (uploadMultipart), and the emulator stores it byte for byte', async () => {
	const data = randomBytes(12 * MiB);
	const answer = await uploadInPage('large-12MiB.bin', data, '#upload-parts');
	expect(answer).toContain('large-12MiB.bin');
	const parts = sent.filter((r) => r.method === 'POST' && new URL(r.url).searchParams.has('partNumber'));
	expect(parts.map((r) => new URL(r.url).searchParams.get('partNumber')).sort()).toEqual(['1', '2', '3']);
	expect(sent.some((r) => r.url.includes('/multipart/start?'))).toBe(true);
	expect(sent.some((r) => /\/complete\?/.test(r.url))).toBe(true);
	expect(sha256(await stored(`${FOLDER}large-12MiB.bin`))).toBe(sha256(data));
});

it('puts no secret in any URL the workflow signed', () => {
	expect(sent.length).toBeGreaterThanOrEqual(6);
	for (const { url } of sent) {
		expect(url).not.toContain(EMULATOR_DEFAULTS.secretKey);
		expect(url).not.toContain(encodeURIComponent(EMULATOR_DEFAULTS.secretKey));
	}
});

it('a URL the webhook returned is refused when tampered with or used for another key', async () => {
	const backend = browserUploadBackend(stack!.editorUrl);
	const answer = await fetch(`${backend}/upload`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ params: { key: 'signed.bin', mimeType: 'application/octet-stream' } }),
	});
	expect(answer.status).toBe(200);
	const url = await answer.text();
	expect(url.startsWith(`${stack!.emulatorUrl}/api/v1/files/upload?`)).toBe(true);
	expect(url).not.toContain(EMULATOR_DEFAULTS.secretKey);
	const data = randomBytes(100);

	const tampered = url.replace('visibility=private', 'visibility=public');
	expect(tampered).not.toBe(url);
	expect((await putFile(tampered, data, 'signed.bin')).status).toBe(401);
	const otherKey = url.replace(encodeURIComponent(`${FOLDER}signed.bin`), encodeURIComponent(`${FOLDER}other.bin`));
	expect(otherKey).not.toBe(url);
	expect((await putFile(otherKey, data, 'other.bin')).status).toBe(401);

	// The untouched URL works, so the refusals above were for the change alone.
	expect((await putFile(url, data, 'signed.bin')).status).toBe(200);
	expect(sha256(await stored(`${FOLDER}signed.bin`))).toBe(sha256(data));
	await expect(stored(`${FOLDER}other.bin`)).rejects.toThrow(/HTTP 404/);
});

it('the workflow signs nothing for a key that would leave its folder', async () => {
	const answer = await fetch(`${browserUploadBackend(stack!.editorUrl)}/upload`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ params: { key: '../outside.bin' } }),
	});
	const text = await answer.text();
	expect(answer.ok).toBe(false);
	expect(text).not.toContain('signature=');
});
