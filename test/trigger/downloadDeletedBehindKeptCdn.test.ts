/**
 * Download File of a public file deleted after the poll listed its new version, while the CDN still answers
 * the earlier version it kept (spec §3.9: a CDN can keep serving an earlier version, even after a purge).
 * docs/trigger.md: "A file deleted after the listing, before its download: its change is emitted without
 * it", "Then its deletion, by the next poll"; "Held back, it would be lost: the next scan no longer lists
 * the file"; "Each change is emitted exactly once".
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 60 });
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

describe('Download File of an updated public file deleted before its download, the CDN answering what it kept', () => {
	it('the update the listing showed is still emitted (without its file), then its deletion', async () => {
		const key = 'kept-gone/report.txt';
		const trigger = new Poller(emulator, {
			folder: 'kept-gone',
			watchFor: ['created', 'updated', 'deleted'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), key, 'version-1', { visibility: 'public' });
		const created = await trigger.poll();
		expect(created.items.map((item) => item.json.event)).toEqual(['created']);
		await nextSecond();
		await put(api(), key, 'version-2 longer', { visibility: 'public' });
		let deleted = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'cdn') {
					if (!deleted) {
						// Another writer deletes the file after the poll listed version-2 and got its link.
						deleted = true;
						await remove(api(), key);
					}
					// The CDN still answers the version it kept, marked as kept, even after the purge.
					return {
						status: 200,
						headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' },
						body: 'version-1',
					};
				}
				return undefined;
			},
		});
		const emitted: Array<[unknown, unknown]> = [];
		for (let poll = 0; poll < 5; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...result.items.map((item): [unknown, unknown] => [item.json.event, item.json.key]));
		}
		expect(emitted).toEqual([
			['updated', key],
			['deleted', key],
		]);
	});
});
