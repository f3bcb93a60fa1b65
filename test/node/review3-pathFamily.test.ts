/**
 * Review 3: version 3 learns the path family with a one-entry listing beside Start
 * (transport/api.ts learnPathFamily → FileStorageClient.learnFamilyWith), whose comment says
 * "Any answer of the API teaches the family, its errors included (a key without list permission
 * gets the API's 403)". The existing test: "version 3: a multipart upload to a Base URL not
 * learned yet sends its parts at once from the first (a one-entry listing learns the family
 * beside Start)".
 */
import { start, type Emulator } from '../emulator';
import { startProxy, type TestProxy } from './proxy';
import { BUCKET, credentialsFor, fileItem, MIB, randomFile, sha256 } from './support';
import { runNode } from '../harness';

/** HTML 404s the emulator sent: each is one request that went to the family it does not answer. */
const misses = (emulator: Emulator) => emulator.stats().responses['404'] ?? 0;

describe('review 3: learning the path family with a listing (version 3)', () => {
	let emulator: Emulator;
	let proxy: TestProxy;
	beforeEach(async () => {
		// A fresh origin per test: the family is remembered per Base URL and process.
		emulator = await start({ port: 0, paths: 'sdk', latencyMs: 150 });
		proxy = await startProxy(emulator.url);
	});
	afterEach(async () => {
		await proxy.stop();
		await emulator.stop();
	});

	it.each([
		[403, 'a key without list permission'],
		[401, 'list refused'],
	])(
		"the listing answered with the API's own %i (%s) still teaches the family: the parts go at once, none in the wrong family",
		async (status) => {
			proxy.setRules({ answerInstead: { 'GET /api/v1/files/contents': [{ status }] } });
			const big = randomFile(10 * MIB);
			const result = await runNode({
				credentials: credentialsFor(emulator, { baseUrl: proxy.url }),
				parameters: { ...BUCKET, resource: 'file', operation: 'multipartUpload', key: 'v3/denied.bin', partSize: 5 },
				items: [fileItem(big)],
				typeVersion: 3,
			});
			expect(result.error).toBeUndefined();
			expect(await emulator.objectSha256(BUCKET.bucketName, BUCKET.region, 'v3/denied.bin')).toBe(sha256(big));
			// The API answered in the SDK's family (its own JSON error), so the family is known:
			// only the listing's first try went to the wrong family, and both parts went at once.
			const listedInSdk = proxy.exchanges.filter((e) => e.operation === 'GET /api/v1/files/contents');
			expect(listedInSdk.map((e) => e.status)).toEqual([status]);
			expect(misses(emulator)).toBe(1);
			expect(emulator.stats().maxConcurrentPartUploads).toBe(2);
		},
	);
});
