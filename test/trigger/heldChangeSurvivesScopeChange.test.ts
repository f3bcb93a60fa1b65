/**
 * Download File: changes held back (their download failed) when Folder, the filter or Include Subfolders changes
 * while Emit Existing Files is off (the new scope records a starting point and emits nothing).
 * docs/trigger.md: "A held-back change is never dropped"; "Each change is emitted exactly once".
 */
import { useHeldChangeSetup } from './heldChangeSetup';
import { Poller, put, remove } from './support';

const { emulator, api, refusingCdn, heldUpdateAndCreation } = useHeldChangeSetup();

describe('Download File: changes held back when the scope changes, Emit Existing Files off', () => {
	it('a held update and a held creation of files the new scope watches come once, with their bytes', async () => {
		const { trigger, cdn, updated, created } = await heldUpdateAndCreation('held-scope');
		// A filter that still watches both files: a new scope, whose first poll records a starting point.
		const narrowed = { parameters: { options: { downloadFile: true, fileNameFilter: '*.txt' } } as never };
		expect((await trigger.poll(narrowed)).returnedNull).toBe(true);
		cdn.open();
		const result = await trigger.poll(narrowed);
		expect(result.error).toBeUndefined();
		const emitted = result.items.map((item) => [item.json.event, item.json.key, item.binary?.data?.fileSize]);
		expect(emitted.sort()).toEqual([
			['created', created, expect.anything()],
			['updated', updated, expect.anything()],
		]);
		expect(result.items.every((item) => item.json.error === undefined)).toBe(true);
		expect((await trigger.poll(narrowed)).items).toEqual([]);
	});

	it('a held update of a file gone by then is emitted without it by the next poll, then its deletion', async () => {
		const key = 'held-scope-gone/a.txt';
		const trigger = new Poller(emulator, {
			folder: 'held-scope-gone',
			watchFor: ['created', 'updated', 'deleted'],
			options: { downloadFile: true },
		} as never);
		await put(api(), key, 'first');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const cdn = refusingCdn();
		await put(api(), key, 'second version');
		expect((await trigger.poll()).returnedNull).toBe(true);
		await remove(api(), key);
		cdn.open();
		const narrowed = { parameters: { options: { downloadFile: true, fileNameFilter: '*.txt' } } as never };
		expect((await trigger.poll(narrowed)).returnedNull).toBe(true);
		const result = await trigger.poll(narrowed);
		expect(result.items.map((item) => [item.json.event, item.json.key])).toEqual([
			['updated', key],
			['deleted', key],
		]);
		expect(result.items[0].json.error).toMatch(/deleted after a poll listed it/);
		expect((await trigger.poll(narrowed)).items).toEqual([]);
	});
});
