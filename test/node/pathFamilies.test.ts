/**
 * The service's two path families: the published reference spells list, part upload and cancel
 * `GET /files/list`, `POST /multipart/{id}/upload`, `POST /multipart/{id}/cancel`; the official SDK
 * `GET /files/contents`, `POST /multipart/{id}`, `DELETE /multipart/{id}`. The node must work
 * against a service that answers only one of them, learning which once per Base URL.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { start, type Emulator, type PathFamilies } from '../emulator';
import { runNode } from '../harness';
import { startProxy } from './proxy';
import { BUCKET, credentialsFor, fileItem, MIB, randomFile, runFileStorage, sha256 } from './support';

const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

/** HTML 404s the emulator sent: each is one request that went to the family it does not answer. */
const misses = (emulator: Emulator) => emulator.stats().responses['404'] ?? 0;

async function withEmulator(paths: PathFamilies, body: (emulator: Emulator) => Promise<void>): Promise<void> {
	const emulator = await start({ port: 0, paths });
	try {
		await body(emulator);
	} finally {
		await emulator.stop();
	}
}

describe.each(['reference', 'sdk'] as const)('against a service that answers only the %s paths', (family) => {
	let emulator: Emulator;
	beforeAll(async () => {
		emulator = await start({ port: 0, paths: family });
	});
	afterAll(() => emulator.stop());

	test('every operation works: Upload, List Contents, Multipart Upload in parallel parts, Download, Get Signed URL, Purge, Delete', async () => {
		const small = Buffer.from(`small file of the ${family} service`);
		const up = await runFileStorage(
			emulator,
			{ resource: 'file', operation: 'upload', key: 'fam/small.txt' },
			{ items: [fileItem(small)] },
		);
		expect(up.error).toBeUndefined();

		const big = randomFile(15 * MIB + 123);
		const parts = await runFileStorage(
			emulator,
			{ resource: 'file', operation: 'multipartUpload', key: 'fam/big.bin', partSize: 5, parallelUploads: 4 },
			{ items: [fileItem(big)] },
		);
		expect(parts.error).toBeUndefined();
		expect(parts.items[0].json).toMatchObject({ key: 'fam/big.bin', partCount: 4 });
		expect(await emulator.objectSha256(BUCKET.bucketName, BUCKET.region, 'fam/big.bin')).toBe(sha256(big));

		const listed = await runFileStorage(emulator, {
			resource: 'bucket',
			operation: 'listContents',
			folder: 'fam/',
			returnAll: true,
		});
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((item) => item.json.path)).toEqual(['fam/big.bin', 'fam/small.txt']);

		const got = await runFileStorage(emulator, {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('fam/small.txt'),
		});
		expect((await got.readBinary(got.items[0])).equals(small)).toBe(true);
		const link = await runFileStorage(emulator, {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: byKey('fam/small.txt'),
		});
		expect(link.items[0].json).toMatchObject({ is_public: false });

		const purged = await runFileStorage(emulator, {
			resource: 'file',
			operation: 'purge',
			fileKey: byKey('fam/small.txt'),
		});
		expect(purged.error).toBeUndefined();
		expect(purged.items[0].json).toEqual({
			key: 'fam/small.txt',
			bucket: BUCKET.bucketName,
			region: BUCKET.region,
			purged: true,
			message: 'Cache purged successfully',
			urls: [`${emulator.cdnUrl}/f/${emulator.accessId}/fam/small.txt`],
		});

		const deleted = await runFileStorage(emulator, {
			resource: 'file',
			operation: 'delete',
			fileKey: byKey('fam/small.txt'),
		});
		expect(deleted.items[0].json).toMatchObject({ deleted: true });
		expect(emulator.listOpenUploads()).toEqual([]);
	});

	test('step by step: Start, Upload Part, Complete, and Cancel', async () => {
		const key = 'steps/file.bin';
		const started = await runFileStorage(emulator, {
			resource: 'multipartUpload',
			operation: 'start',
			key,
			totalParts: 2,
		});
		const { uploadId } = started.items[0].json as { uploadId: string };
		const data = [randomFile(5 * MIB), Buffer.from('tail')];
		const uploaded = await runFileStorage(
			emulator,
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key,
				partNumber: '={{ $itemIndex + 1 }}',
				totalParts: 2,
			},
			{ items: data.map((d) => fileItem(d)) },
		);
		expect(uploaded.error).toBeUndefined();
		const completed = await runFileStorage(
			emulator,
			{ resource: 'multipartUpload', operation: 'complete', uploadId, key, partsSource: 'items' },
			{ items: uploaded.items.map((item) => ({ json: item.json })) },
		);
		expect(completed.error).toBeUndefined();
		expect((await emulator.readObject(BUCKET.bucketName, BUCKET.region, key))?.body.equals(Buffer.concat(data))).toBe(
			true,
		);

		const other = await runFileStorage(emulator, {
			resource: 'multipartUpload',
			operation: 'start',
			key: 'steps/x.bin',
			totalParts: 1,
		});
		const cancelId = (other.items[0].json as { uploadId: string }).uploadId;
		const cancelled = await runFileStorage(emulator, {
			resource: 'multipartUpload',
			operation: 'cancel',
			uploadId: cancelId,
			key: 'steps/x.bin',
		});
		expect(cancelled.error).toBeUndefined();
		expect(cancelled.items[0].json).toMatchObject({ cancelled: true, doneByEarlierAttempt: false });
		expect(emulator.listOpenUploads()).toEqual([]);
	});

	test('a multipart upload that fails is cancelled on the service in the family that worked', async () => {
		emulator.setFaults([{ operation: 'complete', status: 500 }]);
		try {
			const result = await runFileStorage(
				emulator,
				{
					resource: 'file',
					operation: 'multipartUpload',
					key: 'fail/big.bin',
					partSize: 5,
					options: { maxRetries: 0 },
				},
				{ items: [fileItem(randomFile(5 * MIB + 1))] },
			);
			expect(result.error?.message).toMatch(/Completion of the multipart upload of 'fail\/big\.bin' failed/);
			expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		} finally {
			emulator.setFaults([]);
		}
		expect(emulator.listOpenUploads()).toEqual([]);
	});
});

