/**
 * Multipart Upload with Refuse Existing File checks the key before the first part and again just
 * before Complete: the file appears (and replaces what is there) only at Complete, so a file
 * another writer stores while the parts are sent (minutes for a large file) is seen, the upload
 * cancelled and the item refused. Through n8n-core's engine over real HTTP to the emulator; the other writer acts from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

describe.each([2, 3])('Multipart Upload with Refuse Existing File (node version %i)', (typeVersion) => {
	it("another writer's file stored at the key while the parts are sent is not replaced by the Complete", async () => {
		const key = `mp-refuse-v${typeVersion}/video.mp4`;
		let struck = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (struck || call.op !== 'uploadPart' || call.query.get('key') !== key) return undefined;
				struck = true;
				// Minutes before the Complete, on a real link: the editor stores the final cut there.
				await emulator().adversary.put(HERE, key, Buffer.from('the final cut, stored by the editor'), {
					visibility: 'private',
					contentType: 'video/mp4',
					writer: 'editor',
				});
				return undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'multipartUpload',
				key,
				partSize: 5,
				options: { refuseExisting: true },
			},
			{ items: [fileItem(randomFile(11 * MIB), 'video.mp4', 'video/mp4')], typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		const stored = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, key))?.body;
		const what =
			stored?.toString() === 'the final cut, stored by the editor'
				? "the editor's file"
				: `${stored?.length} other bytes`;
		expect(what).toBe("the editor's file");
		// Refused, naming the field and the other writer; the upload cancelled, nothing left on the service.
		expect(String(result.items[0]?.json.error)).toContain('by another writer during the upload');
		expect(String(result.items[0]?.json.description)).toContain('Refuse Existing File is on');
		expect(String(result.items[0]?.json.description)).toContain('was cancelled on the service');
		expect(emulator().listOpenUploads()).toEqual([]);
	}, 60_000);
});
