/**
 * Where the file goes, as the editor says it: Folder + Path in Folder is the key; a key ending in
 * '/' names a folder, never a file; Upload replaces an existing file unless Refuse Existing File
 * is on, which then fails before any byte is sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { BUCKET, MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const old = randomFile(2048);
const fresh = randomFile(4096);

const upload = async (parameters: INodeParameters, bytes = fresh, extra = {}) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', ...parameters },
		{ items: [fileItem(bytes, 'q1.txt', 'text/plain')], ...extra },
	);
const stored = async (key: string) => await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);
/** Requests that carried or began to carry file bytes. */
const bytesSent = () => {
	const { requests } = emulator().stats();
	return requests.upload + requests.start + requests.uploadPart;
};

describe('Folder + Path in Folder', () => {
	const keyField = new FileStorage().description.properties.find((p) => p.name === 'key')!;

	it('the Path field names the key it makes with Folder: Folder examples/ and reports/q1.txt store examples/reports/q1.txt', async () => {
		expect(keyField.displayName).toBe('Path in Folder');
		expect(keyField.hint).toContain('examples/reports/q1.txt');
		const result = await upload({ folder: { __rl: true, mode: 'path', value: 'examples/' }, key: 'reports/q1.txt' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('examples/reports/q1.txt');
		expect(await stored('examples/reports/q1.txt')).toBe(sha256(fresh));
	});

	it("a Path in Folder ending in '/' names a folder: the upload fails before any byte is sent", async () => {
		emulator().resetStats();
		const result = await upload({ key: 'reports/' });
		expect(result.error?.message).toBe(
			"The key 'reports/' ends in '/': it names a folder, not a file (parameter 'Path in Folder')",
		);
		expect(result.error?.description).toMatch(/reports\/q1\.txt/);
		expect(bytesSent()).toBe(0);
	});
});

describe("a File ending in '/' is a folder", () => {
	it.each(['download', 'getInfo', 'delete', 'getSignedUrl'])('%s says so before any request', async (operation) => {
		emulator().resetStats();
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation,
			fileKey: { __rl: true, mode: 'key', value: 'reports/2026/' },
		});
		expect(result.error?.message).toBe("'reports/2026/' is a folder, not a file (parameter 'File')");
		expect(result.error?.description).toMatch(/Folder → Delete|List/);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});
});

describe('Upload over an existing file', () => {
	beforeEach(async () => {
		const first = await upload({ key: 'exists/q1.txt' }, old);
		expect(first.error).toBeUndefined();
		emulator().resetStats();
	});

	it('replaces it by default, as before', async () => {
		const result = await upload({ key: 'exists/q1.txt' });
		expect(result.error).toBeUndefined();
		expect(await stored('exists/q1.txt')).toBe(sha256(fresh));
	});

	it.each([
		['Upload', 'upload', {}],
		['Multipart Upload', 'multipartUpload', {}],
		['Upload, version 2', 'upload', { typeVersion: 2 }],
	])('%s with Refuse Existing File fails before any byte is sent, naming the option', async (_, operation, extra) => {
		const result = await upload({ operation, key: 'exists/q1.txt', options: { refuseExisting: true } }, fresh, extra);
		expect(result.error?.message).toBe(
			"The file 'exists/q1.txt' already exists in bucket 'my-bucket' (region us-east-1)",
		);
		expect(result.error?.description).toMatch(/Refuse Existing File/);
		expect(bytesSent()).toBe(0);
		expect(await stored('exists/q1.txt')).toBe(sha256(old));
	});

	it('with Refuse Existing File, a new path is uploaded (in parts too)', async () => {
		const big = randomFile(6 * MIB + 1);
		const result = await upload(
			{ operation: 'multipartUpload', key: 'exists/new.bin', partSize: 5, options: { refuseExisting: true } },
			big,
		);
		expect(result.error).toBeUndefined();
		expect(await stored('exists/new.bin')).toBe(sha256(big));
	});

	it('with Continue On Fail the refusal is the item and the run goes on', async () => {
		const result = await upload({ key: 'exists/q1.txt', options: { refuseExisting: true } }, fresh, {
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(/already exists/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});
