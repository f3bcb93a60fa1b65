/**
 * The API's own answers are judged by what caches say of them, as the CDN's are (Age, X-Cache,
 * Cache-Status: transport/cacheMarks.ts). A caching gateway in front of the API (nginx
 * micro-caching GETs, a "cache everything" rule; the API's auth is in custom headers, not
 * Authorization, so a shared cache stores its GET answers by URL) answers a listing or a
 * signed-link request with a copy it kept, and says so (X-Cache: HIT, Age). No destructive step
 * decides on such an answer: the transport refuses it, naming the cache and the fix.
 * - Move's listing of its source just before the delete, answered from the cache, would still show
 *   the version copied after another writer replaced it: the source is kept;
 * - Upload with Refuse Existing File: the existence check, answered with a kept 404 (negative
 *   caching), would say "absent" of a file another writer stored since: nothing is uploaded.
 * A gateway that keeps nothing but stamps what it forwards (X-Cache: MISS, Age: 0) changes nothing.
 * Through n8n-core's engine over real HTTP; the gateway is a small caching proxy in front of the
 * emulator, the other writer acts from the emulator's hooks.
 */

import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { runNode, type RunNodeOptions } from '../harness';
import { X_CACHE_MARKS, useCachingGateway } from './cachingGateway';
import { BUCKET, HERE, byKey, credentialsFor, fileItem, putText, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

const gateway = useCachingGateway(emulator, /^\/api\/v1\/files\/(list|contents|signed-url)$/);
/** One that keeps listings only: the destination's existence checks (signed URLs) go through to the API. */
const listingGateway = useCachingGateway(emulator, /^\/api\/v1\/files\/(list|contents)$/);
/** A gateway that keeps nothing but stamps every answer it forwards as a miss, `Age: 0` included (Varnish does). */
const stamping = useCachingGateway(emulator, /^$/, {
	...X_CACHE_MARKS,
	miss: { 'X-Cache': 'MISS', Age: '0', 'Cache-Status': 'gateway; fwd=uri-miss' },
});

function viaGateway(parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}, through = gateway) {
	return runNode({
		credentials: credentialsFor(emulator(), { baseUrl: through().url }),
		continueOnFail: true,
		...extra,
		parameters: { ...BUCKET, ...parameters },
	});
}

beforeEach(() => emulator().adversary.setHooks(undefined));
afterEach(() => emulator().adversary.setHooks(undefined));

describe('Move: a listing a cache kept is no proof that the source is still the version copied', () => {
	it("the source's listing before the delete answered from the gateway's cache: a newer version stored during the copy survives", async () => {
		const source = 'gw-cache/report.txt';
		const destination = 'gw-cache-to/report.txt';
		await put(source, 'version 1', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const newer = 'version 2, stored by the app while the copy was made (longer)';
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call: HookCall) => {
				// After the source was read and listed: the app stores a newer version of it.
				if (struck || call.op !== 'upload' || call.query.get('key') !== destination) return;
				struck = true;
				await put(source, newer, 'app');
			},
		});
		const result = await viaGateway(
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{},
			listingGateway,
		);
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		// The gateway did answer the source's listing from its cache (marked HIT, with an Age).
		const sourceListings = listingGateway().hits.filter((hit) =>
			/\/files\/(list|contents)\?.*prefix=gw-cache%2Freport/.test(hit),
		);
		expect(sourceListings.length).toBeGreaterThan(0);
		expect(await read(destination)).toBe('version 1');
		// The newer version is nowhere else: it must still be at the source.
		expect(await read(source)).toBe(newer);
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 40_000);
});

describe('Upload with Refuse Existing File: a "not found" a cache kept is no proof that the key is free', () => {
	it("the existence check answered with the gateway's kept 404: a file another writer stored since is not replaced", async () => {
		const key = 'gw-cache-refuse/contract.txt';
		const upload = (text: string) =>
			viaGateway(
				{ resource: 'file', operation: 'upload', key, options: { refuseExisting: true } },
				{ items: [fileItem(Buffer.from(text), 'contract.txt', 'text/plain')] },
			);
		// The key is free: the first run's check gets the API's 404, which the gateway keeps.
		const first = await upload('first run: a draft');
		expect(first.error).toBeUndefined();
		// Another writer (the signing app) stores the signed contract at the key.
		await put(key, 'the signed contract, the only copy', 'other');
		const second = await upload('second run: another draft');
		// The 404 was the gateway's kept answer, marked as such.
		expect(gateway().hits.some((hit) => hit.includes('/api/v1/files/signed-url'))).toBe(true);
		expect(await read(key)).toBe('the signed contract, the only copy');
		expect(second.error?.message ?? String(second.items[0]?.json.error ?? '')).toMatch(/exist|could not/i);
	}, 40_000);
});

describe('A gateway that marks the answers it forwards as misses (X-Cache: MISS, Age: 0) is no cache answering', () => {
	it('Move and Upload with Refuse Existing File through it work as without it', async () => {
		const source = 'gw-miss/report.txt';
		const destination = 'gw-miss-to/report.txt';
		await put(source, 'version 1', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const moved = await viaGateway(
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{},
			stamping,
		);
		expect(moved.error).toBeUndefined();
		expect(moved.items[0]?.json.error).toBeUndefined();
		expect(moved.items[0]?.json.sourceDeleted).toBe(true);
		expect(await read(destination)).toBe('version 1');
		const uploaded = await viaGateway(
			{ resource: 'file', operation: 'upload', key: 'gw-miss/new.txt', options: { refuseExisting: true } },
			{ items: [fileItem(Buffer.from('a draft'), 'new.txt', 'text/plain')] },
			stamping,
		);
		expect(uploaded.items[0]?.json.error).toBeUndefined();
		expect(await read('gw-miss/new.txt')).toBe('a draft');
	}, 40_000);
});
