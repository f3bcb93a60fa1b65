/**
 * The editor as a review found it (issue 30, item 5): the Folder picker's top of the bucket, one
 * place for Include Subfolders, a destination folder picker for Copy and Move, and errors that say
 * in words what was not found or that the Base URL is not the API. Through n8n-core against the emulator.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';

import { runListSearch, runPoll } from '../harness';
import { BUCKET, byKey, credentialsFor, fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const searchFolders = async (filter?: string, operation = 'listContents', resource = 'bucket') =>
	await runListSearch({
		method: 'searchFolders',
		parameters: { ...BUCKET, resource, operation },
		credentials: credentialsFor(emulator()),
		filter,
	});

beforeAll(async () => {
	for (const key of ['tree/top.txt', 'tree/a/one.txt', 'inbox/report.pdf', 'root.txt']) {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key },
			{ items: [fileItem(Buffer.from(`content of ${key}`), key, 'text/plain')] },
		);
		expect(stored.error).toBeUndefined();
	}
});

describe('the Folder picker offers the top of the bucket', () => {
	it('lists the top of the bucket first when nothing is typed, and not inside a folder', async () => {
		const top = await searchFolders();
		expect(top.results[0]).toEqual({ name: '/ (Top of the Bucket)', value: '/' });
		expect(top.results.slice(1).map((r) => r.value)).toEqual(expect.arrayContaining(['tree/', 'inbox/']));
		const inside = await searchFolders('tree/');
		expect(inside.results.map((r) => r.value)).not.toContain('/');
		const typed = await searchFolders('tr');
		expect(typed.results.map((r) => r.value)).not.toContain('/');
	});

	it('picking it lists the top of the bucket', async () => {
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: { __rl: true, mode: 'list', value: '/' },
			returnAll: true,
		});
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((item) => item.json.path)).toEqual(expect.arrayContaining(['tree/', 'root.txt']));
	});

	it('picking it in the trigger watches the top of the bucket', async () => {
		const polled = await runPoll({
			credentials: credentialsFor(emulator()),
			parameters: { ...BUCKET, folder: { __rl: true, mode: 'list', value: '/' }, options: { emitExistingFiles: true } },
		});
		expect(polled.error).toBeUndefined();
		expect(polled.items.map((item) => item.json.key)).toEqual(['root.txt']);
	});

	it('picking it for Folder → Delete still needs Allow Whole Bucket', async () => {
		const refused = await runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'list', value: '/' },
			dryRun: true,
		});
		expect(refused.error?.message).toMatch(/would delete the whole bucket/);
	});
});

describe('Include Subfolders of List Contents', () => {
	it('is a parameter next to Folder, as in the trigger and Folder → Delete', async () => {
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: { __rl: true, mode: 'path', value: 'tree/' },
			includeSubfolders: true,
			returnAll: true,
		});
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((item) => item.json.path)).toEqual(
			expect.arrayContaining(['tree/a/', 'tree/a/one.txt', 'tree/top.txt']),
		);
	});

	it('a saved workflow that turned it on under Options still descends', async () => {
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: { __rl: true, mode: 'path', value: 'tree/' },
			options: { recursive: true },
			returnAll: true,
		});
		expect(listed.items.map((item) => item.json.path)).toContain('tree/a/one.txt');
	});

	it('off (the default) lists one level', async () => {
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: { __rl: true, mode: 'path', value: 'tree/' },
			returnAll: true,
		});
		expect(listed.items.map((item) => item.json.path)).toEqual(['tree/a/', 'tree/top.txt']);
	});
});

describe('Copy and Move: the Destination Folder picker', () => {
	/** Copy or Move of `key` with these destination parameters. */
	const copyOrMove = async (operation: 'copy' | 'move', key: string, destination: INodeParameters) =>
		await runFileStorage(emulator(), { resource: 'file', operation, fileKey: byKey(key), ...destination });

	it('copies into the picked folder under the current name when Destination Path is empty', async () => {
		const result = await copyOrMove('copy', 'inbox/report.pdf', {
			destinationFolder: { __rl: true, mode: 'list', value: 'tree/a/' },
			destinationKey: '',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('tree/a/report.pdf');
	});

	it('puts a Destination Path inside the picked folder', async () => {
		const result = await copyOrMove('move', 'tree/top.txt', {
			destinationFolder: { __rl: true, mode: 'path', value: 'done' },
			destinationKey: 'renamed.txt',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('done/renamed.txt');
	});

	it('the top of the bucket, picked, puts the copy at the top', async () => {
		const result = await copyOrMove('copy', 'inbox/report.pdf', {
			destinationFolder: { __rl: true, mode: 'list', value: '/' },
			destinationKey: '',
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('report.pdf');
	});

	it('a saved Destination Path alone works as before, and neither set names both fields', async () => {
		const saved = await copyOrMove('copy', 'inbox/report.pdf', {
			destinationKey: 'saved/copy.pdf',
		});
		expect(saved.items[0].json.key).toBe('saved/copy.pdf');
		const neither = await copyOrMove('copy', 'inbox/report.pdf', {
			destinationKey: '',
		});
		expect(neither.error?.message).toMatch(/'Destination Path' is empty/);
		expect(neither.error?.description).toMatch(/Destination Folder/);
		// The empty picker reads "/ (Top of the Bucket)": the fix says that / must be picked for it.
		expect(neither.error?.description).toMatch(/pick \/ for the top of the bucket/);
	});
});

describe('a 404 names what was not found', () => {
	it('List Contents of an unknown bucket names the bucket and its region', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			bucketName: 'no-such-bucket',
		});
		expect(result.error?.description).toMatch(/bucket 'no-such-bucket'.*region us-east-1/);
		expect(result.error?.description).not.toMatch(/upload ID/);
	});

	it('Delete of a missing file names the file, the bucket and the region', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('inbox/never-there.txt'),
		});
		expect(result.error?.description).toMatch(/'inbox\/never-there\.txt'.*bucket 'my-bucket'.*region us-east-1/);
		expect(result.error?.description).not.toMatch(/upload ID/);
	});
});

describe('a Base URL that is not the API: the headline says so in words', () => {
	let web: Server;
	let origin = '';
	beforeAll(async () => {
		web = createServer((req, res) => {
			req.resume();
			res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"not found"}');
		});
		await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => web.close(resolve)));

	it.each<[string, INodeParameters]>([
		['List Contents', { resource: 'bucket', operation: 'listContents' }],
		['Get Signed URL', { resource: 'file', operation: 'getSignedUrl', fileKey: byKey('a.txt') }],
	])('%s: the server and its status in words, its own words in the description, no secret', async (_, params) => {
		const credentials = credentialsFor(emulator(), { baseUrl: origin });
		const result = await runFileStorage(emulator(), params, { credentials });
		expect(result.error?.message).toMatch(
			new RegExp(`The server at ${origin.replace(/[.]/g, '\\.')} answered HTTP 404 .*is the Base URL right\\?`),
		);
		expect(result.error?.message).not.toContain('{');
		expect(result.error?.description).toMatch(/not found/);
		expect(result.error?.description).toMatch(/The Base URL did not answer like the File Storage API/);
		expect(JSON.stringify(result.error)).not.toContain(String(credentials.fileStorageApi.secretKey));
	});
});
