/**
 * The node in n8n's real editor, in headless Chromium: the `npm run dev` stack (on free ports, in a
 * temporary folder) is logged in to, the upload example runs green with the example credential
 * selected, and the node's panel offers the operations; File Storage Trigger is offered as a first
 * step and its panel opens. Saves screenshots of both panels; with UPDATE_SCREENSHOTS=1 they become
 * the ones the README shows (docs/screenshots/).
 *
 * The browser is the Chromium shipped in the npm package @sparticuz/chromium (unpacked into .cache/
 * on first use), or the one CHROMIUM_PATH names: see scripts/browser/chromium.ts.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import type { Stack } from '../../scripts/dev/stack';
import { DEFAULTS as EMULATOR_DEFAULTS } from '../emulator/config';
import { emulatorClient } from '../emulator/conformance/client';
import { EXAMPLE_IDS } from '../../scripts/real-n8n/instance';
import { PACKAGE_ROOT } from '../../scripts/real-n8n/profiles';
import { useDevStackInChromium } from './devStack';

/** Where a panel's screenshot goes: the README's copy with UPDATE_SCREENSHOTS=1, else a scratch one. */
const screenshotPath = (name: string) =>
	path.join(
		PACKAGE_ROOT,
		...(process.env.UPDATE_SCREENSHOTS ? ['docs', 'screenshots'] : ['.cache', 'screenshots']),
		name,
	);
const SCREENSHOT = screenshotPath('file-storage-node.png');
const TRIGGER_SCREENSHOT = screenshotPath('file-storage-trigger.png');
const TRIGGER_EXAMPLE_ID = 'fsExampleTrigger';

const started = useDevStackInChromium('file-storage-browser-');
let stack: Stack | undefined;
let page: Page;

jest.setTimeout(180000);

beforeAll(() => {
	({ stack, page } = started());
});

const canvasNode = (name: string) => `[data-test-id="canvas-node"][data-node-name="${name}"]`;

/**
 * Screenshots the page once every image on it has loaded: the node's icon (served by n8n from the
 * package) must show, in the README's pictures and for users. A broken image fails the test.
 */
async function shoot(file: string): Promise<void> {
	// Run in the page, where the DOM is (this file is compiled without it).
	const allLoaded = 'Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0)';
	const notLoaded =
		'Array.from(document.images).filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src)';
	try {
		await page.waitForFunction(allLoaded, undefined, { timeout: 20_000 });
	} catch {
		const broken = (await page.evaluate(notLoaded)) as string[];
		throw new Error(`images that did not load before the screenshot ${path.basename(file)}: ${broken.join(', ')}`);
	}
	await page.screenshot({ path: file });
}

async function openNode(workflowId: string, nodeName: string): Promise<void> {
	await page.goto(`${stack!.editorUrl}/workflow/${workflowId}`);
	await page.dblclick(canvasNode(nodeName));
	await page.waitForSelector('[data-test-id="ndv"] [data-test-id="parameter-input-operation"]');
}

