/**
 * RFC 9211 §2.6: a Cache-Status entry with `collapsed` says the cache did not forward this request:
 * it joined another request's fetch from the origin, which may have begun before the purge and read
 * an earlier version (the origin answers a GET with the version stored when it began). So a miss
 * marked `collapsed` is no fetch "for this request" (docs/api-choices.md, the MISS exception) and no
 * proof of the stored version: Move never deletes a newer version on it.
 */
import { useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

/** Stores `text` publicly within one wall-clock second, waits past it and the clocks' margin, gives it as an HTTP date. */
async function storeInOneSecond(key: string, text: string): Promise<string> {
	for (;;) {
		const before = Math.floor(Date.now() / 1000);
		await uploadWithNode(emulator(), key, text);
		if (Math.floor(Date.now() / 1000) !== before) continue;
		await new Promise((resolve) => setTimeout(resolve, 6500));
		return new Date(before * 1000).toUTCString();
	}
}

beforeEach(() => emulator().setFaults([]));

it('Move of a public file rewritten at the same size: a miss collapsed into another request’s fetch (Cache-Status collapsed, Age: 0) never deletes the newer version', async () => {
	const key = 'collapsedMiss/move.txt';
	const destination = 'collapsedMiss/moved.txt';
	const lastModified = await storeInOneSecond(key, newer);
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({
		headers: {
			'Last-Modified': lastModified,
			Age: '0',
			'Cache-Status': 'ExampleCDN; fwd=uri-miss; fwd-status=200; collapsed',
		},
		body: older,
	});
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey: destination,
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect([await storedText(emulator(), key), await storedText(emulator(), destination)]).toContain(newer);
	expect(result.error).toBeDefined();
}, 60_000);
