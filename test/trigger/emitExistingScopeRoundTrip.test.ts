/**
 * Emit Existing Files when the watched scope is narrowed and then widened back. docs/trigger.md: the first
 * poll after Folder, the filter or Include Subfolders changed emits "the files the old state never recorded
 * (they were never watched, so never emitted)"; "another folder emits its files once"; "Each change is
 * emitted exactly once". A file the trigger watched and emitted before the scope was narrowed was watched
 * and emitted: widening back to where it was must not emit it again as `created`.
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('Emit Existing Files when a scope is narrowed, then widened back', () => {
	it('Include Subfolders turned off and on again: a sub-folder file emitted before is not emitted again', async () => {
		await put(api(), 'round-sub/top.txt');
		await put(api(), 'round-sub/deeper/deep.txt');
		const options = { emitExistingFiles: true };
		const trigger = new Poller(emulator, {
			folder: 'round-sub',
			includeSubfolders: true,
			watchFor: ['created'],
			options,
		} as never);
		const first = await trigger.changes();
		expect(first.sort()).toEqual([
			['created', 'round-sub/deeper/deep.txt'],
			['created', 'round-sub/top.txt'],
		]);
		expect(await trigger.changes({ parameters: { includeSubfolders: false } as never })).toEqual([]);
		// Back to the scope of activation; nothing was stored, changed or deleted meanwhile.
		expect(await trigger.changes({ parameters: { includeSubfolders: true } as never })).toEqual([]);
	});

	it('a File Name Filter narrowed and widened back: a file emitted before is not emitted again', async () => {
		await put(api(), 'round-filter/invoice.pdf');
		await put(api(), 'round-filter/notes.txt');
		const trigger = new Poller(emulator, {
			folder: 'round-filter',
			watchFor: ['created'],
			options: { emitExistingFiles: true },
		} as never);
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'round-filter/invoice.pdf'],
			['created', 'round-filter/notes.txt'],
		]);
		const narrowed = { parameters: { options: { emitExistingFiles: true, fileNameFilter: '*.pdf' } } as never };
		expect(await trigger.changes(narrowed)).toEqual([]);
		expect(await trigger.changes()).toEqual([]);
	});
});
