/**
 * The cap on the parts of a source of unknown length (10,000, the service's limit) with a cap of
 * 3, so a small source can reach it: multipartUpload takes the cap as an option, and this file
 * hands the node's operations a multipartUpload that asks for 3. Everything else is the node as
 * built, run through n8n's engine against the emulator.
 */
import type { INodeParameters } from 'n8n-workflow';

import { startSourceServer, type SourceServer } from './sourceServer';
import { BUCKET, MIB, randomFile, runFileStorage, sha256, useEmulator } from './support';

const CAP = 3;

jest.mock('../../dist/nodes/FileStorage/upload/multipartUpload', () => {
	const actual = jest.requireActual<typeof import('../../nodes/FileStorage/upload/multipartUpload')>(
		'../../dist/nodes/FileStorage/upload/multipartUpload',
	);
	return {
		...actual,
		multipartUpload: async (...args: Parameters<typeof actual.multipartUpload>) => {
			const [upload, options] = args;
			return await actual.multipartUpload(upload, { ...options, maxParts: CAP });
		},
	};
});

const emulator = useEmulator();
/** Exactly the cap's parts of 5 MiB, and one byte more. */
const fits = randomFile(CAP * 5 * MIB);
const tooLong = randomFile(CAP * 5 * MIB + 1);
let source: SourceServer;

beforeAll(async () => {
	source = await startSourceServer({ 'fits.bin': fits, 'too-long.bin': tooLong });
});
afterAll(async () => await source.stop());
beforeEach(() => emulator().resetStats());

const fromUrl = async (url: string, extra: INodeParameters, operation: string) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation,
		source: 'url',
		sourceUrl: url,
		allowSourceWithoutLength: true,
		...extra,
	});

describe('Upload from a URL of unknown length, with a cap of 3 parts', () => {
	it('a source of exactly the cap of parts is stored', async () => {
		const result = await fromUrl(
			`${source.url}/chunked/fits.bin`,
			{ key: 'cap/fits.bin', partSize: 5 },
			'multipartUpload',
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ partCount: CAP, size: fits.length });
		expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, 'cap/fits.bin')).toBe(sha256(fits));
	});

	it.each(['multipartUpload', 'upload'])(
		'%s: a source longer than the cap of parts fails naming the cap, and the upload is cancelled',
		async (operation) => {
			const key = `cap/too-long-${operation}.bin`;
			const parts = operation === 'upload' ? { options: { partSize: 5 } } : { partSize: 5 };
			const result = await fromUrl(`${source.url}/chunked/too-long.bin`, { key, ...parts }, operation);
			expect(result.error?.message).toBe(
				`The source URL '${source.url}/chunked/too-long.bin' is longer than ${CAP} parts of 5 MiB, the most the service allows`,
			);
			expect(result.error?.description).toMatch(
				/^Raise Part Size: the size of the source was not known in advance\. The multipart upload \S+ was cancelled on the service; nothing was stored\.$/,
			);
			const stats = emulator().stats();
			expect(stats.requests.uploadPart).toBeLessThanOrEqual(CAP);
			expect(stats.requests.cancel).toBe(1);
			expect(emulator().listOpenUploads()).toEqual([]);
			expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key)).toBeUndefined();
		},
	);
});
