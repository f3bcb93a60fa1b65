/**
 * Folder → Delete against a folder that changes while it is emptied (a scripted list server that
 * also deletes), through n8n's engine: it never reports plain success while files are still
 * there, and it empties a folder of several pages a page at a time.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import {
	pagesOf,
	ScriptedFolder,
	deleteFolderAt,
	startListServer,
	type ListAnswer,
	type ListRequest,
	type ListServer,
} from './listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

const names = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}.txt`);

async function deleteFolder(
	folder: ScriptedFolder,
	extra: { continueOnFail?: boolean; parameters?: INodeParameters } = {},
) {
	server = await startListServer(folder.answer, undefined, folder.exists, folder.deleteKey);
	return await runNode({
		credentials: { fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url } },
		typeVersion: 3,
		continueOnFail: extra.continueOnFail,
		parameters: {
			bucketName: 'b',
			region: 'r',
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: folder.prefix },
			...extra.parameters,
		},
	});
}

/** A writer faster than the delete: before every list request, `count` new files arrive. */
function busyWriter(folder: ScriptedFolder, count: number): void {
	let written = 0;
	folder.beforeAnswer = () => {
		for (let i = 0; i < count; i++) folder.put(`new-${String(written++).padStart(6, '0')}.txt`);
	};
}

describe('Folder → Delete while files keep arriving', () => {
	it('never reports plain success while files are still there after its last round: the error names them and counts the rest', async () => {
		const folder = new ScriptedFolder('busy/', names('f', 30));
		busyWriter(folder, 20);
		const result = await deleteFolder(folder);
		expect(folder.keys().length).toBeGreaterThan(0);
		expect(result.error?.message).toMatch(
			/^Deleted \d+ files, but \d+ files are still under 'busy\/' after 3 rounds of listing and deleting: 'busy\/new-\d{6}\.txt'(, 'busy\/new-\d{6}\.txt'){9} and \d+ more$/,
		);
		expect(result.error?.description).toMatch(/Stop what writes there and run the node again/);
	});

	it('with Continue On Fail, each file still there is an item with deleted: false and the reason', async () => {
		const folder = new ScriptedFolder('busy/', names('f', 30));
		busyWriter(folder, 20);
		const result = await deleteFolder(folder, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		const left = result.items.filter((item) => item.json.deleted === false);
		expect(left.length).toBeGreaterThan(0);
		expect(String(left[0].json.error)).toMatch(/still under 'busy\/' after 3 rounds of listing and deleting$/);
		expect(left.every((item) => String(item.json.key).startsWith('busy/new-'))).toBe(true);
		expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});
});

describe('Folder → Delete while a file is written again as soon as it goes', () => {
	it('a file the last read still names is deleted again or named as still there, never a plain success', async () => {
		const folder = new ScriptedFolder('beat/', [...names('f', 5), 'heartbeat.txt']);
		// Another workflow writes its heartbeat again whenever it is gone (before each list request).
		let reads = 0;
		folder.beforeAnswer = () => {
			if (++reads > 1 && !folder.exists('beat/heartbeat.txt')) folder.put('heartbeat.txt');
		};
		const result = await deleteFolder(folder);
		expect(folder.keys()).toEqual(['beat/heartbeat.txt']);
		expect(result.error?.message).toMatch(
			/1 file is still under 'beat\/' after 3 rounds of listing and deleting: 'beat\/heartbeat\.txt'$/,
		);
	});
});

describe('Folder → Delete of a folder of several pages', () => {
	it('empties 2,500 files reading one page at a time (each page read again after its files went), and says each file once', async () => {
		const folder = new ScriptedFolder('many/', names('f', 2500));
		const result = await deleteFolder(folder);
		expect(result.error).toBeUndefined();
		expect(folder.keys()).toEqual([]);
		const keys = result.items.map((item) => String(item.json.key));
		expect(new Set(keys).size).toBe(2500);
		// Page 1 three times with files, once empty: never more than one page of the folder at once.
		expect(server!.requests.map((request) => request.page)).toEqual([1, 1, 1, 1]);
	});

	it('files removed by someone else while it runs are no leftovers, and what moved up is deleted too', async () => {
		const folder = new ScriptedFolder('moving/', names('f', 2500));
		let reads = 0;
		folder.beforeAnswer = () => {
			if (++reads === 2) for (const name of names('f', 10)) folder.remove(name);
		};
		const result = await deleteFolder(folder);
		expect(result.error).toBeUndefined();
		expect(folder.keys()).toEqual([]);
	});
});

/**
 * A folder of sub-folder entries and files, paged as the spec pages it (folders first, each group by
 * name), whose entries a test changes before each list request; its delete endpoint deletes files.
 */
class FoldersThenFiles {
	readonly folders = new Set<string>();
	readonly files = new Set<string>();
	beforeAnswer?: (request: ListRequest) => void;

	constructor(readonly prefix: string) {}

	private entries(): object[] {
		const folder = (path: string) => ({
			name: path.slice(this.prefix.length, -1),
			type: 'folder',
			path,
			size: null,
			last_modified: null,
		});
		const file = (path: string) => ({
			name: path.slice(this.prefix.length),
			type: 'file',
			path,
			size: 1,
			content_type: 'text/plain',
			last_modified: '2026-01-01T00:00:00Z',
			visibility: 'private',
		});
		return [...[...this.folders].sort().map(folder), ...[...this.files].sort().map(file)];
	}

	readonly answer: ListAnswer = (request) => {
		this.beforeAnswer?.(request);
		const entries = this.entries();
		return pagesOf(entries.length, (index) => entries[index])(request);
	};

	readonly exists = (key: string): boolean => this.files.has(key);
	readonly deleteKey = (key: string): boolean => this.files.delete(key);
}

describe('Folder → Delete of a folder whose sub-folders fill more than a page (Include Subfolders off)', () => {
	async function run(folder: FoldersThenFiles) {
		server = await startListServer(folder.answer, undefined, folder.exists, folder.deleteKey);
		return await deleteFolderAt(server, folder.prefix, { includeSubfolders: false });
	}
	const subfolders = (folder: FoldersThenFiles, from: number, count: number) => {
		for (let i = from; i < from + count; i++) folder.folders.add(`${folder.prefix}s${String(i).padStart(5, '0')}/`);
	};

	it('a file that slid onto page 1 while sub-folders went away is deleted, never a plain success with it still there', async () => {
		const folder = new FoldersThenFiles('wide/');
		subfolders(folder, 0, 1000);
		folder.files.add('wide/z.txt');
		// Someone empties the first sub-folder between the two page requests of the first walk: z.txt moves onto page 1.
		let reads = 0;
		folder.beforeAnswer = () => {
			if (++reads === 2) folder.folders.delete('wide/s00000/');
		};
		const result = await run(folder);
		expect(result.error).toBeUndefined();
		expect(folder.files.has('wide/z.txt')).toBe(false);
	});

	it('a file every walk misses (pages move under each of them) is named as still there, never a plain success', async () => {
		const folder = new FoldersThenFiles('wide/');
		subfolders(folder, 0, 999);
		folder.files.add('wide/z.txt');
		// Before each page 1 a sub-folder arrives, before each page 2 one goes: every walk reads z.txt on neither page.
		let added = 999;
		folder.beforeAnswer = ({ page, limit }) => {
			if (limit !== 1000) return;
			if (page === 1) subfolders(folder, added++, 1);
			else folder.folders.delete([...folder.folders].sort()[0]);
		};
		const result = await run(folder);
		expect(folder.files.has('wide/z.txt')).toBe(true);
		expect(result.error?.message).toMatch(/'wide\/z\.txt'/);
	});
});
