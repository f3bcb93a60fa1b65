/**
 * Include Subfolders off watches only the folder's own files. A service (or a gateway in front of it) whose
 * one-level listing also names deeper files (a flat, S3-style listing without a delimiter) must not widen
 * what the trigger reports: Folder → Delete already refuses to act on such deeper entries (docs/operations.md:
 * "with Include Subfolders off only the folder's own files are deleted, even if the service lists deeper ones").
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

describe('a one-level listing that also names deeper files', () => {
	it('with Include Subfolders off, a file of a sub-folder is never emitted', async () => {
		const folder = new ScriptedFolder('inbox/', ['a.txt']);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, {
			folder: 'inbox',
			includeSubfolders: false,
			watchFor: ['created', 'updated', 'deleted'],
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		folder.put('b.txt');
		folder.put('archive/old.txt');
		expect(await trigger.changes()).toEqual([['created', 'inbox/b.txt']]);
	});
});
