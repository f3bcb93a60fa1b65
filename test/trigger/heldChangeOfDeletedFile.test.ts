/**
 * Download File: a change held back (its download failed) whose file is deleted before the next poll.
 * docs/trigger.md: "A held-back change is never dropped"; "Each change is emitted exactly once".
 */
import { useHeldChangeSetup } from './heldChangeSetup';
import { Poller, put, remove } from './support';

const { emulator, api, refusingCdn } = useHeldChangeSetup();

async function pollsOf(trigger: Poller, count: number) {
	const items = [];
	for (let poll = 0; poll < count; poll++) {
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		items.push(...result.items);
	}
	return items;
}

describe('Download File: a held-back change whose file is deleted before the next poll', () => {
	it('a held creation is emitted by the next poll without its file, then its deletion', async () => {
		const key = 'held-gone/new.txt';
		const trigger = new Poller(emulator, {
			folder: 'held-gone',
			watchFor: ['created', 'deleted'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), key, 'short-lived');
		const cdn = refusingCdn();
		// Held back: the download failed (1 of 3 polls).
		expect((await trigger.poll()).returnedNull).toBe(true);
		await remove(api(), key);
		cdn.open();
		const items = await pollsOf(trigger, 3);
		expect(items.map((item) => [item.json.event, item.json.key])).toEqual([
			['created', key],
			['deleted', key],
		]);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json).toMatchObject({
			size: 'short-lived'.length,
			error: expect.stringMatching(/deleted after a poll listed it/),
		});
	});

	it('a held update is emitted by the next poll without its file, once (File Deleted not watched)', async () => {
		const key = 'held-gone-upd/report.txt';
		const trigger = new Poller(emulator, {
			folder: 'held-gone-upd',
			watchFor: ['created', 'updated'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), key, 'version-1');
		expect((await trigger.changes()).map(([event]) => event)).toEqual(['created']);
		await put(api(), key, 'version-2 longer');
		const cdn = refusingCdn();
		expect((await trigger.poll()).returnedNull).toBe(true);
		await remove(api(), key);
		cdn.open();
		const items = await pollsOf(trigger, 3);
		expect(items.map((item) => [item.json.event, item.json.key, item.json.size])).toEqual([
			['updated', key, 'version-2 longer'.length],
		]);
		expect(items[0].binary).toBeUndefined();
	});
});
