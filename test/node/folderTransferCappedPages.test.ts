/**
 * Folder → Copy and Move over a service that serves at most 100 entries a page whatever the limit
 * asked, and counts its pages by the limit asked (so page 1 says "1 page" while its
 * `total_items` says 250), through n8n-core's engine over real HTTP to the emulator. The answer
 * itself shows that the listing does not end with page 1: the run must not end as a plain success
 * with files it never listed still in the source.
 */
import { transferOverCappedService } from './cappedService';
import { useEmulator } from './support';

const emulator = useEmulator();
const FILES = 250;
const CAP = 100;
afterEach(() => emulator().adversary.setHooks(undefined));

describe('a service that caps its list pages and counts pages by the limit asked', () => {
	it.each(['copy', 'move'] as const)(
		'%s: never a plain success while files its answers counted (total_items) were never listed',
		async (operation) => {
			const from = `capped-${operation}/`;
			const to = `capped-${operation}-to/`;
			const run = { operation, from, to, files: FILES };
			const { done, error } = await transferOverCappedService(emulator(), run, { cap: CAP });
			// Either every file was handled, or the run says it did not finish.
			expect({ done, failed: error !== undefined }).toEqual(
				done === FILES ? { done, failed: false } : { done, failed: true },
			);
		},
		120_000,
	);
});
