/**
 * File Name Filter: `**` is "any run of characters including `/`" (glob.ts, docs/trigger.md "`**` any folders"). Keys
 * may hold a line break (files/keys.ts: other control characters are allowed, as the service allows them). A file
 * whose key holds one, matching the filter as documented, must be emitted like any other.
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();

describe('File Name Filter with ** and a key holding a line break', () => {
	it.each([
		// `*` already matches it: the same key passes a filter without `**`.
		['*.csv', 'filter-nl/one\nline.csv'],
		['**.csv', 'filter-nl/line\nbreak.csv'],
		['filter-nl/**/*.csv', 'filter-nl/two\nlines/report.csv'],
		['**', 'filter-nl/para\u2028graph.txt'],
	])('filter %j emits %j when it is created', async (filter, key) => {
		const trigger = new Poller(emulator, {
			folder: 'filter-nl',
			includeSubfolders: true,
			watchFor: ['created'],
			options: { fileNameFilter: filter },
		} as never);
		expect((await trigger.poll()).error).toBeUndefined();
		await put(apiFor(emulator()), key, 'bytes');
		expect(await trigger.changes()).toEqual([['created', key]]);
	});
});
