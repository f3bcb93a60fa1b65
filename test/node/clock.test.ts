import { runFileStorage, useEmulator } from './support';

// The service's clock runs 15 minutes ahead of this host: every timestamp we sign is stale.
const emulator = useEmulator({ now: () => Date.now() + 15 * 60 * 1000 });
// 4 minutes ahead is within the ±300 s the service accepts: only a sent, correct timestamp passes.
const nearlyInTime = useEmulator({ now: () => Date.now() + 4 * 60 * 1000 });

describe('clock skew', () => {
	it('a 401 caused by a skewed clock tells the user to check the clock', async () => {
		const result = await runFileStorage(emulator(), { resource: 'bucket', operation: 'listContents' });
		expect(result.error?.message).toMatch(/Invalid authentication credentials \(HTTP 401\)/);
		expect(result.error?.description).toMatch(/clock of this n8n host is about 15 minute\(s\) behind the service/);
	});

	it('a clock within the tolerance works: the signed timestamp is sent and checked', async () => {
		const result = await runFileStorage(nearlyInTime(), { resource: 'bucket', operation: 'listContents' });
		expect(result.error).toBeUndefined();
		expect(nearlyInTime().stats().authFailures).toBe(0);
		expect(nearlyInTime().stats().responses['200']).toBe(1);
	});
});
