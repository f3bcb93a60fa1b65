/**
 * Version 3 learns the path family with a one-entry listing beside Start (transport/api.ts
 * learnPathFamily → FileStorageClient.learnFamilyWith). An error only the route gives (the API's
 * own 403 for a key without list permission) teaches the family as a success does; a 401 (a
 * signature refused, possibly before any routing) teaches nothing, and part 1 finds out as before.
 */
import { start, type Emulator } from '../emulator';
import { startProxy, type TestProxy } from './proxy';
import { BUCKET, credentialsFor, fileItem, MIB, randomFile, sha256 } from './support';
import { runNode } from '../harness';

/** HTML 404s the emulator sent: each is one request that went to the family it does not answer. */
const misses = (emulator: Emulator) => emulator.stats().responses['404'] ?? 0;

const upload = async (bytes: Buffer, key: string) =>
	await runNode({
		credentials: credentialsFor(emulator, { baseUrl: proxy.url }),
		parameters: { ...BUCKET, resource: 'file', operation: 'multipartUpload', key, partSize: 5 },
		items: [fileItem(bytes)],
		typeVersion: 3,
	});

let emulator: Emulator;
let proxy: TestProxy;

describe('learning the path family with a listing (version 3)', () => {
	beforeEach(async () => {
		// A fresh origin per test: the family is remembered per Base URL and process.
		emulator = await start({ port: 0, paths: 'sdk', latencyMs: 150 });
		proxy = await startProxy(emulator.url);
	});
	afterEach(async () => {
		await proxy.stop();
		await emulator.stop();
	});

	it("the listing answered with the API's own 403 (a key without list permission) still teaches the family: the parts go at once, none in the wrong family", async () => {
		proxy.setRules({ answerInstead: { 'GET /api/v1/files/contents': [{ status: 403 }] } });
		const big = randomFile(10 * MIB);
		const result = await upload(big, 'v3/denied.bin');
		expect(result.error).toBeUndefined();
		expect(await emulator.objectSha256(BUCKET.bucketName, BUCKET.region, 'v3/denied.bin')).toBe(sha256(big));
		// Only the listing's first try went to the wrong family, and both parts went at once.
		const listedInSdk = proxy.exchanges.filter((e) => e.operation === 'GET /api/v1/files/contents');
		expect(listedInSdk.map((e) => e.status)).toEqual([403]);
		expect(misses(emulator)).toBe(1);
		expect(emulator.stats().maxConcurrentPartUploads).toBe(2);
	});

	it('the listing answered 401 teaches nothing: part 1 finds out the family, and the upload is stored whole', async () => {
		proxy.setRules({ answerInstead: { 'GET /api/v1/files/contents': [{ status: 401 }] } });
		const big = randomFile(10 * MIB);
		const result = await upload(big, 'v3/refused.bin');
		expect(result.error).toBeUndefined();
		expect(await emulator.objectSha256(BUCKET.bucketName, BUCKET.region, 'v3/refused.bin')).toBe(sha256(big));
		// The listing's miss, then part 1's in the reference family.
		expect(misses(emulator)).toBe(2);
		expect(emulator.stats().requests.uploadPart).toBe(2);
	});
});

describe('a listing that never answers (version 3)', () => {
	let slow: Emulator;
	beforeEach(async () => {
		slow = await start({ port: 0, paths: 'both' });
	});
	afterEach(async () => {
		await slow.stop();
	});

	it('holds the parts back for at most 10 s, not for the Timeout: part 1 then finds out the family, and the upload is stored whole', async () => {
		slow.setFaults([{ operation: 'list', hang: true }]);
		const big = randomFile(10 * MIB);
		const result = await runNode({
			credentials: credentialsFor(slow),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'multipartUpload',
				key: 'v3/hung-listing.bin',
				partSize: 5,
			},
			items: [fileItem(big)],
			typeVersion: 3,
			// Before: the listing held the parts for the whole Timeout option (300 s by default).
			timeoutMs: 60_000,
		});
		expect(result.error).toBeUndefined();
		expect(await slow.objectSha256(BUCKET.bucketName, BUCKET.region, 'v3/hung-listing.bin')).toBe(sha256(big));
		// Tried once: the listing is only a hint, so it is not retried.
		expect(slow.stats().requests.list).toBe(1);
	}, 90_000);
});
