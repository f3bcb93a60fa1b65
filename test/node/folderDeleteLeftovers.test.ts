/**
 * Folder → Delete against a folder that changes while it is emptied (a scripted list server that
 * also deletes), through n8n's engine: it never reports plain success while files are still
 * there, and it empties a folder of several pages a page at a time.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { ScriptedFolder, startListServer, type ListServer } from './listServer';

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
