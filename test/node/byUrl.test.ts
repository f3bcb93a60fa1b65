import { fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const KEY = 'by url/ré sumé+final #1.pdf';
const bytes = randomFile(4096);

describe('the File picker By URL', () => {
	it("takes a file's location as Upload returns it, and a signed link as Get Signed URL returns it", async () => {
		const uploaded = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: KEY, visibility: 'private' },
			{ items: [fileItem(bytes)] },
		);
		expect(uploaded.error).toBeUndefined();
		const location = String(uploaded.items[0].json.location);

		const downloaded = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'url', value: location },
		});
		expect(downloaded.error).toBeUndefined();
		expect(downloaded.items[0].binary?.data?.fileName).toBe('ré sumé+final #1.pdf');
		expect(await downloaded.binarySha256(downloaded.items[0])).toBe(sha256(bytes));

		const signed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'getSignedUrl',
			fileKey: { __rl: true, mode: 'url', value: location },
		});
		const link = String(signed.items[0].json.url);
		expect(link).toContain('?');
		const removed = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'url', value: link },
		});
		expect(removed.items[0].json).toMatchObject({ key: KEY, deleted: true });
		expect(await emulator().readObject('my-bucket', 'us-east-1', KEY)).toBeUndefined();
	});

	it('refuses a URL that is not a file location, before any request', async () => {
		emulator().resetStats();
		const parameters = (value: string) => ({
			resource: 'file',
			operation: 'delete',
			fileKey: { __rl: true, mode: 'url', value },
		});
		// Typed in: n8n itself refuses to run the workflow, with the mode's validation message.
		await expect(runFileStorage(emulator(), parameters('https://example.com/reports/q1.pdf'))).rejects.toThrow(
			/Paste a file location: https:\/\/<CDN host>\/f\/<access id>\/<key>/,
		);
		// From an expression: the node's own check.
		const result = await runFileStorage(emulator(), parameters('={{ "https://example.com/reports/q1.pdf" }}'));
		expect(result.error?.message).toMatch(
			/The URL "https:\/\/example\.com\/reports\/q1\.pdf" is not a file location \(parameter 'File'\)/,
		);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});
});
