/**
 * Contract tests: every operation of the node, run through n8n's engine (the harness), with the
 * node talking to a proxy that checks each request with Prism and each answer with the
 * OpenAPI document before passing it on (see contract-proxy.ts). Downloads go from the node to
 * the CDN URL the API gave, which is the emulator itself: only API calls pass the proxy, and the
 * CDN path is not checked here.
 */
import type { INodeParameters } from 'n8n-workflow';

import { start, type Emulator } from '../emulator';
import { rawRequest } from '../emulator/conformance/client';
import { runNode, type HarnessItem } from '../harness';
import { startContractProxy, type ContractProxy } from './contract-proxy';
import { startPrismMock, type Prism } from './prism';

const MIB = 1024 * 1024;
const BUCKET = { bucketName: 'my-bucket', region: 'us-east-1' };

let emulator: Emulator;
let prism: Prism;
let proxy: ContractProxy;

beforeAll(async () => {
	[emulator, prism] = await Promise.all([start({ port: 0 }), startPrismMock()]);
	proxy = await startContractProxy({ upstream: emulator.url, prism: prism.url });
}, 60_000);
afterAll(async () => {
	await proxy?.close();
	await prism?.stop();
	await emulator?.stop();
});
// A request Prism refused or an answer outside the contract fails the test that caused it.
afterEach(() => expect(proxy.takeViolations()).toEqual([]));

const file = (data: Buffer, fileName = 'file.bin', mimeType = 'application/octet-stream'): HarnessItem => ({
	json: { name: fileName },
	binary: { data: { data, fileName, mimeType } },
});
const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

async function run(parameters: INodeParameters, items?: HarnessItem[]) {
	const result = await runNode({
		credentials: {
			fileStorageApi: { accessKey: emulator.accessKey, secretKey: emulator.secretKey, baseUrl: proxy.url },
		},
		parameters: { ...BUCKET, ...parameters },
		items,
	});
	if (result.error) throw new Error(`${result.error.message}\n${proxy.takeViolations().join('\n')}`);
	return result;
}

const stored = (key: string) => emulator.readObject(BUCKET.bucketName, BUCKET.region, key);

describe('every operation keeps the contract', () => {
	test('Upload, List Contents (one page, Return All over pages, recursive)', async () => {
		const before = proxy.forwarded;
		for (const key of ['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/sub/d.txt', 'list/sub/deeper/e.txt']) {
			await run({ resource: 'file', operation: 'upload', key }, [file(Buffer.from(key), 'x.txt', 'text/plain')]);
		}
		const one = await run({
			resource: 'bucket',
			operation: 'listContents',
			folder: 'list/',
			returnAll: false,
			limit: 2,
		});
		expect(one.items).toHaveLength(2);
		const all = await run({
			resource: 'bucket',
			operation: 'listContents',
			folder: 'list/',
			returnAll: true,
			options: { pageSize: 2 },
		});
		expect(all.items.map((i) => i.json.name)).toEqual(['sub', 'a.txt', 'b.txt', 'c.txt']);
		const deep = await run({
			resource: 'bucket',
			operation: 'listContents',
			folder: 'list/',
			returnAll: true,
			options: { recursive: true, pageSize: 2, include: 'files' },
		});
		expect(deep.items.map((i) => i.json.path ?? i.json.key).sort()).toEqual([
			'list/a.txt',
			'list/b.txt',
			'list/c.txt',
			'list/sub/d.txt',
			'list/sub/deeper/e.txt',
		]);
		// Several pages each: the requests really went through the proxy to the emulator.
		expect(proxy.forwarded - before).toBeGreaterThanOrEqual(5 + 1 + 2 + 4);
	});

	test('Multipart Upload (3 parts) and Upload above the threshold', async () => {
		const bytes = Buffer.alloc(11 * MIB, 0xa5);
		bytes.write('start', 0);
		bytes.write('end', bytes.length - 3);
		await run({ resource: 'file', operation: 'multipartUpload', key: 'big/parts.bin', partSize: 5 }, [file(bytes)]);
		expect((await stored('big/parts.bin'))?.body.equals(bytes)).toBe(true);
		await run(
			{ resource: 'file', operation: 'upload', key: 'big/auto.bin', options: { multipartThreshold: 5, partSize: 5 } },
			[file(bytes)],
		);
		expect((await stored('big/auto.bin'))?.body.equals(bytes)).toBe(true);
		expect(emulator.listOpenUploads()).toEqual([]);
	});

	test('Multipart Upload step by step: start, upload parts, complete; and cancel', async () => {
		const parts = [Buffer.alloc(5 * MIB, 1), Buffer.alloc(5 * MIB, 2), Buffer.from('tail')];
		const key = 'steps/file.bin';
		const started = await run({ resource: 'multipartUpload', operation: 'start', key, totalParts: 3 });
		const { uploadId } = started.items[0].json as { uploadId: string };
		const uploaded = await run(
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key,
				partNumber: '={{ $itemIndex + 1 }}',
				totalParts: 3,
			},
			parts.map((p, i) => file(p, `part-${i + 1}`)),
		);
		await run(
			{ resource: 'multipartUpload', operation: 'complete', uploadId, key, partsSource: 'items' },
			uploaded.items.map((item) => ({ json: item.json })),
		);
		expect((await stored(key))?.body.equals(Buffer.concat(parts))).toBe(true);

		const other = await run({
			resource: 'multipartUpload',
			operation: 'start',
			key: 'steps/cancel.bin',
			totalParts: 1,
		});
		const cancelId = (other.items[0].json as { uploadId: string }).uploadId;
		const cancelled = await run({
			resource: 'multipartUpload',
			operation: 'cancel',
			uploadId: cancelId,
			key: 'steps/cancel.bin',
		});
		expect(cancelled.items[0].json).toMatchObject({ cancelled: true });
		expect(emulator.listOpenUploads()).toEqual([]);
	});

	// Every character here has a meaning in URLs or form encoding; the signature covers its encoding.
	const oddKeys = [
		'odd/with space.txt',
		'odd/plus+sign.txt',
		'odd/100%.txt',
		'odd/ünïcödé ☃ 日本.txt',
		'odd/hash#tag.txt',
		'odd/what?.txt',
		'odd/a&b=c.txt',
	];
	test.each(oddKeys)('Upload, Get Signed URL, Download and Delete of %j', async (key) => {
		const bytes = Buffer.from(`bytes of ${key}`);
		await run({ resource: 'file', operation: 'upload', key }, [
			file(bytes, 'name; with=odd "chars".txt', 'text/plain'),
		]);
		expect((await stored(key))?.body.equals(bytes)).toBe(true);
		const link = await run({ resource: 'file', operation: 'getSignedUrl', fileKey: byKey(key), expiresIn: 60 });
		expect(link.items[0].json).toMatchObject({ key, is_public: false });
		const got = await run({ resource: 'file', operation: 'download', fileKey: byKey(key) });
		expect((await got.readBinary(got.items[0])).equals(bytes)).toBe(true);
		await run({ resource: 'file', operation: 'delete', fileKey: byKey(key) });
		expect(await stored(key)).toBeUndefined();
	});
});

