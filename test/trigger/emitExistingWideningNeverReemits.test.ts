/**
 * Emit Existing Files and a widened scope, through n8n-core's PollContext against the emulator. When
 * the new scope contains the old one (Include Subfolders turned on, a filter widened), the files of
 * the old scope were watched and emitted already: the old state names each of them (key hash and
 * fingerprint), so they keep their record and only the files the new scope adds are emitted.
 *
 * Promises (docs/trigger.md): "Each change is emitted exactly once"; "Emit Existing Files: ...
 * another folder emits its files once".
 */
import { emulatorClient } from '../emulator/conformance/client';
import { apiFor, BUCKET, nextSecond, Poller, put, remove, useEmulator } from './support';

const OTHER = { name: 'other-bucket', region: 'eu-west-1' };

const emulator = useEmulator({
	buckets: [{ name: BUCKET.bucketName, region: BUCKET.region }, OTHER],
});
const api = () => apiFor(emulator());

describe('Emit Existing Files when the watched scope is widened', () => {
	it("turning Include Subfolders on emits the sub-folders' files, not again the folder's own files", async () => {
		await put(api(), 'widen-sub/top.txt');
		await put(api(), 'widen-sub/deeper/deep.txt');
		const options = { emitExistingFiles: true };
		const trigger = new Poller(emulator, { folder: 'widen-sub', watchFor: ['created'], options } as never);
		expect(await trigger.changes()).toEqual([['created', 'widen-sub/top.txt']]);
		expect(await trigger.changes()).toEqual([]);
		const widened = await trigger.changes({ parameters: { includeSubfolders: true } as never });
		// top.txt was watched and emitted already, and has not changed since.
		expect(widened).toEqual([['created', 'widen-sub/deeper/deep.txt']]);
	});

	it('widening the File Name Filter emits the newly matching files, not again those emitted before', async () => {
		await put(api(), 'widen-filter/invoice.pdf');
		await put(api(), 'widen-filter/notes.txt');
		const trigger = new Poller(emulator, {
			folder: 'widen-filter',
			watchFor: ['created'],
			options: { emitExistingFiles: true, fileNameFilter: '*.pdf' },
		} as never);
		expect(await trigger.changes()).toEqual([['created', 'widen-filter/invoice.pdf']]);
		const widened = await trigger.changes({
			parameters: { options: { emitExistingFiles: true, fileNameFilter: '*.{pdf,txt}' } } as never,
		});
		expect(widened).toEqual([['created', 'widen-filter/notes.txt']]);
	});

	it('with File Deleted too, a file the old scope recorded keeps its key: its deletion is reported later', async () => {
		await put(api(), 'widen-del/top.txt');
		await put(api(), 'widen-del/deeper/deep.txt');
		const options = { emitExistingFiles: true };
		const trigger = new Poller(emulator, { folder: 'widen-del', watchFor: ['created', 'deleted'], options } as never);
		expect(await trigger.changes()).toEqual([['created', 'widen-del/top.txt']]);
		const widened = { parameters: { includeSubfolders: true } as never };
		expect(await trigger.changes(widened)).toEqual([['created', 'widen-del/deeper/deep.txt']]);
		await remove(api(), 'widen-del/top.txt');
		expect(await trigger.changes(widened)).toEqual([['deleted', 'widen-del/top.txt']]);
	});

	it('the same folder of another bucket is not taken for a wider scope: its files are emitted once', async () => {
		// The same key, size, type and second in both buckets: the same key hash and fingerprint.
		await nextSecond();
		await put(api(), 'widen-other/a.txt');
		await put(emulatorClient(emulator(), OTHER.name, OTHER.region), 'widen-other/a.txt');
		const options = { emitExistingFiles: true };
		const trigger = new Poller(emulator, { folder: 'widen-other', watchFor: ['created'], options } as never);
		expect(await trigger.changes()).toEqual([['created', 'widen-other/a.txt']]);
		const other = { parameters: { bucketName: OTHER.name, region: OTHER.region } as never };
		expect(await trigger.changes(other)).toEqual([['created', 'widen-other/a.txt']]);
	});
});
