/**
 * Emit Existing Files with File Deleted watched, when the scope is widened (Include Subfolders turned on).
 * docs/trigger.md: "A file the old state recorded in the same bucket and region (a folder or filter widened,
 * Include Subfolders turned on) keeps its record: it is not emitted again, and a change made to it since the
 * last poll comes as `updated`"; "Each change is emitted exactly once". A file watched before and after the
 * widening (with File Deleted) that went away between the two polls is such a change: its deletion.
 */
import { apiFor, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('Emit Existing Files, Include Subfolders turned on, File Deleted watched', () => {
	it('a file watched in both scopes and deleted since the last poll is reported deleted', async () => {
		await put(api(), 'widen-del/keep.txt');
		await put(api(), 'widen-del/gone.txt');
		await put(api(), 'widen-del/deeper/deep.txt');
		const trigger = new Poller(emulator, {
			folder: 'widen-del',
			includeSubfolders: false,
			watchFor: ['created', 'updated', 'deleted'],
			options: { emitExistingFiles: true },
		} as never);
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'widen-del/gone.txt'],
			['created', 'widen-del/keep.txt'],
		]);
		expect(await trigger.changes()).toEqual([]);
		// Deleted between two polls; the next poll watches the sub-folders too.
		await remove(api(), 'widen-del/gone.txt');
		const widened = await trigger.changes({ parameters: { includeSubfolders: true } as never });
		const later = await trigger.changes({ parameters: { includeSubfolders: true } as never });
		expect([...widened, ...later].sort()).toEqual([
			['created', 'widen-del/deeper/deep.txt'],
			['deleted', 'widen-del/gone.txt'],
		]);
	});
});
