/**
 * A cache that revalidates what it kept (a conditional request to the origin, If-Modified-Since the
 * kept copy's Last-Modified) serves its kept bytes when the origin answers 304, and restarts their
 * Age from that 304 (RFC 9111 §4.3.4): `Age: 0`, a Date of now, and a cache status naming the
 * revalidation (Cloudflare's CF-Cache-Status: REVALIDATED). The storage dates versions to the
 * second (spec §3.1): a same-size version written in the kept copy's second has its Last-Modified,
 * so the origin answers 304 and the earlier bytes come back looking fetched just now. Date − Age
 * then dates the check, not the bytes: it is no proof that they are the stored version
 * (docs/reliability.md, "Destructive steps act on proof").
 */
import { storeInOneSecond, useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

beforeEach(() => emulator().setFaults([]));

it('Move of a public file rewritten at the same size: an answer the CDN revalidated (Age: 0, REVALIDATED) never deletes the newer version', async () => {
	const key = 'revalidated/move.txt';
	const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 });
	// The source's link reaches the scripted CDN; it kept the earlier version (same size, same second) and revalidated it.
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({
		headers: { 'Last-Modified': lastModified, 'CF-Cache-Status': 'REVALIDATED', Age: '0' },
		body: older,
	});
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey: 'revalidated/moved.txt',
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect([await storedText(emulator(), key), await storedText(emulator(), 'revalidated/moved.txt')]).toContain(newer);
	expect(result.error?.message).toMatch(
		/a cache revalidated its copy of the CDN's answer \(cf-cache-status: REVALIDATED\)/,
	);
}, 60_000);

/** The source's (or the file's) link reaches the scripted CDN, which serves the earlier bytes it revalidated, marked by `marks`. */
function revalidatedEarlier(key: string, lastModified: string, marks: Record<string, string>): void {
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, Age: '0', ...marks }, body: older });
}

it("Copy of a public file rewritten at the same size: CloudFront's RefreshHit (Age: 0) is never copied as the stored version", async () => {
	const key = 'revalidated/copy.txt';
	revalidatedEarlier(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 }), {
		'X-Cache': 'RefreshHit from cloudfront',
	});
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'copy',
		fileKey: byKey(key),
		destinationKey: 'revalidated/copied.txt',
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect(await storedText(emulator(), 'revalidated/copied.txt')).toBeUndefined();
	expect(await storedText(emulator(), key)).toBe(newer);
	expect(result.error?.message).toMatch(/a cache revalidated its copy .*X-Cache: RefreshHit from cloudfront/);
}, 60_000);

const download = async (key: string) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: byKey(key),
		options: { maxRetries: 0 },
	});

it('File → Download of a public file: an RFC 9211 Cache-Status revalidation (fwd=stale; fwd-status=304) gives no bytes', async () => {
	const key = 'revalidated/download.txt';
	const marks = { 'Cache-Status': 'ExampleCDN; fwd=stale; fwd-status=304; stored' };
	revalidatedEarlier(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 }), marks);
	const result = await download(key);
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect(result.items).toEqual([]);
	expect(result.error?.message).toMatch(
		/^Download of 'revalidated\/download\.txt' was not kept: .*a cache revalidated its copy of the CDN's answer \(cache-status: ExampleCDN; fwd=stale/,
	);
}, 60_000);

it("File → Download of a private file: a revalidated answer (nginx's X-Cache-Status) is read again after a purge, and is no proof then either", async () => {
	const key = 'revalidated/private.txt';
	revalidatedEarlier(key, await storeInOneSecond(emulator(), key, newer, { settleMs: 5500, visibility: 'private' }), {
		'X-Cache-Status': 'REVALIDATED',
	});
	const result = await download(key);
	// Read, purged, read again: the purge-and-read path of a private file a cache marks.
	expect(cdn().requests).toHaveLength(2);
	expect(result.items).toEqual([]);
	expect(result.error?.message).toMatch(/a cache revalidated its copy .*x-cache-status: REVALIDATED/);
}, 60_000);