async function visibleOptions(): Promise<string[]> {
	const items = page.locator('[data-test-id="parameter-input-item"]:visible');
	await items.first().waitFor();
	return (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
}

it('logs in with the owner account created from the environment', async () => {
	await page.goto(`${stack!.editorUrl}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', stack!.owner.email);
	await page.fill('input[name="password"]', stack!.owner.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((url) => !url.pathname.includes('signin'));
});

it('runs the upload example green from the editor, with the example credential selected', async () => {
	await page.goto(`${stack!.editorUrl}/workflow/${EXAMPLE_IDS.upload}`);
	await page.waitForSelector(canvasNode('Upload to File Storage'));
	await page.click('[data-test-id="execute-workflow-button"]');
	await page.waitForSelector(`${canvasNode('Upload to File Storage')} [data-test-id="canvas-node-status-success"]`);
	await page.dblclick(canvasNode('Upload to File Storage'));
	await page.waitForSelector('[data-test-id="ndv"] [data-test-id="node-run-status-success"]');
	const credential = page.locator('[data-test-id="ndv"] [data-test-id="node-credentials-select"] input');
	await expect(credential.inputValue()).resolves.toBe('File Storage (local emulator)');
	// The panel with the run's input file, the parameters and the stored file: what the README shows.
	await page
		.locator('[data-test-id="ndv"] [data-test-id="output-panel"]')
		.getByText('examples/hello.txt')
		.first()
		.waitFor();
	await fsp.mkdir(path.dirname(SCREENSHOT), { recursive: true });
	await shoot(SCREENSHOT);
});

it("labels the nodes on the canvas in the panel's words", async () => {
	await page.keyboard.press('Escape');
	await page.locator(canvasNode('Upload to File Storage')).getByText('Upload: File', { exact: true }).waitFor();
	await page.locator(canvasNode('Download it again')).getByText('Download: File', { exact: true }).waitFor();
	// The Download node, its file picked By URL from the location Upload returned, ran green too.
	await page.waitForSelector(`${canvasNode('Download it again')} [data-test-id="canvas-node-status-success"]`);
	await page.dblclick(canvasNode('Upload to File Storage'));
	await page.waitForSelector('[data-test-id="ndv"] [data-test-id="parameter-input-operation"]');
});

it('offers Upload and Multipart Upload for a file', async () => {
	await page.click('[data-test-id="ndv"] [data-test-id="parameter-input-operation"]');
	expect(await visibleOptions()).toEqual(expect.arrayContaining(['Upload', 'Multipart Upload']));
	await page.keyboard.press('Escape');
});

it('offers List Contents for a bucket', async () => {
	await page.goto(`${stack!.editorUrl}/workflow/${EXAMPLE_IDS.list}`);
	await page.locator(canvasNode('List bucket contents')).getByText('List Contents: Bucket', { exact: true }).waitFor();
	await openNode(EXAMPLE_IDS.list, 'List bucket contents');
	const operation = page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-operation"] input');
	await expect(operation.inputValue()).resolves.toBe('List Contents');
	await page.click('[data-test-id="ndv"] [data-test-id="parameter-input-resource"]');
	expect(await visibleOptions()).toEqual(expect.arrayContaining(['Bucket', 'File']));
});

it('the Folder picker lists the folders of the bucket from the emulator', async () => {
	await page.keyboard.press('Escape');
	const folder = page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-folder"]');
	await folder.locator('[data-test-id="rlc-input"]').click();
	await page.locator('[data-test-id="rlc-item"]').getByText('examples/', { exact: true }).first().waitFor();
	// The picker starts at the top of the bucket, and Include Subfolders sits next to Folder.
	await page.locator('[data-test-id="rlc-item"]').getByText('/ (Top of the Bucket)', { exact: true }).first().waitFor();
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-includeSubfolders"]').waitFor();
	await shoot(screenshotPath('list-contents.png'));
	await page.keyboard.press('Escape');
});

it('the Upload panel names the key as Folder + Path in Folder and says an existing file is replaced', async () => {
	await openNode(EXAMPLE_IDS.upload, 'Upload to File Storage');
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="parameter-input-key"]').waitFor();
	await ndv.getByText('Path in Folder', { exact: true }).first().waitFor();
	await ndv
		.getByText(/is replaced without asking/)
		.first()
		.waitFor();
	await shoot(screenshotPath('upload.png'));
});

/** Saves a workflow of File Storage nodes through n8n's own REST API, as an editor would; its id. */
async function saveWorkflow(
	name: string,
	nodes: Array<{ name: string; parameters: Record<string, unknown>; type?: string; typeVersion?: number }>,
) {
	const saved = await page.evaluate(
		async ({ name, nodes }) => {
			// Runs in the page: the editor keeps its browser id there, and n8n's REST API asks for it.
			const { localStorage } = globalThis as unknown as { localStorage: { getItem(key: string): string | null } };
			const answer = await fetch('/rest/workflows', {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'browser-id': localStorage.getItem('n8n-browserId') ?? '' },
				body: JSON.stringify({
					name,
					active: false,
					connections: {},
					settings: {},
					nodes: nodes.map((node, index) => ({
						id: `saved-${index}`,
						name: node.name,
						type: node.type ?? 'n8n-nodes-file-storage.fileStorage',
						typeVersion: node.typeVersion ?? 3,
						position: [index * 300, 0],
						parameters: node.parameters,
					})),
				}),
			});
			return { status: answer.status, body: (await answer.json()) as { data?: { id?: string } } };
		},
		{ name, nodes },
	);
	expect(saved.status).toBe(200);
	return String(saved.body.data?.id);
}

it('a saved workflow whose Upload still holds File Path opens, showing the option as removed and what to use', async () => {
	// Saved as an older version of the package would have saved it.
	const id = await saveWorkflow('Saved with File Path', [
		{
			name: 'Upload from disk',
			parameters: { operation: 'upload', source: 'filePath', sourceFilePath: '/data/report.pdf', key: 'a.pdf' },
		},
	]);
	await page.goto(`${stack!.editorUrl}/workflow/${id}`);
	await page.dblclick(canvasNode('Upload from disk'));
	const source = page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-source"] input');
	await expect(source.inputValue()).resolves.toBe('File Path (Removed)');
	await page
		.locator('[data-test-id="ndv"]')
		.getByText(/Read\/Write Files from Disk/)
		.first()
		.waitFor();
	await shoot(screenshotPath('file-path-removed.png'));
	await page.keyboard.press('Escape');
});

it('the panels of Get Browser Upload URL, Upload from Text and Transform', async () => {
	const id = await saveWorkflow('Browser uploads, text and transformations', [
		{
			name: 'Browser upload URL',
			parameters: {
				operation: 'signedOperationUrl',
				requestType: '={{ $json.body.type }}',
				browserKey: '={{ $json.body.params.key }}',
			},
		},
		{
			name: 'Upload a text',
			parameters: { operation: 'upload', source: 'text', text: 'Hello', key: 'notes/hello.txt' },
		},
		{ name: 'Thumbnail', parameters: { operation: 'transform', transformation: 'image' } },
	]);
	const panels: Array<[string, string, string]> = [
		['Browser upload URL', 'requestType', 'browser-upload-url.png'],
		['Upload a text', 'text', 'upload-text.png'],
		['Thumbnail', 'transformation', 'transform.png'],
	];
	for (const [node, parameter, file] of panels) {
		await page.goto(`${stack!.editorUrl}/workflow/${id}`);
		await page.dblclick(canvasNode(node));
		await page.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"]`).waitFor();
		await shoot(screenshotPath(file));
		await page.keyboard.press('Escape');
	}
});

