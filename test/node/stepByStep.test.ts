import { MIB, credentialsFor, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const step = async (operation: string, parameters: Record<string, unknown>, items?: Parameters<typeof fileItem>[0][]) =>
	await runFileStorage(
		emulator(),
		{ resource: 'multipartUpload', operation, ...parameters },
		items ? { items: items.map((bytes, i) => fileItem(bytes, `part-${i + 1}`)) } : {},
	);

describe('Multipart Upload resource, step by step', () => {
	it('Start → 3 × Upload Part (as separate items) → Complete produces a byte-identical file', async () => {
		const whole = randomFile(10 * MIB + 4321);
		const parts = [whole.subarray(0, 5 * MIB), whole.subarray(5 * MIB, 10 * MIB), whole.subarray(10 * MIB)];

		const started = await step('start', { key: 'steps/movie.mkv', totalParts: 3, contentType: 'video/x-matroska' });
		expect(started.error).toBeUndefined();
		const { uploadId } = started.items[0].json as { uploadId: string };
		expect(uploadId).toEqual(expect.any(String));
		expect(emulator().listOpenUploads()).toHaveLength(1);

		const uploaded = await step(
			'uploadPart',
			{ uploadId, key: 'steps/movie.mkv', partNumber: '={{ $itemIndex + 1 }}', totalParts: 3 },
			parts,
		);
		expect(uploaded.error).toBeUndefined();
		expect(uploaded.items.map((item) => item.json.partNumber)).toEqual([1, 2, 3]);
		for (const item of uploaded.items) expect(String(item.json.ETag)).toMatch(/^".+"$/);

		const completed = await runFileStorage(
			emulator(),
			{ resource: 'multipartUpload', operation: 'complete', uploadId, key: 'steps/movie.mkv', partsSource: 'items' },
			{ items: uploaded.items.map((item) => ({ json: item.json })) },
		);
		expect(completed.error).toBeUndefined();
		expect(completed.items).toHaveLength(1);
		expect(completed.items[0].json).toMatchObject({
			key: 'steps/movie.mkv',
			size: whole.length,
			content_type: 'video/x-matroska',
			partCount: 3,
		});
		expect(completed.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'steps/movie.mkv')).toBe(sha256(whole));
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('Complete from items completes each upload with its own parts when items carry different uploads', async () => {
		const files = { 'steps/a.bin': randomFile(1000), 'steps/b.bin': randomFile(2000) };
		const partItems = [];
		for (const [key, bytes] of Object.entries(files)) {
			const started = await step('start', { key, totalParts: 1 });
			const uploadId = started.items[0].json.uploadId as string;
			const part = await step('uploadPart', { uploadId, key, partNumber: 1, totalParts: 1 }, [bytes]);
			partItems.push({ json: part.items[0].json });
		}
		// Each part item carries its own uploadId and key, as Upload Part outputs them.
		const completed = await runFileStorage(
			emulator(),
			{
				resource: 'multipartUpload',
				operation: 'complete',
				uploadId: '={{ $json.uploadId }}',
				key: '={{ $json.key }}',
				partsSource: 'items',
			},
			{ items: partItems },
		);
		expect(completed.error).toBeUndefined();
		expect(completed.items.map((item) => item.json.key)).toEqual(['steps/a.bin', 'steps/b.bin']);
		expect(completed.items.map((item) => item.pairedItem)).toEqual([[{ item: 0 }], [{ item: 1 }]]);
		for (const [key, bytes] of Object.entries(files)) {
			expect(await emulator().objectSha256('my-bucket', 'us-east-1', key)).toBe(sha256(bytes));
		}
		expect(emulator().listOpenUploads()).toEqual([]);
	});

	it('Complete takes parts from a JSON list (either spelling), and says which entry is bad', async () => {
		const started = await step('start', { key: 'steps/json.bin', totalParts: 1 });
		const { uploadId } = started.items[0].json as { uploadId: string };
		const bytes = randomFile(1000);
		const part = await step('uploadPart', { uploadId, key: 'steps/json.bin', partNumber: 1, totalParts: 1 }, [bytes]);
		const bad = await step('complete', {
			uploadId,
			key: 'steps/json.bin',
			partsSource: 'json',
			partsJson: '[{"PartNumber": 1}]',
		});
		expect(bad.error?.message).toMatch(/Part 1 of the parameter 'Parts' has no ETag/);
		const malformed = await step('complete', { uploadId, key: 'steps/json.bin', partsSource: 'json', partsJson: '[{' });
		expect(malformed.error?.message).toMatch(/'Parts' is not valid JSON/);
		const partsJson = JSON.stringify([{ PartNumber: 1, ETag: part.items[0].json.ETag }]);
		const done = await step('complete', { uploadId, key: 'steps/json.bin', partsSource: 'json', partsJson });
		expect(done.error).toBeUndefined();
		expect(await emulator().objectSha256('my-bucket', 'us-east-1', 'steps/json.bin')).toBe(sha256(bytes));
	});

	it('Cancel leaves no open upload, and an unknown upload ID is a 404', async () => {
		const started = await step('start', { key: 'steps/cancel.bin', totalParts: 2 });
		const { uploadId } = started.items[0].json as { uploadId: string };
		await step('uploadPart', { uploadId, key: 'steps/cancel.bin', partNumber: 1, totalParts: 2 }, [
			randomFile(5 * MIB),
		]);
		const cancelled = await step('cancel', { uploadId, key: 'steps/cancel.bin' });
		expect(cancelled.items[0].json).toMatchObject({ uploadId, cancelled: true });
		expect(emulator().listOpenUploads()).toEqual([]);
		const unknown = await step('complete', {
			uploadId: 'no-such-upload',
			key: 'steps/cancel.bin',
			partsSource: 'json',
			partsJson: '[{"partNumber":1,"ETag":"\\"x\\""}]',
		});
		expect(unknown.error?.message).toMatch(/HTTP 404/);
	});
});

describe('Multipart Upload step by step: an Upload ID that names another call', () => {
	// In the SDK path family a part goes to POST /multipart/{uploadId}: an Upload ID `start` is the
	// start-multipart call's own path, and `.`/`..` are resolved away by URL clients and proxies.
	const sent = () => {
		const { opened, requests } = emulator().stats().connections;
		return { opened, requests };
	};
	it.each([
		['uploadPart', 'start'],
		['uploadPart', '..'],
		['complete', 'START'],
		['cancel', '.'],
	])('%s with Upload ID "%s" is refused naming Upload ID, and nothing is sent', async (operation, uploadId) => {
		const before = sent();
		const result = await runFileStorage(
			emulator(),
			{ resource: 'multipartUpload', operation, uploadId, key: 'steps/x.bin', partNumber: 1, totalParts: 1 },
			{
				items: [fileItem(randomFile(100), 'part-1')],
				credentials: credentialsFor(emulator(), { apiPaths: 'sdk' }),
			},
		);
		expect(result.error?.message).toMatch(/Upload ID/);
		expect(result.error?.message).toContain(`"${uploadId}"`);
		expect(sent()).toEqual(before);
		expect(emulator().listOpenUploads()).toEqual([]);
	});
});
