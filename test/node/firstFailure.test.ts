/**
 * Without Continue On Fail, a run fails with the error of its lowest failed item, whichever
 * failure settled first: versions 1 and 2 run items one by one, version 3 several at once, and
 * the same input must fail the same way in every version, run after run.
 */
import { runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

describe('the error a run without Continue On Fail fails with', () => {
	afterEach(() => emulator().setLatency(0));

	it.each([1, 2, 3])(
		"version %i: is the lowest failed item's, though a later item failed first",
		async (typeVersion) => {
			// Item 0 fails slowly (a missing file, each request delayed); item 1 at once (no key).
			emulator().setLatency(400);
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation: 'download', fileKey: '={{ $json.key }}', options: { maxRetries: 0 } },
				{ typeVersion, items: [{ json: { key: 'first/missing.bin' } }, { json: { key: '' } }] },
			);
			expect(result.error?.message).toMatch(/^The file 'first\/missing\.bin' was not found in bucket 'my-bucket'/);
			expect(result.error?.context?.itemIndex).toBe(0);
		},
	);
});
