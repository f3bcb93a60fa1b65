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

	it("a link it cannot read is shown without its user info or query: a signed link's signature never appears", async () => {
		const link = 'https://someone:pa55word@cdn.example.com/files/q1.pdf?X-Signature=s3cr3tsig&expires=1#frag';
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'url', value: `={{ ${JSON.stringify(link)} }}` },
		});
		expect(result.error?.message).toBe(
			`The URL "https://cdn.example.com/files/q1.pdf" is not a file location (parameter 'File')`,
		);
		// (n8n itself keeps the node's parameters, as typed, with the error's node.)
		const shown = `${result.error?.message} ${result.error?.description}`;
		for (const secret of ['pa55word', 'someone', 's3cr3tsig', 'X-Signature', 'frag'])
			expect(shown).not.toContain(secret);
	});

	it('a file location whose key is not valid percent-encoding is refused, still without its query', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: { __rl: true, mode: 'url', value: '={{ "https://cdn.example.com/f/id/bad%E0%A4.pdf?sig=s3cr3tsig" }}' },
		});
		expect(result.error?.message).toBe(
			`The URL "https://cdn.example.com/f/id/bad%E0%A4.pdf" is not a file location (parameter 'File')`,
		);
		expect(`${result.error?.message} ${result.error?.description}`).not.toContain('s3cr3tsig');
	});
});
