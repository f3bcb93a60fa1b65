/**
 * A change of scope whose new folder could record no starting point (it changed during each scan).
 * docs/trigger.md, Emit Existing Files: "Records are kept aside by every change of scope in the same bucket, also while
 * Emit Existing Files is off, so turning it on later emits none of the files recorded before"; and "Emit Existing Files
 * turned off while the scope is narrowed, on again when widened back: no file emitted before comes again".
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** A folder of 3,000 files that, when `busy`, is rewritten between every two of a scan's requests. */
function busyFolder(): { folder: ScriptedFolder; setBusy: (busy: boolean) => void } {
	let next = 0;
	const name = () => `f${String(next++).padStart(6, '0')}.txt`;
	const folder = new ScriptedFolder('busy/', Array.from({ length: 3000 }, name));
	let busy = false;
	folder.beforeAnswer = (request) => {
		if (!busy || (request.page === 1 && request.limit === 1000)) return;
		for (const key of folder.keys().slice(0, 300)) folder.deleteKey(key);
		for (let i = 0; i < 300; i++) folder.put(name());
	};
	return { folder, setBusy: (value) => (busy = value) };
}

async function startServer(busy: ScriptedFolder, quiet: ScriptedFolder): Promise<ListServer> {
	return await startListServer(
		(request) => (request.prefix === 'quiet/' ? quiet.answer(request) : busy.answer(request)),
		undefined,
		(key) => (key.startsWith('quiet/') ? quiet.exists(key) : busy.exists(key)),
	);
}

describe('Emit Existing Files: a folder chosen meanwhile that could record no starting point', () => {
	it('keeps the records of the folder watched before: going back to it emits none of its files again', async () => {
		const { folder: busy, setBusy } = busyFolder();
		const quiet = new ScriptedFolder('quiet/', ['a.txt', 'b.txt']);
		server = await startServer(busy, quiet);
		const trigger = new Poller(server, {
			folder: 'quiet',
			watchFor: ['created'],
			options: { emitExistingFiles: true },
		} as never);
		// Activation with Emit Existing Files: both files emitted once.
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'quiet/a.txt'],
			['created', 'quiet/b.txt'],
		]);
		expect(await trigger.changes()).toEqual([]);
		// Emit Existing Files off, another folder that changes during every scan of the poll.
		setBusy(true);
		expect(await trigger.changes({ parameters: { folder: 'busy', options: {} } as never })).toEqual([]);
		setBusy(false);
		// Back to the first folder, Emit Existing Files on again: nothing there is new.
		expect(await trigger.changes()).toEqual([]);
	});

	it('Emit Existing Files turned on later emits none of the files recorded before', async () => {
		const { folder: busy, setBusy } = busyFolder();
		const quiet = new ScriptedFolder('quiet/', ['a.txt', 'b.txt']);
		server = await startServer(busy, quiet);
		const trigger = new Poller(server, { folder: 'quiet', watchFor: ['created'], options: {} } as never);
		// Activation records both files.
		expect(await trigger.changes()).toEqual([]);
		setBusy(true);
		expect(await trigger.changes({ parameters: { folder: 'busy' } as never })).toEqual([]);
		setBusy(false);
		const on = { parameters: { options: { emitExistingFiles: true } } as never };
		expect(await trigger.changes(on)).toEqual([]);
	});
});
