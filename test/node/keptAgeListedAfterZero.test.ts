/**
 * Two caches on the way each give an Age (a shield that kept the answer, an edge that missed and says
 * `Age: 0`, `X-Cache: MISS`), sent as one list, "0, 120": the second cache's Age counts too
 * (cacheMarks.ts, ageZeroOrAbsent), so the answer was kept. Such an answer is never proof of the stored
 * version (docs/reliability.md, "Destructive steps act on proof"), so Move never deletes a newer version
 * on it. The same values as two field lines reach the node as the first line only: n8n's HTTP client
 * (Node.js) keeps one line of Age; docs/api-choices.md, "Repeated Age, ETag or Last-Modified lines".
 */
import { storeInOneSecond, useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

beforeEach(() => emulator().setFaults([]));

it('Move of a public file rewritten at the same size: an Age listing 0 from the edge, then 120 from a shield that kept it, and X-Cache: MISS never deletes the newer version', async () => {
	const key = 'twoAgeLines/move.txt';
	const destination = 'twoAgeLines/moved.txt';
	const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 6500 });
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({
		headers: { 'Last-Modified': lastModified, Age: '0, 120', 'X-Cache': 'MISS' },
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