it('Source Text names its file in one field, Path in Folder, also with an expression there; a saved File Name still shows', async () => {
	const text = { operation: 'upload', source: 'text', text: 'Hello' };
	const id = await saveWorkflow('Source Text names', [
		{ name: 'New text', parameters: text },
		{ name: 'Text named by expression', parameters: { ...text, key: '={{ $json.name }}' } },
		{ name: 'Text saved with File Name', parameters: { ...text, textFileName: 'notes.txt' } },
	]);
	const fields = async (node: string) => {
		await page.goto(`${stack!.editorUrl}/workflow/${id}`);
		await page.dblclick(canvasNode(node));
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.locator('[data-test-id="parameter-input-key"]').waitFor();
		const count = await ndv.locator('[data-test-id="parameter-input-textFileName"]').count();
		await page.keyboard.press('Escape');
		return count;
	};
	await expect(fields('New text')).resolves.toBe(0);
	await expect(fields('Text named by expression')).resolves.toBe(0);
	// A workflow saved with File Name still names its file by it, so the panel shows it.
	await expect(fields('Text saved with File Name')).resolves.toBe(1);
});

it('the Download panel picks the file By URL, from the location Upload returned', async () => {
	await openNode(EXAMPLE_IDS.upload, 'Download it again');
	const file = page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-fileKey"]');
	await expect(file.locator('[data-test-id="rlc-mode-selector"] input').inputValue()).resolves.toBe('By URL');
	await shoot(screenshotPath('download.png'));
});

