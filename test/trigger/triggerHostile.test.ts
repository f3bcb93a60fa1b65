/**
 * The File Storage Trigger under a hostile world, polled through n8n-core's PollContext against the
 * emulator over real HTTP (and, for folders of several pages, the scripted list server): polls that
 * overlap, a saved state that is lost, an n8n restart between polls, Watch For changed between polls.
 * Each test names the behaviour it keeps.
 */
import type { IDataObject } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { apiFor, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

function watch(folder: string, parameters: Record<string, unknown> = {}) {
	return new Poller(emulator, { folder, ...parameters } as never);
}

const keysOf = (items: Array<{ json: IDataObject }>) =>
	items.map((item) => [String(item.json.event), String(item.json.key)]);

beforeEach(() => {
	emulator().setFaults([]);
	emulator().adversary.setHooks(undefined);
});

describe('two polls of one trigger that overlap', () => {
	it('a file created once is emitted once, though a second poll starts while the first is still downloading it', async () => {
		await put(api(), 'ovl/old.txt');
		const trigger = watch('ovl', { watchFor: ['created'], options: { downloadFile: true } });
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), 'ovl/new.txt', 'the new file');
		// The first poll's download is held (a slow CDN, a big file) past the next tick of Poll Times.
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		let reached: () => void = () => undefined;
		const downloading = new Promise<void>((resolve) => (reached = resolve));
		let cdnCalls = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'cdn' && cdnCalls++ === 0) {
					reached();
					await held;
				}
				return undefined;
			},
		});
		const first = trigger.poll();
		await downloading;
		// n8n's scheduler fires the next poll on its tick whether or not the previous one returned;
		// the first has not saved anything yet, so the static data is what it was.
		const second = await trigger.poll();
		release();
		const firstResult = await first;
		expect(firstResult.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		const emitted = [...keysOf(firstResult.items), ...keysOf(second.items)];
		expect(emitted).toEqual([['created', 'ovl/new.txt']]);
	});

	it('a poll that fails does not keep the next ones from running', async () => {
		await put(api(), 'ovl-fail/old.txt');
		const trigger = watch('ovl-fail', { watchFor: ['created'], options: { maxRetries: 0 } });
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), 'ovl-fail/new.txt');
		emulator().setFaults([{ operation: 'list', nth: [1], status: 500 }]);
		const failed = await trigger.poll();
		emulator().setFaults([]);
		expect(failed.error).toBeDefined();
		expect(await trigger.changes()).toEqual([['created', 'ovl-fail/new.txt']]);
	});
});

describe('a saved state that cannot be read, with Emit Existing Files on', () => {
	it('is reported as stateLost only: the files emitted before are not emitted again as created', async () => {
		await put(api(), 'lostex/a.txt');
		await put(api(), 'lostex/b.txt');
		const trigger = watch('lostex', { watchFor: ['created'], options: { emitExistingFiles: true } });
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'lostex/a.txt'],
			['created', 'lostex/b.txt'],
		]);
		expect(await trigger.changes()).toEqual([]);
		// The database row is damaged (a hand edit, a cut write).
		trigger.savedState = 'garbage';
		const lost = await trigger.changes();
		// "The poll then records the files there now as the new starting point and emits one item."
		expect(lost).toEqual([['stateLost', 'null']]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a changed folder starts afresh: its files, never emitted, are emitted once, then only new ones', async () => {
		await put(api(), 'scope-a/a.txt');
		await put(api(), 'scope-b/b.txt');
		const trigger = watch('scope-a', { watchFor: ['created'], options: { emitExistingFiles: true } });
		expect(await trigger.changes()).toEqual([['created', 'scope-a/a.txt']]);
		expect(await trigger.changes({ parameters: { folder: 'scope-b' } as never })).toEqual([
			['created', 'scope-b/b.txt'],
		]);
		expect(await trigger.changes({ parameters: { folder: 'scope-b' } as never })).toEqual([]);
		await put(api(), 'scope-b/new.txt');
		expect(await trigger.changes({ parameters: { folder: 'scope-b' } as never })).toEqual([
			['created', 'scope-b/new.txt'],
		]);
	});
});

