/**
 * Review: Delete and Cancel take a 404 on a retry as "an earlier attempt did it". README
 * ("Choices where the API is silent"): "a 404 on a retry means an earlier attempt whose answer
 * was lost already did it … A 404 on the first attempt is an error"; File → Delete: "Deleting a
 * missing key is an error (HTTP 404)". A first attempt answered 503 or 429 was not processed
 * (the node's own retry policy says so: Start is retried only on those), so it did nothing.
 */
import { runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

describe('a 404 after an attempt the service did not process', () => {
	afterEach(() => emulator().setFaults([]));

	it.each([503, 429] as const)(
		'Delete of a key that never existed, first answered %s, fails with 404 instead of claiming an earlier attempt deleted it',
		async (status) => {
			emulator().setFaults([{ operation: 'delete', status, times: 1 }]);
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation: 'delete',
				fileKey: { __rl: true, mode: 'key', value: `review2/never-there-${status}.txt` },
			});
			expect(result.items[0]?.json).not.toMatchObject({ doneByEarlierAttempt: true });
			expect(result.error?.message).toMatch(/HTTP 404/);
		},
	);
});