describe('the file operations built from the API keep the contract', () => {
	test('File → Get Info, Copy, Move (odd keys), Folder → Delete (dry run, then for real)', async () => {
		const key = 'ops/ünï cödé+&=.txt';
		const bytes = Buffer.from('bytes to copy');
		await run({ resource: 'file', operation: 'upload', key }, [file(bytes, 'x.txt', 'text/plain')]);
		const info = await run({ resource: 'file', operation: 'getInfo', fileKey: byKey(key) });
		expect(info.items[0].json).toMatchObject({ key, size: bytes.length, content_type: 'text/plain' });
		await run({ resource: 'file', operation: 'copy', fileKey: byKey(key), destinationKey: 'ops/copies/' });
		expect((await stored('ops/copies/ünï cödé+&=.txt'))?.body.equals(bytes)).toBe(true);
		await run({ resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey: 'ops/moved #1.txt' });
		expect(await stored(key)).toBeUndefined();
		const folder = { __rl: true, mode: 'path', value: 'ops/' };
		const dry = await run({ resource: 'folder', operation: 'delete', folder, dryRun: true });
		expect(dry.items.map((item) => item.json.key).sort()).toEqual(['ops/copies/ünï cödé+&=.txt', 'ops/moved #1.txt']);
		await run({ resource: 'folder', operation: 'delete', folder });
		expect(await stored('ops/moved #1.txt')).toBeUndefined();
	});
});

describe('Purge keeps the contract', () => {
	test('File → Purge CDN Cache, and Upload with the Purge CDN Cache option', async () => {
		await run({ resource: 'file', operation: 'upload', key: 'purge/a.txt', options: { purgeCdnCache: true } }, [
			file(Buffer.from('a')),
		]);
		const purged = await run({ resource: 'file', operation: 'purge', fileKey: byKey('purge/a.txt') });
		expect(purged.items[0].json).toMatchObject({ purged: true, urls: [expect.stringMatching(/\/purge\/a\.txt$/)] });
		expect(emulator.stats().requests.purge).toBe(2);
	});
});

