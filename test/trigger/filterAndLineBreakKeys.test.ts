/**
 * File Name Filter and keys holding a line break (files/keys.ts allows them, as the service does). `*`, `?` and
 * `[…]` match any character but `/`, a line break included. `**` does not cross a line break: that is the meaning
 * every saved trigger was set up with, and widening it would emit files the filter never matched as created
 * (docs/trigger.md, Limits; filterWideningOnUpgradeEmitsNoOldFile.test.ts).
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();

describe('File Name Filter and a key holding a line break', () => {
	it.each([
		['*.csv', 'filter-nl/one\nline.csv', true],
		['filter-nl/some?line.csv', 'filter-nl/some\nline.csv', true],
		['**.csv', 'filter-nl/line\nbreak.csv', false],
		['filter-nl/**/*.csv', 'filter-nl/two\nlines/report.csv', false],
	])(
		'filter %j, created %j: emitted %s (`*` matches a line break, `**` does not cross one)',
		async (filter, key, emitted) => {
			const trigger = new Poller(emulator, {
				folder: 'filter-nl',
				includeSubfolders: true,
				watchFor: ['created'],
				options: { fileNameFilter: filter },
			} as never);
			expect((await trigger.poll()).error).toBeUndefined();
			await put(apiFor(emulator()), key, 'bytes');
			expect(await trigger.changes()).toEqual(emitted ? [['created', key]] : []);
		},
	);
});
