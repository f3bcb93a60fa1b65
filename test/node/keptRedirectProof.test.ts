/**
 * A CDN may answer a file's location with a redirect (to an origin, a versioned object URL) and
 * keep that redirect in its cache like any other answer. A redirect a cache marks as kept (Age,
 * X-Cache: HIT) may lead to an earlier version of the file, so the bytes it leads to are no
 * proof of the stored version, whatever the last hop's answer says (docs/reliability.md,
 * "Destructive steps act on proof": an answer a cache marks as kept is never proof).
 */

import { storeInOneSecond, useFakeCdn, type CdnAnswer } from './fakeCdn';
import { byKey, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

/**
 * The source's link reaches the scripted CDN, which answers it with a redirect it kept (marked) to
 * a versioned URL of the earlier version; that URL answers the earlier version with no cache mark,
 * dated in the listed second (a same-size rewrite in the same second).
 */
function keptRedirectToEarlierVersion(key: string, lastModified: string) {
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = (): CdnAnswer => {
		const path = cdn().requests[cdn().requests.length - 1] ?? '';
		if (path.includes('/versions/earlier')) {
			return { headers: { 'Last-Modified': lastModified }, body: older };
		}
		return {
			status: 302,
			headers: {
				Location: cdn().urlOf('versions/earlier'),
				Age: '30',
				'X-Cache': 'HIT',
				'Cache-Control': 'public, max-age=600',
			},
			body: '',
		};
	};
}

/** As keptRedirectToEarlierVersion, but a redirect no cache marks, to a URL answering the stored (newer) version. */
function freshRedirectToStoredVersion(key: string, lastModified: string) {
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = (): CdnAnswer => {
		const path = cdn().requests[cdn().requests.length - 1] ?? '';
		if (path.includes('/versions/current')) return { headers: { 'Last-Modified': lastModified }, body: newer };
		return { status: 302, headers: { Location: cdn().urlOf('versions/current') }, body: '' };
	};
}

beforeEach(() => emulator().setFaults([]));

describe('a redirect a cache kept is no proof of the version it leads to', () => {
	it('Move of a public file rewritten at the same size: the newer version is never deleted', async () => {
		const key = 'keptRedirect/move.txt';
		const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 });
		keptRedirectToEarlierVersion(key, lastModified);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'move',
			fileKey: byKey(key),
			destinationKey: 'keptRedirect/moved.txt',
			options: { replace: true },
		});
		expect(cdn().requests.some((request) => request.includes('/versions/earlier'))).toBe(true);
		// The newer version must still exist somewhere, and the Move must not report success.
		expect([await storedText(emulator(), key), await storedText(emulator(), 'keptRedirect/moved.txt')]).toContain(
			newer,
		);
		expect(result.error).toBeDefined();
		expect(await storedText(emulator(), key)).toBe(newer);
	}, 60_000);

	it('Copy of a public file rewritten at the same size copies nothing the service no longer stores', async () => {
		const key = 'keptRedirect/copy.txt';
		const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 });
		keptRedirectToEarlierVersion(key, lastModified);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'copy',
			fileKey: byKey(key),
			destinationKey: 'keptRedirect/copied.txt',
			options: { replace: true },
		});
		expect(cdn().requests.some((request) => request.includes('/versions/earlier'))).toBe(true);
		expect(await storedText(emulator(), 'keptRedirect/copied.txt')).not.toBe(older);
		expect(result.error).toBeDefined();
	}, 60_000);

	it('Download of a public file: the bytes a kept redirect leads to are never given as the file', async () => {
		const key = 'keptRedirect/download.txt';
		const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 });
		keptRedirectToEarlierVersion(key, lastModified);
		const result = await runFileStorage(emulator(), { resource: 'file', operation: 'download', fileKey: byKey(key) });
		expect(cdn().requests.some((request) => request.includes('/versions/earlier'))).toBe(true);
		const given = await Promise.all(
			result.items.filter((item) => item.binary).map(async (item) => (await result.readBinary(item)).toString()),
		);
		expect(given).not.toContain(older);
		expect(result.error?.message).toMatch(/cannot be shown to be the version the service stores.*redirect/);
	}, 60_000);

	it('a redirect no cache marks still leads to proof: Move of a public file moves it', async () => {
		const key = 'freshRedirect/move.txt';
		const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 5500 });
		freshRedirectToStoredVersion(key, lastModified);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'move',
			fileKey: byKey(key),
			destinationKey: 'freshRedirect/moved.txt',
			options: { replace: true },
		});
		expect([result.error?.message, result.error?.description]).toEqual([undefined, undefined]);
		expect(cdn().requests.some((request) => request.includes('/versions/current'))).toBe(true);
		expect(await storedText(emulator(), 'freshRedirect/moved.txt')).toBe(newer);
		expect(await storedText(emulator(), key)).toBeUndefined();
	}, 60_000);
});
