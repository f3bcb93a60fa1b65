/**
 * Download File when the file changes between the poll's listing and its download (another writer, no
 * cache involved: a private file, read through its signed link). docs/trigger.md: "The bytes are the
 * version the listing recorded, or none"; a download that fails "holds back only that file ... After 3
 * failed polls it is emitted without its file"; "Each change is emitted exactly once".
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

/** Runs `act` once, when the trigger asks for the signed link of `key` (after its listing named the file). */
function onceAtDownloadOf(key: string, act: () => Promise<void>): void {
	let done = false;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (!done && call.op === 'signedUrl' && call.query.get('key') === key) {
				done = true;
				await act();
			}
			return undefined;
		},
	});
}

async function watching(folder: string, watchFor: string[]): Promise<Poller> {
	const trigger = new Poller(emulator, { folder, watchFor, options: { downloadFile: true } } as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	return trigger;
}

describe('Download File of a file replaced (same size) between the listing and the download', () => {
	it('an item never carries bytes of a version other than the one its last_modified names', async () => {
		const key = 'race-replace/report.txt';
		const trigger = await watching('race-replace', ['created', 'updated']);
		await put(api(), key, 'version-1', { visibility: 'private' });
		onceAtDownloadOf(key, async () => {
			await nextSecond();
			await put(api(), key, 'version-2', { visibility: 'private' });
		});
		const seen: Array<{ event: unknown; last_modified: unknown; bytes?: string }> = [];
		for (let poll = 0; poll < 4; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			for (const item of result.items) {
				const bytes = item.binary ? (await result.readBinary(item)).toString() : undefined;
				seen.push({ event: item.json.event, last_modified: item.json.last_modified, bytes });
			}
		}
		// The listing's record of each version, read now (version-2 is stored, version-1's second is earlier).
		const listed = JSON.parse((await api().list({ prefix: 'race-replace/' })).body.toString()) as {
			data: { contents: { children: Array<{ path: string; last_modified: string }> } };
		};
		const version2 = listed.data.contents.children.find((entry) => entry.path === key)!.last_modified;
		// Bytes 'version-2' may only come with version-2's record; version-1's record carries version-1 or nothing.
		const wrong = seen.filter((item) => item.bytes === 'version-2' && item.last_modified !== version2);
		expect({ wrong, emittedWithVersion2: seen.filter((item) => item.bytes === 'version-2').length }).toEqual({
			wrong: [],
			emittedWithVersion2: 1,
		});
	});
});

describe('Download File of a new file deleted between the listing and the download', () => {
	it('the creation the listing showed is still emitted (without its file), not dropped', async () => {
		const key = 'race-delete/brief.txt';
		const trigger = await watching('race-delete', ['created', 'deleted']);
		await put(api(), key, 'short-lived', { visibility: 'private' });
		onceAtDownloadOf(key, async () => await remove(api(), key));
		// Four polls, each of which must succeed (changes() throws a poll's error).
		const emitted: Array<[string, string]> = [];
		for (let poll = 0; poll < 4; poll++) emitted.push(...(await trigger.changes()));
		// The file was there when the poll listed it: its creation is a change the trigger saw.
		expect(emitted).toContainEqual(['created', key]);
	});
});

describe('Download File of a new file deleted between the listing and the download, then its deletion', () => {
	it('the creation is emitted without its file, saying why, and the next poll emits its deletion', async () => {
		const key = 'race-gone/brief.txt';
		const trigger = await watching('race-gone', ['created', 'deleted']);
		await put(api(), key, 'short-lived', { visibility: 'private' });
		onceAtDownloadOf(key, async () => await remove(api(), key));
		const created = await trigger.poll();
		expect(created.error).toBeUndefined();
		expect(created.items.map((item) => [item.json.event, item.json.key, item.binary])).toEqual([
			['created', key, undefined],
		]);
		expect(String(created.items[0].json.error)).toMatch(
			/^The file was deleted after the poll listed it, before its download: /,
		);
		const deleted = await trigger.poll();
		expect(deleted.items.map((item) => [item.json.event, item.json.key])).toEqual([['deleted', key]]);
	});
});
