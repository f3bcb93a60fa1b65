/**
 * Download File for a file another writer rewrites between every poll's listing and its download (a status file
 * rewritten every few seconds, a private file read through its signed link, no cache involved). docs/trigger.md: a
 * download that cannot be shown to be the listed version is held back, "After 3 failed polls it is emitted without
 * its file"; "A held-back change is never dropped".
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

describe('Download File of a file rewritten after each poll lists it', () => {
	it('its creation is still emitted within 3 polls (without its file), not held back for ever', async () => {
		const key = 'churn-status/status.txt';
		const trigger = new Poller(emulator, {
			folder: 'churn-status',
			watchFor: ['created', 'updated'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		let version = 1;
		await put(api(), key, `status-${version}`, { visibility: 'private' });
		// Every time the trigger asks for the file's link (after its listing named a version), a newer one is stored.
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'signedUrl' && call.query.get('key') === key) {
					await nextSecond();
					version++;
					await put(api(), key, `status-${version}`, { visibility: 'private' });
				}
				return undefined;
			},
		});
		const emitted: Array<[unknown, unknown]> = [];
		for (let poll = 0; poll < 4; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...result.items.map((item): [unknown, unknown] => [item.json.event, item.json.key]));
		}
		// The file was created and listed by every poll: its creation must come out, at the latest without its file.
		expect(emitted).toContainEqual(['created', key]);
	});
});
