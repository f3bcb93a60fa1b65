import { fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const step = async (operation: string, parameters: Record<string, unknown>, items?: Buffer[]) =>
	await runFileStorage(
		emulator(),
		{ resource: 'multipartUpload', operation, ...parameters },
		items ? { items: items.map((bytes, i) => fileItem(bytes, `part-${i + 1}`)) } : {},
	);

/** One upload started and its single part sent: the Upload Part output item. */
async function uploadedPart(key: string, bytes: Buffer) {
	const started = await step('start', { key, totalParts: 1 });
	const uploadId = started.items[0].json.uploadId as string;
	const part = await step('uploadPart', { uploadId, key, partNumber: 1, totalParts: 1 }, [bytes]);
	return { json: part.items[0].json };
}

describe('Multipart Upload → Complete from items of several uploads, one failing, with Continue On Fail', () => {
	for (const typeVersion of [1, 3]) {
		it(`reports the upload it stored as stored, and the failure on the failing upload's items (version ${typeVersion})`, async () => {
			const stored = randomFile(1500);
			const good = await uploadedPart(`partial-v${typeVersion}/a.bin`, stored);
			const bad = await uploadedPart(`partial-v${typeVersion}/b.bin`, randomFile(2500));
			// The second upload's part carries an ETag the service never gave: its Complete is refused (400).
			bad.json = { ...bad.json, ETag: '"00000000000000000000000000000000"' };
			const completed = await runFileStorage(
				emulator(),
				{
					resource: 'multipartUpload',
					operation: 'complete',
					uploadId: '={{ $json.uploadId }}',
					key: '={{ $json.key }}',
					partsSource: 'items',
					options: { maxRetries: 0 },
				},
				{ items: [good, bad], typeVersion, continueOnFail: true },
			);
			// The first upload was completed: its file is stored with its bytes.
			expect(await emulator().objectSha256('my-bucket', 'us-east-1', `partial-v${typeVersion}/a.bin`)).toBe(
				sha256(stored),
			);
			// So the output says so for item 1, and the failure is given for item 2 (the failing upload's).
			const storedItem = completed.items.find((item) => item.json.key === `partial-v${typeVersion}/a.bin`);
			const failures = completed.items.filter((item) => item.json.error !== undefined);
			expect({ stored: storedItem?.json.key, failedFor: failures.map((item) => item.pairedItem) }).toEqual({
				stored: `partial-v${typeVersion}/a.bin`,
				failedFor: [{ item: 1 }],
			});
		});
	}
});
