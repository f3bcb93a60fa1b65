/**
 * Emit Existing Files turned off for a while, then on again. docs/trigger.md: the first poll after
 * Folder, the filter or Include Subfolders changed emits "the files the old state never recorded (they
 * were never watched, so never emitted)"; "Emit Existing Files, scope narrowed then widened back: no file
 * emitted before is emitted again"; "Each change is emitted exactly once".
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('Emit Existing Files turned off while the scope is narrowed, then on while it is widened back', () => {
	it('a file emitted at activation and never changed is not emitted again', async () => {
		await put(api(), 'toggle-sub/top.txt');
		await put(api(), 'toggle-sub/deeper/deep.txt');
		const trigger = new Poller(emulator, {
			folder: 'toggle-sub',
			includeSubfolders: true,
			watchFor: ['created'],
			options: { emitExistingFiles: true },
		} as never);
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'toggle-sub/deeper/deep.txt'],
			['created', 'toggle-sub/top.txt'],
		]);
		// Narrowed with Emit Existing Files off: a starting point, nothing emitted.
		const narrowed = { parameters: { includeSubfolders: false, options: { emitExistingFiles: false } } as never };
		expect(await trigger.changes(narrowed)).toEqual([]);
		// Back to the scope of activation, Emit Existing Files on again; nothing was stored, changed or deleted.
		expect(await trigger.changes()).toEqual([]);
	});
});
