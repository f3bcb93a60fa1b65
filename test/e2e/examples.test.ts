/**
 * The example workflows (examples/workflows) run headless in real n8n, with the package loaded as a
 * user's install, and the emulator ends up holding exactly the bytes the workflows produced.
 */
import {
	BUCKET,
	EXAMPLE_IDS,
	exampleLargeFile,
	executeWorkflow,
	importCredential,
	nodeJson,
	sha256,
	tail,
	useRealN8n,
} from './support';

const n8n = useRealN8n();

// A run of one `n8n execute` costs a few seconds of n8n startup, more on a busy machine.
jest.setTimeout(240000);

function expectSuccess(result: Awaited<ReturnType<typeof executeWorkflow>>) {
	if (result.code !== 0 || result.run?.status !== 'success') {
		throw new Error(
			`workflow did not succeed (exit ${result.code ?? result.signal}, status ${result.run?.status}):\n${tail(result.output, 40)}`,
		);
	}
}

describe('example workflows in real n8n', () => {
	it('uploads the generated text file byte for byte', async () => {
		const { instance, emulator } = n8n();
		const result = await executeWorkflow(instance, EXAMPLE_IDS.upload);
		expectSuccess(result);
		const [stored] = nodeJson(result.run, 'Upload to File Storage');
		expect(stored).toMatchObject({
			key: 'examples/hello.txt',
			bucket: BUCKET.name,
			region: BUCKET.region,
			visibility: 'private',
		});
		const text = 'Hello from n8n!\nThis file was uploaded by the File Storage node.\n';
		const object = await emulator.readObject(BUCKET.name, BUCKET.region, 'examples/hello.txt');
		expect(object?.body.toString('utf8')).toBe(text);
		expect(object?.contentType).toBe('text/plain');
		expect(stored.size).toBe(Buffer.byteLength(text));
		// Version 2's Download, the file picked By URL (the location Upload returned): the
		// incoming item goes on with the file added.
		const [copy] = nodeJson(result.run, 'Download it again');
		expect(copy).toEqual(stored);
		const binaries = result.run?.data.resultData.runData['Download it again'][0].data?.main[0]?.[0].binary;
		expect(Object.keys(binaries ?? {})).toEqual(['copy']);
		expect(binaries?.copy).toMatchObject({ fileName: 'hello.txt', mimeType: 'text/plain' });
	});

	it('uploads the generated 24 MiB file in parts, byte for byte', async () => {
		const { instance, emulator } = n8n();
		emulator.resetStats();
		const result = await executeWorkflow(instance, EXAMPLE_IDS.multipart);
		expectSuccess(result);
		const expected = exampleLargeFile();
		const [stored] = nodeJson(result.run, 'Multipart upload to File Storage');
		expect(stored).toMatchObject({ key: 'examples/large-24MiB.bin', size: expected.length, partCount: 5 });
		expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'examples/large-24MiB.bin')).toBe(sha256(expected));
		const stats = emulator.stats();
		expect(stats.requests).toMatchObject({ start: 1, uploadPart: 5, complete: 1, upload: 0 });
		expect(stats.maxConcurrentPartUploads).toBeLessThanOrEqual(3);
		expect(stats.openMultipartUploads).toBe(0);
	});

	it('lists the bucket with both uploaded files', async () => {
		const { instance } = n8n();
		const result = await executeWorkflow(instance, EXAMPLE_IDS.list);
		expectSuccess(result);
		const entries = nodeJson(result.run, 'List bucket contents');
		expect(entries.map((entry) => entry.path)).toEqual(
			expect.arrayContaining(['examples/hello.txt', 'examples/large-24MiB.bin']),
		);
		expect(entries.every((entry) => entry.type === 'file')).toBe(true);
	});

	it("gets the uploaded file's info, copies it to archive/ byte for byte, and lists what a delete of archive/ would remove", async () => {
		const { instance, emulator } = n8n();
		const result = await executeWorkflow(instance, EXAMPLE_IDS.fileOps);
		expectSuccess(result);
		const [info] = nodeJson(result.run, 'Get info of hello.txt');
		expect(info).toMatchObject({ key: 'examples/hello.txt', exists: true, content_type: 'text/plain' });
		const [copy] = nodeJson(result.run, 'Copy to archive');
		expect(copy).toMatchObject({ key: 'archive/hello.txt', size: info.size, checked: ['size'] });
		const original = await emulator.readObject(BUCKET.name, BUCKET.region, 'examples/hello.txt');
		expect((await emulator.readObject(BUCKET.name, BUCKET.region, 'archive/hello.txt'))?.body).toEqual(original?.body);
		const wouldGo = nodeJson(result.run, 'What a delete of archive/ would remove');
		expect(wouldGo).toEqual([expect.objectContaining({ key: 'archive/hello.txt', deleted: false, dryRun: true })]);
		expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'archive/hello.txt')).toBeDefined();
	});

	it('fails with the service message and a non-zero exit when the secret is wrong, without printing secrets', async () => {
		const { instance, credential } = n8n();
		const wrongSecret = 'wrong-secret-for-e2e-0123456789';
		await importCredential(instance, { ...credential, secretKey: wrongSecret });
		try {
			const result = await executeWorkflow(instance, EXAMPLE_IDS.upload);
			expect(result.code).not.toBe(0);
			expect(result.output).toContain('Invalid authentication credentials');
			expect(result.output).not.toContain(wrongSecret);
			expect(result.output).not.toContain(credential.secretKey);
		} finally {
			await importCredential(instance, credential);
		}
	});
});