describe('learning the family', () => {
	test('against an SDK-only service, parallel parts probe once: one request in the reference family per Base URL and process', async () => {
		await withEmulator('sdk', async (emulator) => {
			const big = randomFile(20 * MIB);
			const first = await runFileStorage(
				emulator,
				{ resource: 'file', operation: 'multipartUpload', key: 'probe/one.bin', partSize: 5, parallelUploads: 4 },
				{ items: [fileItem(big)] },
			);
			expect(first.error).toBeUndefined();
			expect(emulator.stats().requests.uploadPart).toBe(4);
			expect(misses(emulator)).toBe(1);
			// Learned: later runs in this process go straight to the SDK's paths.
			await runFileStorage(emulator, {
				resource: 'bucket',
				operation: 'listContents',
				folder: 'probe/',
				returnAll: true,
			});
			const again = await runFileStorage(
				emulator,
				{ resource: 'file', operation: 'multipartUpload', key: 'probe/two.bin', partSize: 5, parallelUploads: 4 },
				{ items: [fileItem(big)] },
			);
			expect(again.error).toBeUndefined();
			expect(misses(emulator)).toBe(1);
			expect(emulator.stats().maxConcurrentPartUploads).toBeGreaterThan(1);
		});
	});

	test('version 3: a multipart upload to a Base URL not learned yet sends its parts at once from the first (a one-entry listing learns the family beside Start)', async () => {
		const emulator = await start({ port: 0, paths: 'sdk', latencyMs: 150 });
		try {
			const big = randomFile(10 * MIB);
			const result = await runFileStorage(
				emulator,
				{ resource: 'file', operation: 'multipartUpload', key: 'v3/two-parts.bin', partSize: 5 },
				{ items: [fileItem(big)], typeVersion: 3 },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ partCount: 2 });
			// Before: part 1 found out the family alone, and part 2 waited for its answer.
			expect(emulator.stats().maxConcurrentPartUploads).toBe(2);
			expect(emulator.stats().requests.uploadPart).toBe(2);
			// The one request in the wrong family was the listing's, not a part's.
			expect(misses(emulator)).toBe(1);
			expect(await emulator.objectSha256(BUCKET.bucketName, BUCKET.region, 'v3/two-parts.bin')).toBe(sha256(big));
		} finally {
			await emulator.stop();
		}
	});

	test('version 3: parts given as items to a Base URL not learned yet all go at once (Upload Part learns the family with a listing first)', async () => {
		const emulator = await start({ port: 0, paths: 'sdk', latencyMs: 150 });
		try {
			const bytes = randomFile(3 * 6000);
			const started = await runFileStorage(
				emulator,
				{ resource: 'multipartUpload', operation: 'start', key: 'v3/steps.bin', totalParts: 3 },
				{ typeVersion: 3 },
			);
			expect(started.error).toBeUndefined();
			const uploadId = String(started.items[0].json.uploadId);
			const parts = [0, 1, 2].map((i) => bytes.subarray(i * 6000, (i + 1) * 6000));
			const sent = await runFileStorage(
				emulator,
				{
					resource: 'multipartUpload',
					operation: 'uploadPart',
					uploadId,
					key: 'v3/steps.bin',
					partNumber: '={{ $json.partNumber }}',
					totalParts: 3,
				},
				{
					items: parts.map((part, i) => ({ ...fileItem(part, `p${i}`), json: { partNumber: i + 1 } })),
					typeVersion: 3,
				},
			);
			expect(sent.error).toBeUndefined();
			expect(emulator.stats().maxConcurrentPartUploads).toBe(3);
			expect(misses(emulator)).toBe(1);
			// One listing found out for all three items.
			expect(emulator.stats().requests.list).toBe(1);
		} finally {
			await emulator.stop();
		}
	});

	test('a learned family is probed again when the service later answers it with a plain 404 (its paths changed)', async () => {
		await withEmulator('sdk', async (emulator) => {
			const list = async () =>
				await runFileStorage(emulator, { resource: 'bucket', operation: 'listContents', returnAll: true });
			expect((await list()).error).toBeUndefined();
			expect(misses(emulator)).toBe(1);
			expect((await list()).error).toBeUndefined();
			expect(misses(emulator)).toBe(1);
			emulator.setPaths('reference');
			expect((await list()).error).toBeUndefined();
			expect(misses(emulator)).toBe(2);
			expect((await list()).error).toBeUndefined();
			expect(misses(emulator)).toBe(2);
			expect(emulator.stats().requests.list).toBe(4);
		});
	});

	test("the API's own 404 (an unknown bucket) is an answer, not a missing path: no request in the other family", async () => {
		await withEmulator('both', async (emulator) => {
			const result = await runNode({
				credentials: credentialsFor(emulator),
				parameters: { resource: 'bucket', operation: 'listContents', bucketName: 'nobody', region: 'us-east-1' },
			});
			expect(result.error?.message).toBe(
				"List Contents of 'nobody' (page 1) failed: Resource not found – Bucket or file not found (HTTP 404)",
			);
			expect(emulator.stats().requests.list).toBe(1);
		});
	});

	test('the API Paths setting of the credential fixes the family: no probe, and no fallback', async () => {
		await withEmulator('sdk', async (emulator) => {
			const pinned = await runNode({
				credentials: credentialsFor(emulator, { apiPaths: 'sdk' }),
				parameters: { ...BUCKET, resource: 'bucket', operation: 'listContents' },
			});
			expect(pinned.error).toBeUndefined();
			expect(misses(emulator)).toBe(0);
			const wrong = await runNode({
				credentials: credentialsFor(emulator, { apiPaths: 'reference' }),
				parameters: { ...BUCKET, resource: 'bucket', operation: 'listContents' },
			});
			expect(wrong.error?.message).toMatch(
				/^List Contents of 'my-bucket' \(page 1\) failed: the server at http:\/\/127\.0\.0\.1:\d+ has no GET \/api\/v1\/files\/list \(HTTP 404\)$/,
			);
			expect(wrong.error?.description).toMatch(/API Paths/);
			expect(misses(emulator)).toBe(1);
		});
	});

	test('a Base URL where neither family exists: the error names both paths and the Base URL to check', async () => {
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				res.writeHead(404, { 'Content-Type': 'text/html' });
				res.end(`<pre>Cannot ${req.method} ${req.url?.split('?')[0]}</pre>`);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;
			const result = await runNode({
				credentials: { fileStorageApi: { accessKey: 'a', secretKey: 's', baseUrl: `http://127.0.0.1:${port}` } },
				parameters: { ...BUCKET, resource: 'bucket', operation: 'listContents' },
			});
			expect(result.error?.message).toMatch(
				/^List Contents of 'my-bucket' \(page 1\) failed\. The server at http:\/\/127\.0\.0\.1:\d+ answered HTTP 404 \(Not Found\), not as the File Storage API does: is the Base URL right\?$/,
			);
			expect(result.error?.description).toMatch(
				/^The Base URL did not answer like the File Storage API \(neither GET \/api\/v1\/files\/list \(the published reference\) nor GET \/api\/v1\/files\/contents \(the official SDK\) exists at http:\/\/127\.0\.0\.1:\d+\)\. Set the Base URL/,
			);
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});

describe('the clean-up Cancel of a failed multipart upload when the Cancel path does not exist', () => {
	test('API Paths fixed to Reference against an SDK-only service: the error does not claim the upload was cancelled while it is still open', async () => {
		await withEmulator('sdk', async (emulator) => {
			const result = await runNode({
				credentials: credentialsFor(emulator, { apiPaths: 'reference' }),
				parameters: {
					...BUCKET,
					resource: 'file',
					operation: 'multipartUpload',
					key: 'fam/left-open.bin',
					partSize: 5,
					parallelUploads: 1,
				},
				items: [fileItem(randomFile(6 * MIB))],
			});
			expect(result.error?.message).toMatch(/HTTP 404/);
			// Neither the part path nor the Cancel path exists: the upload stays open …
			expect(emulator.listOpenUploads()).toHaveLength(1);
			// … so the error says the Cancel failed and parts may remain, not that nothing was stored.
			expect(result.error?.description).not.toMatch(/was cancelled on the service/);
			expect(result.error?.description).toMatch(/Cancelling the multipart upload .* failed as well .*parts may remain/);
		});
	});

	test('Automatic API Paths where neither family has a Cancel path: the error says the Cancel failed, not that the upload was cancelled', async () => {
		await withEmulator('reference', async (emulator) => {
			const proxy = await startProxy(emulator.url);
			try {
				// The reference's Cancel path answers a web server's 404; the SDK's does not exist on this service.
				proxy.setRules({ answerInstead: { cancel: [{ status: 404, html: '<pre>Cannot POST</pre>' }] } });
				emulator.setFaults([{ operation: 'complete', status: 500 }]);
				const result = await runNode({
					credentials: credentialsFor(emulator, { baseUrl: proxy.url }),
					parameters: {
						...BUCKET,
						resource: 'file',
						operation: 'multipartUpload',
						key: 'fam/no-cancel.bin',
						partSize: 5,
						parallelUploads: 1,
						options: { maxRetries: 0 },
					},
					items: [fileItem(randomFile(6 * MIB))],
				});
				expect(result.error?.message).toMatch(/Completion of the multipart upload .* \(HTTP 500\)/);
				expect(emulator.listOpenUploads()).toHaveLength(1);
				expect(result.error?.description).not.toMatch(/was cancelled on the service/);
				expect(result.error?.description).toMatch(
					/Cancelling the multipart upload .* failed as well .*parts may remain/,
				);
			} finally {
				emulator.setFaults([]);
				await proxy.stop();
			}
		});
	});
});

describe('Purge CDN Cache option of Upload', () => {
	let emulator: Emulator;
	beforeAll(async () => {
		emulator = await start({ port: 0, paths: 'sdk' });
	});
	afterAll(() => emulator.stop());

	test('off by default: an Upload sends no purge', async () => {
		const before = emulator.stats().requests.purge;
		const result = await runFileStorage(
			emulator,
			{ resource: 'file', operation: 'upload', key: 'cdn/a.txt' },
			{ items: [fileItem(Buffer.from('a'))] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.purge).toBeUndefined();
		expect(emulator.stats().requests.purge).toBe(before);
	});

	test('on: the replaced file is purged from the CDN cache after it is stored, and the output says so', async () => {
		const before = emulator.stats().requests.purge;
		const result = await runFileStorage(
			emulator,
			{ resource: 'file', operation: 'upload', key: 'cdn/a.txt', options: { purgeCdnCache: true } },
			{ items: [fileItem(Buffer.from('new a'))] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			key: 'cdn/a.txt',
			purge: { message: 'Cache purged successfully', urls: [`${emulator.cdnUrl}/f/${emulator.accessId}/cdn/a.txt`] },
		});
		expect(emulator.stats().requests.purge).toBe(before + 1);
	});

	test('a purge that fails after the upload says the file was stored', async () => {
		emulator.setFaults([{ operation: 'purge', status: 500 }]);
		try {
			const result = await runFileStorage(
				emulator,
				{ resource: 'file', operation: 'upload', key: 'cdn/b.txt', options: { purgeCdnCache: true, maxRetries: 0 } },
				{ items: [fileItem(Buffer.from('b'))] },
			);
			expect(result.error?.message).toBe(
				"Purge of the CDN cache for 'cdn/b.txt' (the file itself was uploaded) failed: Internal server error (HTTP 500)",
			);
		} finally {
			emulator.setFaults([]);
		}
		expect((await emulator.readObject(BUCKET.bucketName, BUCKET.region, 'cdn/b.txt'))?.body.toString()).toBe('b');
	});
});