it("lists File Storage Trigger among the triggers of a new workflow's first step", async () => {
	await page.goto(`${stack!.editorUrl}/workflow/new`);
	await page.click('[data-test-id="canvas-add-button"]');
	await page.fill('[data-test-id="node-creator-search-bar"]', 'File Storage');
	// n8n lists a trigger under "What triggers this workflow?" by its name without " Trigger".
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator.getByText('What triggers this workflow?').waitFor();
	await creator
		.locator('[data-test-id="node-creator-item-description"]')
		.filter({ hasText: 'Starts the workflow when files are created, updated or deleted' })
		.first()
		.waitFor();
	await page.keyboard.press('Escape');
});

it('shows the trigger panel with its parameters', async () => {
	await page.goto(`${stack!.editorUrl}/workflow/${TRIGGER_EXAMPLE_ID}`);
	await page.locator(canvasNode('New file in inbox')).getByText('Watch my-bucket/inbox/', { exact: true }).waitFor();
	await page.dblclick(canvasNode('New file in inbox'));
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="parameter-input-watchFor"]').waitFor();
	await ndv.locator('[data-test-id="parameter-input-folder"]').waitFor();
	const credential = ndv.locator('[data-test-id="node-credentials-select"] input');
	await expect(credential.inputValue()).resolves.toBe('File Storage (local emulator)');
	await fsp.mkdir(path.dirname(TRIGGER_SCREENSHOT), { recursive: true });
	await shoot(TRIGGER_SCREENSHOT);
});

it('the trigger example processes each new file and moves it to done/: the Move panel', async () => {
	await page.keyboard.press('Escape');
	await page.locator(canvasNode('Get its info')).getByText('Get Info: File', { exact: true }).waitFor();
	await page.locator(canvasNode('Move to done')).getByText('Move: File', { exact: true }).waitFor();
	await page.dblclick(canvasNode('Move to done'));
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-destinationKey"]').waitFor();
	await shoot(screenshotPath('move.png'));
});

it('the file picker finds a file two folders deep by typing part of its name (Get Info panel)', async () => {
	const client = emulatorClient({
		url: stack!.emulatorUrl,
		accessKey: EMULATOR_DEFAULTS.accessKey,
		secretKey: EMULATOR_DEFAULTS.secretKey,
	});
	expect((await client.upload('reports/2026/quarterly-summary.pdf', Buffer.from('%PDF-1.7'))).status).toBe(200);
	await openNode(EXAMPLE_IDS.fileOps, 'Get info of hello.txt');
	const file = page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-fileKey"]');
	await file.locator('[data-test-id="rlc-input"]').click();
	await page.locator('[data-test-id="rlc-search"] input, input[data-test-id="rlc-search"]').first().fill('quarterly');
	await page
		.locator('[data-test-id="rlc-item"]')
		.getByText('reports/2026/quarterly-summary.pdf', { exact: true })
		.first()
		.waitFor();
	await shoot(screenshotPath('file-picker-search.png'));
	await page.keyboard.press('Escape');
});

it('the Copy and Folder → Delete panels', async () => {
	await openNode(EXAMPLE_IDS.fileOps, 'Copy to archive');
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-destinationFolder"]').waitFor();
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-destinationKey"]').waitFor();
	await shoot(screenshotPath('copy.png'));
	await openNode(EXAMPLE_IDS.fileOps, 'What a delete of archive/ would remove');
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-dryRun"]').waitFor();
	await shoot(screenshotPath('folder-delete.png'));
});

/** The placeholder an empty resource locator shows. */
async function locatorPlaceholder(parameter: string): Promise<string | null> {
	const field = page.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${parameter}"]`);
	return await field
		.locator('input[data-test-id="rlc-input"], [data-test-id="rlc-input"] input')
		.first()
		.getAttribute('placeholder');
}

/** The height of the open panel's parameters, in pixels, as the user scrolls through them. */
async function parametersHeight(): Promise<number> {
	const parameters = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]');
	await parameters.waitFor();
	return await parameters.evaluate((element) => Math.max(element.scrollHeight, element.getBoundingClientRect().height));
}

