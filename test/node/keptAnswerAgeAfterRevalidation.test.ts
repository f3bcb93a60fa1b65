/**
 * A cache's Age counts from when the origin last generated OR VALIDATED the answer (RFC 9111
 * §4.2.3, §4.3.4): once a cache revalidated its copy (If-Modified-Since its Last-Modified,
 * answered 304), its later hits carry Date − Age of that check, with no revalidation mark, and
 * the bytes are still those it kept before. The storage dates versions to the second (spec §3.1):
 * a same-size version written in the kept copy's second gets that 304. So an answer a cache marks
 * as kept (X-Cache: HIT), whose Last-Modified is the listed second, is no proof of the stored
 * version whatever its Date and Age say (docs/reliability.md, "Destructive steps act on proof").
 */
import { storeInOneSecond, useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

/**
 * The source's link reaches the scripted CDN. It kept the earlier version (same size, same second),
 * revalidated it a moment ago on another reader's request (304: same Last-Modified), and now serves it
 * as a plain hit: X-Cache: HIT, Age: 1 (since that check), Date now.
 */
function hitAfterRevalidation(key: string, lastModified: string): void {
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, 'X-Cache': 'HIT', Age: '1' }, body: older });
}

beforeEach(() => emulator().setFaults([]));

it('Move of a public file rewritten at the same size: a cache hit whose Age counts from a revalidation never deletes the newer version', async () => {
	const key = 'hitAfterRevalidation/move.txt';
	hitAfterRevalidation(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 6500 }));
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey: 'hitAfterRevalidation/moved.txt',
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect([await storedText(emulator(), key), await storedText(emulator(), 'hitAfterRevalidation/moved.txt')]).toContain(
		newer,
	);
	expect(result.error).toBeDefined();
}, 60_000);

it('Copy of a public file rewritten at the same size: a cache hit whose Age counts from a revalidation is never copied as the stored version', async () => {
	const key = 'hitAfterRevalidation/copy.txt';
	hitAfterRevalidation(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 6500 }));
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'copy',
		fileKey: byKey(key),
		destinationKey: 'hitAfterRevalidation/copied.txt',
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect(await storedText(emulator(), 'hitAfterRevalidation/copied.txt')).not.toBe(older);
	expect(result.error).toBeDefined();
}, 60_000);

it('File → Download of a public file rewritten at the same size: a cache hit whose Age counts from a revalidation gives no bytes', async () => {
	const key = 'hitAfterRevalidation/download.txt';
	hitAfterRevalidation(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 6500 }));
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: byKey(key),
		options: { maxRetries: 0 },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	const given = await Promise.all(
		result.items.filter((item) => item.binary).map(async (item) => (await result.readBinary(item)).toString()),
	);
	expect(given).not.toContain(older);
	expect(result.error).toBeDefined();
}, 60_000);
