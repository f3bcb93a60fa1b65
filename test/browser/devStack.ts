/**
 * The `npm run dev` stack (real n8n, the emulator, the example page) on free ports in a temporary
 * folder, and headless Chromium (the one shipped in @sparticuz/chromium, or CHROMIUM_PATH) with
 * one page: what every browser test starts before its first step and stops after its last.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { chromiumExecutable } from '../../scripts/browser/chromium';
import { startStack, type Stack } from '../../scripts/dev/stack';
import { freePort } from '../../scripts/real-n8n/process';
import { PACKAGE_ROOT } from '../../scripts/real-n8n/profiles';

// Flags for a machine without a GPU, a sandbox-capable kernel setup for root, or outside network.
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const STEP_TIMEOUT_MS = 60000;

export interface BrowserStack {
	stack: Stack;
	page: Page;
}

/** Starts the stack and Chromium in `beforeAll` and stops both in `afterAll`; the getter gives them. */
export function useDevStackInChromium(tmpPrefix: string): () => BrowserStack {
	let root = '';
	let stack: Stack | undefined;
	let browser: BrowserContext | undefined;
	let page: Page | undefined;
	beforeAll(
		async () => {
			const { executablePath } = await chromiumExecutable();
			if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
				throw new Error('dist/ is missing: run `npm run build` first');
			}
			root = await fsp.mkdtemp(path.join(os.tmpdir(), tmpPrefix));
			stack = await startStack({
				dataDir: path.join(root, 'stack'),
				packageDir: PACKAGE_ROOT,
				n8nPort: await freePort(),
				emulatorPort: 0,
				hotReload: false,
				log: () => undefined,
			});
			browser = await chromium.launchPersistentContext(path.join(root, 'chromium-profile'), {
				executablePath,
				headless: true,
				args: CHROMIUM_FLAGS,
				viewport: { width: 1440, height: 900 },
			});
			page = browser.pages()[0] ?? (await browser.newPage());
			page.setDefaultTimeout(STEP_TIMEOUT_MS);
		},
		30 * 60 * 1000,
	);
	afterAll(async () => {
		await browser?.close();
		await stack?.stop();
		if (root) await fsp.rm(root, { recursive: true, force: true });
	});
	return () => {
		if (!stack || !page) throw new Error('the stack and Chromium are not started');
		return { stack, page };
	};
}