it('an empty Folder or Destination Folder picker reads / (Top of the Bucket), what empty means', async () => {
	await openNode(EXAMPLE_IDS.fileOps, 'Copy to archive');
	await expect(locatorPlaceholder('destinationFolder')).resolves.toBe('/ (Top of the Bucket)');
	const id = await saveWorkflow('An Upload with no folder', [{ name: 'Upload', parameters: { operation: 'upload' } }]);
	await page.goto(`${stack!.editorUrl}/workflow/${id}`);
	await page.dblclick(canvasNode('Upload'));
	await expect(locatorPlaceholder('folder')).resolves.toBe('/ (Top of the Bucket)');
	await page.keyboard.press('Escape');
});

it('Copy into a Destination Folder: Destination Path reads as the name inside it, and the panel says what checked means', async () => {
	const id = await saveWorkflow('Copy into a folder', [
		{
			name: 'Copy into archive',
			parameters: {
				operation: 'copy',
				fileKey: { __rl: true, mode: 'path', value: 'examples/hello.txt' },
				destinationFolder: { __rl: true, mode: 'list', value: 'archive/' },
			},
		},
	]);
	await page.goto(`${stack!.editorUrl}/workflow/${id}`);
	await page.dblclick(canvasNode('Copy into archive'));
	const ndv = page.locator('[data-test-id="ndv"]');
	const path = ndv.locator('[data-test-id="parameter-input-destinationKey"] input').first();
	await expect(path.getAttribute('placeholder')).resolves.toBe('e.g. report.pdf');
	await ndv
		.getByText(/inside Destination Folder; empty keeps the current name/)
		.first()
		.waitFor();
	await ndv
		.getByText(/checked lists what was/)
		.first()
		.waitFor();
	await page.keyboard.press('Escape');
});

it('Folder → Delete says before a run what it will delete', async () => {
	const id = await saveWorkflow('Delete a folder', [
		{
			name: 'Delete reports',
			parameters: { resource: 'folder', operation: 'delete', folder: { __rl: true, mode: 'list', value: 'reports/' } },
		},
	]);
	await page.goto(`${stack!.editorUrl}/workflow/${id}`);
	await page.dblclick(canvasNode('Delete reports'));
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv
		.getByText(/A run deletes every file under Folder, in all its sub-folders too/)
		.first()
		.waitFor();
	await page.keyboard.press('Escape');
});

it("a new Upload's panel is about as tall as n8n's own AWS S3 Upload", async () => {
	const id = await saveWorkflow('Upload panels side by side', [
		{ name: 'File Storage Upload', parameters: { operation: 'upload' } },
		{
			name: 'S3 Upload',
			type: 'n8n-nodes-base.awsS3',
			typeVersion: 2,
			parameters: { resource: 'file', operation: 'upload' },
		},
	]);
	const heights: Record<string, number> = {};
	for (const node of ['File Storage Upload', 'S3 Upload']) {
		await page.goto(`${stack!.editorUrl}/workflow/${id}`);
		await page.dblclick(canvasNode(node));
		heights[node] = await parametersHeight();
		await page.keyboard.press('Escape');
	}
	process.stdout.write(`panel heights: ${JSON.stringify(heights)}\n`);
	// Measured on n8n 2.41.1: 1.29 × S3's before the panel was shortened, 1.2 × after.
	expect(heights['File Storage Upload']).toBeLessThanOrEqual(1.25 * heights['S3 Upload']);
});

it("the node creator lists the node's everyday actions, not the four step-by-step multipart steps", async () => {
	await page.goto(`${stack!.editorUrl}/workflow/${EXAMPLE_IDS.upload}`);
	await page.waitForSelector(canvasNode('Upload to File Storage'));
	await page.click('[data-test-id="node-creator-plus-button"]');
	await page.fill('[data-test-id="node-creator-search-bar"]', 'File Storage');
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator
		.locator('[data-test-id="node-creator-item-name"]')
		.getByText('File Storage', { exact: true })
		.first()
		.click();
	await creator.getByText('Upload a file', { exact: true }).first().waitFor();
	await creator.getByText('Delete a folder', { exact: true }).first().waitFor();
	await expect(creator.getByText('Start a multipart upload', { exact: true }).count()).resolves.toBe(0);
	await page.keyboard.press('Escape');
});
