/**
 * Folder → Copy and Move over a service that serves at most 100 entries a page whatever the limit asked (its
 * `items_per_page` names the limit asked, as its page count does), and whose count lags behind its rows (a cached
 * count: 50 files were stored just before, the count still says 100). Page 1 holds 100 entries and the count says
 * 100: neither the page nor the count shows the end, since a count may lag low (docs/api-choices.md, "Where a
 * listing ends"). The run must not end as a plain success with files it never listed still in the source. Through
 * n8n-core's engine over real HTTP to the emulator.
 */
import { transferOverCappedService } from './cappedService';
import { useEmulator } from './support';

const emulator = useEmulator();
const FILES = 150;
const CAP = 100;
const COUNTED = 100;

afterEach(() => emulator().adversary.setHooks(undefined));

describe('a service that caps its list pages, its count lagging behind its rows', () => {
	it.each(['copy', 'move'] as const)(
		'%s: never a plain success while files of the folder were never listed',
		async (operation) => {
			const from = `lagging-${operation}/`;
			const to = `lagging-${operation}-to/`;
			const run = { operation, from, to, files: FILES };
			const { done, error } = await transferOverCappedService(emulator(), run, { cap: CAP, counted: COUNTED });
			// Either every file was handled, or the run says it did not finish.
			expect({ done, failed: error !== undefined }).toEqual(
				done === FILES ? { done, failed: false } : { done, failed: true },
			);
		},
		120_000,
	);
});