describe('an n8n restart between polls (static data is saved by n8n only when a poll emits, and at activation)', () => {
	/** A file deleted in a poll that emits nothing, n8n restarted with the row saved before it, the file stored again. */
	async function recreatedAfterRestart(folder: string, watchFor: string[]) {
		const key = `${folder}/report.txt`;
		await put(api(), key, 'version one');
		const trigger = watch(folder, { watchFor });
		expect((await trigger.poll()).returnedNull).toBe(true);
		// What n8n wrote to the database at activation.
		const inDatabase = structuredClone(trigger.staticData);
		await remove(api(), key);
		// This poll forgets the file but emits nothing: n8n keeps that state in memory only.
		expect((await trigger.poll()).returnedNull).toBe(true);
		// n8n restarts (an upgrade, a crash, a deploy): the workflow is activated again with the saved row.
		trigger.staticData = inDatabase;
		await put(api(), key, 'version two, a new file under the old name');
		return await trigger.changes();
	}

	it('File Created only: the file is not reported (a known limit: the deletion was never saved)', async () => {
		expect(await recreatedAfterRestart('restart', ['created'])).toEqual([]);
	});

	it('File Created and File Updated (the workaround): the file comes as updated', async () => {
		expect(await recreatedAfterRestart('restart-upd', ['created', 'updated'])).toEqual([
			['updated', 'restart-upd/report.txt'],
		]);
	});

	it('File Created and File Deleted: the deletion is emitted (so saved), and the new file comes as created', async () => {
		const key = 'restart-del/report.txt';
		await put(api(), key, 'version one');
		const trigger = watch('restart-del', { watchFor: ['created', 'deleted'] });
		expect((await trigger.poll()).returnedNull).toBe(true);
		await remove(api(), key);
		expect(await trigger.changes()).toEqual([['deleted', key]]);
		// What n8n saved after that emitting poll, reloaded by a restart.
		trigger.staticData = structuredClone(trigger.staticData);
		await put(api(), key, 'version two, a new file under the old name');
		expect(await trigger.changes()).toEqual([['created', key]]);
	});
});

describe('Watch For changed between polls', () => {
	it('adding File Deleted does not silently drop a file created since the last poll, though File Created was watched throughout', async () => {
		await put(api(), 'wf-add/old.txt');
		const trigger = watch('wf-add', { watchFor: ['created'] });
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), 'wf-add/new.txt');
		const changes = await trigger.changes({ parameters: { watchFor: ['created', 'deleted'] } as never });
		expect(changes).toEqual([['created', 'wf-add/new.txt']]);
	});

	it('adding File Deleted reports a file deleted after the change, by key', async () => {
		await put(api(), 'wf-add-del/old.txt');
		const trigger = watch('wf-add-del', { watchFor: ['created'] });
		expect((await trigger.poll()).returnedNull).toBe(true);
		const both = { parameters: { watchFor: ['created', 'deleted'] } as never };
		expect(await trigger.changes(both)).toEqual([]);
		await remove(api(), 'wf-add-del/old.txt');
		expect(await trigger.changes(both)).toEqual([['deleted', 'wf-add-del/old.txt']]);
	});

	it('removing File Deleted does not silently drop a file created since the last poll, though File Created was watched throughout', async () => {
		await put(api(), 'wf-remove/old.txt');
		const trigger = watch('wf-remove', { watchFor: ['created', 'deleted'] });
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), 'wf-remove/new.txt');
		const changes = await trigger.changes({ parameters: { watchFor: ['created'] } as never });
		expect(changes).toEqual([['created', 'wf-remove/new.txt']]);
	});
});
