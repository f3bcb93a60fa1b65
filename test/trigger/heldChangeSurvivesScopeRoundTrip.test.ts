/**
 * Download File: changes held back (their download failed) while Folder, the filter or Include Subfolders is changed
 * to leave their files out and then changed back, Emit Existing Files off. The changes were listed while their files
 * were watched; records of files left out are kept aside through such a round trip, and so must the held changes be.
 * docs/trigger.md: "A held-back change is never dropped"; "Each change is emitted exactly once".
 */
import type { RunPollOptions, RunPollResult } from '../harness';
import { useHeldChangeSetup } from './heldChangeSetup';
import { Poller, put, remove } from './support';

const { emulator, api, refusingCdn, heldUpdateAndCreation } = useHeldChangeSetup();

type Item = RunPollResult['items'][number];

/** What 3 polls with the restored scope emit, one row per item; none of them fails. */
async function emittedOver3Polls(trigger: Poller, restored: Partial<RunPollOptions>, row: (item: Item) => unknown[]) {
	const emitted: unknown[][] = [];
	for (let poll = 0; poll < 3; poll++) {
		const result = await trigger.poll(restored);
		expect(result.error).toBeUndefined();
		emitted.push(...result.items.map(row));
	}
	return emitted;
}

describe('Download File: held changes when the scope leaves their files out and comes back, Emit Existing Files off', () => {
	it('a held update and a held creation come once, with their bytes, after the filter is narrowed and restored', async () => {
		const { trigger, cdn, updated, created } = await heldUpdateAndCreation('held-trip');
		// A filter that leaves both files out for one poll, then the filter removed again (the first scope).
		const narrowed = { parameters: { options: { downloadFile: true, fileNameFilter: '*.csv' } } as never };
		expect((await trigger.poll(narrowed)).returnedNull).toBe(true);
		cdn.open();
		const restored = { parameters: { options: { downloadFile: true } } as never };
		const emitted = await emittedOver3Polls(trigger, restored, (item) => [
			item.json.event,
			item.json.key,
			item.binary !== undefined,
		]);
		// Both changes were listed while their files were watched, and are watched again: each comes once.
		expect(emitted.sort()).toEqual([
			['created', created, true],
			['updated', updated, true],
		]);
	});

	it('with File Deleted, a held update of a file deleted while left out is emitted without it, then its deletion', async () => {
		const key = 'held-trip-gone/a.txt';
		const parameters = {
			folder: 'held-trip-gone',
			watchFor: ['created', 'updated', 'deleted'],
			options: { downloadFile: true },
		};
		const trigger = new Poller(emulator, parameters as never);
		await put(api(), key, 'first');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const cdn = refusingCdn();
		await put(api(), key, 'second version');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const narrowed = { parameters: { options: { downloadFile: true, fileNameFilter: '*.csv' } } as never };
		expect((await trigger.poll(narrowed)).returnedNull).toBe(true);
		await remove(api(), key);
		cdn.open();
		const restored = { parameters: { options: { downloadFile: true } } as never };
		const emitted = await emittedOver3Polls(trigger, restored, (item) => [
			item.json.event,
			item.json.key,
			typeof item.json.error,
		]);
		expect(emitted).toEqual([
			['updated', key, 'string'],
			['deleted', key, 'undefined'],
		]);
	});
});

describe('Download File: held changes when the scope leaves their files out and comes back, Emit Existing Files on', () => {
	it('each comes once (with its bytes, or without them if its file was deleted meanwhile), no other file again', async () => {
		const [updated, created, gone, other] = ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => `held-trip-on/${name}`);
		const options = { downloadFile: true, emitExistingFiles: true };
		const parameters = { folder: 'held-trip-on', watchFor: ['created', 'updated', 'deleted'], options };
		const trigger = new Poller(emulator, parameters as never);
		for (const key of [updated, gone, other]) await put(api(), key, 'first');
		expect((await trigger.poll()).items.map((item) => item.json.key).sort()).toEqual([updated, gone, other]);
		const cdn = refusingCdn();
		await put(api(), updated, 'second version');
		await put(api(), gone, 'second version');
		await put(api(), created, 'new file');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const narrowed = { parameters: { options: { ...options, fileNameFilter: '*.csv' } } as never };
		expect((await trigger.poll(narrowed)).returnedNull).toBe(true);
		await remove(api(), gone);
		cdn.open();
		const restored = { parameters: { options } as never };
		const emitted = await emittedOver3Polls(trigger, restored, (item) => [
			item.json.event,
			item.json.key,
			item.binary !== undefined,
			typeof item.json.error,
		]);
		expect(emitted.sort()).toEqual([
			['created', created, true, 'undefined'],
			['deleted', gone, false, 'undefined'],
			['updated', updated, true, 'undefined'],
			['updated', gone, false, 'string'],
		]);
	});
});
