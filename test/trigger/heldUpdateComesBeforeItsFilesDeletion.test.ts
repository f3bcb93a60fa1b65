/**
 * Download File and File Deleted: a held-back update (its download failed) whose file is deleted before the next
 * poll, when that poll runs past its time after its scan. docs/trigger.md and heldBack.ts: the held change "is
 * emitted now, without its file ... before this poll's changes; with File Deleted, the file's deletion follows as any
 * deletion". Past the poll's time the held change waits for the next poll: its file's deletion must wait with it,
 * never come first (an update after the deletion says the file is there, changed).
 */
import { useHeldChangeSetup } from './heldChangeSetup';
import { Poller, put, remove } from './support';

const { emulator, api, refusingCdn } = useHeldChangeSetup();

describe('a held update of a file deleted before a poll that runs past its time', () => {
	it('is emitted before its deletion, never after it', async () => {
		const folder = 'held-upd-late';
		const key = `${folder}/report.txt`;
		const trigger = new Poller(emulator, {
			folder,
			watchFor: ['created', 'updated', 'deleted'],
			options: { downloadFile: true },
		} as never);
		await put(api(), key, 'version-1');
		await put(api(), `${folder}/other.txt`, 'stays');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const cdn = refusingCdn();
		await put(api(), key, 'version-2 longer');
		// Held back: the download failed (1 of 3 polls).
		expect((await trigger.poll()).returnedNull).toBe(true);
		await remove(api(), key);
		cdn.open();
		// 300 ms per request: the scan's page (other.txt listed at ~300 ms, within 90 % of 500 ms), then the empty page
		// read after it (~600 ms): the scan ends past the poll's time.
		emulator().setLatency(300);
		const late = await trigger.poll({ pollBudgetMs: 500 });
		emulator().setLatency(0);
		expect(late.error).toBeUndefined();
		const items = [...late.items];
		for (let poll = 0; poll < 3; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			items.push(...result.items);
		}
		expect(items.map((item) => [item.json.event, item.json.key])).toEqual([
			['updated', key],
			['deleted', key],
		]);
	});
});
