import { startSourceServer, type SourceServer } from './sourceServer';
import { BUCKET, MIB, randomFile, runFileStorage, sha256, useEmulator } from './support';

/**
 * A Source URL goes through the node's one attempt loop (transport/attempts.ts) and its one
 * classifier of network errors (transport/networkErrors.ts), as the service's calls do.
 */
const emulator = useEmulator();
const file = randomFile(MIB + 7);
let source: SourceServer;

beforeAll(async () => {
	source = await startSourceServer({ 'file.bin': file });
});
afterAll(async () => {
	await source.stop();
});
beforeEach(() => {
	source.requests.splice(0);
});

const fromUrl = async (url: string, maxRetries: number) =>
	await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'upload',
		source: 'url',
		sourceUrl: url,
		key: 'reset.bin',
		options: { maxRetries },
	});

describe('Upload from a URL: network failures', () => {
	it('a connection the source resets before answering is tried again, and the file is stored whole', async () => {
		const url = `${source.url}/reset/file.bin`;
		const result = await fromUrl(url, 1);
		expect(result.error).toBeUndefined();
		expect(source.requests).toHaveLength(2);
		expect(await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, 'reset.bin')).toBe(sha256(file));
	});

	it('with Max Retries 0 the reset fails the item, named as the source', async () => {
		const url = `${source.url}/reset/once-more/file.bin`;
		const result = await fromUrl(url, 0);
		expect(result.error?.message).toBe(`The source URL '${url}' could not be reached: the connection was closed`);
		expect(source.requests).toHaveLength(1);
	});
});
