/**
 * Emit Existing Files when the watched folder is changed on an active trigger, polled through
 * n8n-core's PollContext against the emulator over real HTTP. The files of the new folder were never
 * emitted (they were not watched), so recording them silently means the workflow never sees them.
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('Emit Existing Files and a changed folder', () => {
	it('the files already in the newly watched folder, never emitted before, are emitted as created', async () => {
		await put(api(), 'eef-a/a.txt');
		await put(api(), 'eef-b/unprocessed-1.txt');
		await put(api(), 'eef-b/unprocessed-2.txt');
		const trigger = new Poller(emulator, {
			folder: 'eef-a',
			watchFor: ['created'],
			options: { emitExistingFiles: true },
		} as never);
		expect(await trigger.changes()).toEqual([['created', 'eef-a/a.txt']]);
		// The user points the active trigger at another folder (a workflow saved with Emit Existing Files on).
		const moved = await trigger.changes({ parameters: { folder: 'eef-b' } as never });
		expect(moved.sort()).toEqual([
			['created', 'eef-b/unprocessed-1.txt'],
			['created', 'eef-b/unprocessed-2.txt'],
		]);
	});
});
