/**
 * Download File: held-back changes whose files are deleted, under Max Files Per Poll.
 * docs/trigger.md: "Max Files Per Poll: at most that many items per poll"; of held changes whose file is gone, "Such
 * items count against Max Files Per Poll".
 */
import { useHeldChangeSetup } from './heldChangeSetup';
import { Poller, put, remove } from './support';

const { emulator, api, refusingCdn } = useHeldChangeSetup();

describe('Max Files Per Poll with held-back creations whose files are deleted', () => {
	it('no poll emits more items than Max Files Per Poll, and each change comes once', async () => {
		const keys = ['held-cap/a.txt', 'held-cap/b.txt'];
		const trigger = new Poller(emulator, {
			folder: 'held-cap',
			watchFor: ['created', 'deleted'],
			options: { downloadFile: true, maxFilesPerPoll: 1 },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		for (const key of keys) await put(api(), key, `bytes of ${key}`);
		const cdn = refusingCdn();
		// Both downloads fail: held back (1 of 3 polls), one per poll as Max Files Per Poll lets them start.
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect((await trigger.poll()).returnedNull).toBe(true);
		for (const key of keys) await remove(api(), key);
		cdn.open();
		const all: Array<[string, string]> = [];
		for (let poll = 0; poll < 6; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			expect(result.items.length).toBeLessThanOrEqual(1);
			all.push(...result.items.map((item) => [String(item.json.event), String(item.json.key)] as [string, string]));
		}
		expect(all.sort()).toEqual([
			['created', keys[0]],
			['created', keys[1]],
			['deleted', keys[0]],
			['deleted', keys[1]],
		]);
	});
});