describe('against a service that answers only the SDK paths', () => {
	let sdkEmulator: Emulator;
	let sdkProxy: ContractProxy;
	beforeAll(async () => {
		sdkEmulator = await start({ port: 0, paths: 'sdk' });
		sdkProxy = await startContractProxy({ upstream: sdkEmulator.url, prism: prism.url });
	});
	afterAll(async () => {
		await sdkProxy?.close();
		await sdkEmulator?.stop();
	});

	async function runSdk(parameters: INodeParameters, items?: HarnessItem[]) {
		const result = await runNode({
			credentials: {
				fileStorageApi: { accessKey: sdkEmulator.accessKey, secretKey: sdkEmulator.secretKey, baseUrl: sdkProxy.url },
			},
			parameters: { ...BUCKET, ...parameters },
			items,
		});
		if (result.error) throw new Error(`${result.error.message}\n${sdkProxy.takeViolations().join('\n')}`);
		return result;
	}

	test("the one probe of the reference's path is the only answer outside the contract: the service's plain 404", async () => {
		await runSdk({ resource: 'bucket', operation: 'listContents' });
		expect(sdkProxy.takeViolations()).toEqual([
			expect.stringMatching(
				/^answer GET \/api\/v1\/files\/list\?.*: list 404: Content-Type "text\/html" is not in the contract$/,
			),
		]);
	});

	test('List Contents, Multipart Upload, Upload Part and Cancel step by step, and Purge in the SDK family', async () => {
		const bytes = Buffer.alloc(11 * MIB, 0x5a);
		await runSdk({ resource: 'file', operation: 'multipartUpload', key: 'sdk/parts.bin', partSize: 5 }, [file(bytes)]);
		expect((await sdkEmulator.readObject(BUCKET.bucketName, BUCKET.region, 'sdk/parts.bin'))?.body.equals(bytes)).toBe(
			true,
		);
		const listed = await runSdk({ resource: 'bucket', operation: 'listContents', folder: 'sdk/', returnAll: true });
		expect(listed.items.map((i) => i.json.path)).toEqual(['sdk/parts.bin']);
		const started = await runSdk({ resource: 'multipartUpload', operation: 'start', key: 'sdk/x.bin', totalParts: 1 });
		const { uploadId } = started.items[0].json as { uploadId: string };
		await runSdk(
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key: 'sdk/x.bin',
				partNumber: 1,
				totalParts: 1,
			},
			[file(Buffer.from('part'))],
		);
		await runSdk({ resource: 'multipartUpload', operation: 'cancel', uploadId, key: 'sdk/x.bin' });
		await runSdk({ resource: 'file', operation: 'purge', fileKey: byKey('sdk/parts.bin') });
		expect(sdkEmulator.listOpenUploads()).toEqual([]);
		// List Contents' one short page is followed by the empty one that shows its end (one list request more).
		expect(sdkEmulator.stats().requests).toMatchObject({ list: 3, uploadPart: 4, cancel: 1, purge: 1 });
		expect(sdkProxy.takeViolations()).toEqual([]);
	});
});

describe('the checks can fail', () => {
	test('Prism refuses a request outside the contract, and the emulator never sees it', async () => {
		const target = '/api/v1/files/list?bucket_name=my-bucket&region=us-east-1&limit=5000';
		const seen = emulator.stats().requests.list;
		const res = await rawRequest(proxy.url, {
			method: 'GET',
			target,
			headers: { 'X-Access-Key': 'k', 'X-Timestamp': new Date().toISOString(), 'X-Signature': '0'.repeat(64) },
			checkContract: false,
		});
		// The document's own 400, mocked by Prism, with what was wrong in its sl-violations header.
		expect(res.status).toBe(400);
		expect(JSON.parse(String(res.headers['sl-violations']))).toEqual([
			expect.objectContaining({ location: ['request', 'query', 'limit'], code: 'maximum' }),
		]);
		const violations = proxy.takeViolations();
		expect(violations).toHaveLength(1);
		expect(violations[0]).toMatch(/^request GET .*limit=5000: Prism 400 .*must be <= 1000/);
		expect(emulator.stats().requests.list).toBe(seen);
		// Straight to Prism, without the auth headers: its security check.
		const bare = await rawRequest(prism.url, { method: 'GET', target, checkContract: false });
		expect(bare.status).toBe(401);
		expect(emulator.stats().requests.list).toBe(seen);
	});

	test('an answer outside the contract fails the node run through the proxy', async () => {
		emulator.setFaults([{ operation: 'signedUrl', rewrite: { url: 'ftp://x' } }]);
		try {
			await run({ resource: 'file', operation: 'upload', key: 'wrong/answer.txt' }, [file(Buffer.from('x'))]);
			// The node refuses the URL, and the proxy records the violation of the contract.
			const refused = await runNode({
				credentials: {
					fileStorageApi: { accessKey: emulator.accessKey, secretKey: emulator.secretKey, baseUrl: proxy.url },
				},
				parameters: { ...BUCKET, resource: 'file', operation: 'getSignedUrl', fileKey: byKey('wrong/answer.txt') },
			});
			expect(refused.error?.message).toMatch(
				/Unexpected answer from the service to Signed URL of 'wrong\/answer\.txt'/,
			);
		} finally {
			emulator.setFaults([]);
		}
		const violations = proxy.takeViolations();
		expect(violations).toContainEqual(expect.stringMatching(/signedUrl 200: \/data\/url must match pattern/));
		for (const v of violations) expect(v).toMatch(/^answer GET \/api\/v1\/files\/signed-url\?/);
	});
});
