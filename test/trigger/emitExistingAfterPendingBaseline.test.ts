/**
 * Emit Existing Files after a poll that could record no starting point. docs/trigger.md: after a lost
 * state whose scans never settle, "the next poll records a new starting point" (a mark that none was
 * recorded is saved with the stateLost item); and with Emit Existing Files, "the first poll after Folder,
 * the filter or Include Subfolders changed" emits the files "the old state never recorded". A mark that
 * records no file, saved for one folder, must not stand for another folder's starting point.
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
		// 300 files at the front go away, 300 new ones sort last: every boundary moves past its windows.
		for (const key of folder.keys().slice(0, 300)) folder.deleteKey(key);
		for (let i = 0; i < 300; i++) folder.put(name());
	};
	return { folder, setBusy: (value) => (busy = value) };
}

describe('Emit Existing Files after a lost state whose scans never settled', () => {
	it("another folder chosen next emits that folder's files once, as on any change of folder", async () => {
		const { folder: busy, setBusy } = busyFolder();
		const quiet = new ScriptedFolder('quiet/', ['a.txt', 'b.txt']);
		server = await startListServer(
			(request) => (request.prefix === 'quiet/' ? quiet.answer(request) : busy.answer(request)),
			undefined,
			(key) => (key.startsWith('quiet/') ? quiet.exists(key) : busy.exists(key)),
		);
		const options = { emitExistingFiles: true };
		const trigger = new Poller(server, { folder: 'busy', watchFor: ['created'], options } as never);
		// Activation with Emit Existing Files: 3,000 files emitted (Max Files Per Poll at a time) until recorded.
		for (let poll = 0; poll < 40 && (await trigger.changes()).length > 0; poll++);
		expect(await trigger.changes()).toEqual([]);
		// The saved state is damaged; the folder then changes during every scan of the next poll.
		trigger.savedState = { version: 1, scope: 'not a scope' };
		setBusy(true);
		const lost = await trigger.changes();
		expect(lost.map(([event]) => event)).toEqual(['stateLost']);
		setBusy(false);
		// The user points the trigger at another folder; Emit Existing Files is on.
		const other = { parameters: { folder: 'quiet' } as never };
		expect((await trigger.changes(other)).sort()).toEqual([
			['created', 'quiet/a.txt'],
			['created', 'quiet/b.txt'],
		]);
	});
});
