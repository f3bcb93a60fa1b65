/**
 * Download File for a file another writer rewrites between every poll's listing and its download (a status file
 * rewritten every few seconds, a private file read through its signed link, no cache involved). docs/trigger.md: a
 * download that cannot be shown to be the listed version is held back, "After 3 failed polls it is emitted without
 * its file"; "A held-back change is never dropped".
 */
import type { HookCall } from '../emulator/history';
import { keyHash } from '../../nodes/FileStorage/trigger/state';
import type { StoredState } from '../../nodes/FileStorage/trigger/stateCodec';
import { earlierCheckOf, type Stored } from './earlierCheck';
import { apiFor, nextSecond, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

/** Stores a newer version of `key` each time the trigger asks for its link, while `writing()` says so. */
function rewriteAtEachDownload(key: string, writing: () => boolean): void {
	let version = 100;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (writing() && call.op === 'signedUrl' && call.query.get('key') === key) {
				await nextSecond();
				version++;
				await put(api(), key, `status-${version}`, { visibility: 'private' });
			}
			return undefined;
		},
	});
}

/** The key's last_modified as the listing shows it now. */
async function listedDate(prefix: string, key: string): Promise<string> {
	const listed = JSON.parse((await api().list({ prefix })).body.toString()) as {
		data: { contents: { children: Array<{ path: string; last_modified: string }> } };
	};
	return listed.data.contents.children.find((entry) => entry.path === key)!.last_modified;
}

/** A trigger watching `folder` for updates whose first poll recorded `key` at status-0, then `key` stored at status-1. */
async function updatedAfterFirstPoll(folder: string, key: string): Promise<Poller> {
	await put(api(), key, 'status-0', { visibility: 'private' });
	const trigger = new Poller(emulator, { folder, watchFor: ['updated'], options: { downloadFile: true } } as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	await nextSecond();
	await put(api(), key, 'status-1', { visibility: 'private' });
	return trigger;
}

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
		// Four polls, each of which must succeed (changes() throws a poll's error).
		const emitted: Array<[string, string]> = [];
		for (let poll = 0; poll < 4; poll++) emitted.push(...(await trigger.changes()));
		// The file was created and listed by every poll: its creation must come out, at the latest without its file.
		expect(emitted).toContainEqual(['created', key]);
	});

	it('its update comes once, by the 3rd poll, as the version that poll listed, without its file and saying why', async () => {
		const key = 'churn-update/status.txt';
		const trigger = await updatedAfterFirstPoll('churn-update', key);
		let writing = true;
		rewriteAtEachDownload(key, () => writing);
		const perPoll: Array<Array<{ last_modified: unknown; error: unknown; binary: boolean }>> = [];
		let listedByThird = '';
		for (let poll = 1; poll <= 3; poll++) {
			if (poll === 3) listedByThird = await listedDate('churn-update/', key);
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			perPoll.push(
				result.items.map((item) => ({
					last_modified: item.json.last_modified,
					error: item.json.error,
					binary: item.binary !== undefined,
				})),
			);
		}
		expect(perPoll.slice(0, 2)).toEqual([[], []]);
		expect(perPoll[2]).toEqual([
			{
				last_modified: listedByThird,
				error: expect.stringContaining('later version than the one listed'),
				binary: false,
			},
		]);
		// The writer stops: the version stored during the 3rd poll is a change of its own, emitted with its bytes.
		writing = false;
		const after = await trigger.poll();
		expect(after.items.map((item) => [item.json.event, item.binary !== undefined])).toEqual([['updated', true]]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a count an earlier release saved for an older version goes on: no lost state, no item before the 3rd failed poll', async () => {
		const key = 'churn-earlier/status.txt';
		const trigger = await updatedAfterFirstPoll('churn-earlier', key);
		rewriteAtEachDownload(key, () => true);
		// One failed poll, saved as earlier releases saved it: [fingerprint of the version that failed, attempts], their check.
		expect((await trigger.poll()).items).toEqual([]);
		const saved = { ...(trigger.savedState as StoredState) };
		const [fingerprint, attempts] = saved.failures![keyHash(key)];
		expect(attempts).toBe(1);
		const earlier = { ...saved, failures: { [keyHash(key)]: [fingerprint, attempts] } } as Stored;
		delete earlier.check;
		trigger.savedState = { ...earlier, check: earlierCheckOf(earlier) };
		const second = await trigger.poll();
		expect([second.error, second.items]).toEqual([undefined, []]);
		const third = await trigger.poll();
		expect(third.items.map((item) => [item.json.event, item.json.key, item.binary !== undefined])).toEqual([
			['updated', key, false],
		]);
	});
});
