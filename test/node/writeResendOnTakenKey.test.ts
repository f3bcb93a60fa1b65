/**
 * A write that must not replace a file (Upload and Multipart Upload with Refuse Existing File,
 * Copy and Move with Replace Existing File off) checks the key is free, then writes. When the
 * write is answered 503 with Retry-After, the transport sends it again after the wait: the key is
 * checked again first, in the same slot of the run's pool, and a file another writer stored there
 * during the wait is kept, the repeat never sent (docs/api-choices.md, "Another writer outside
 * the run"). Through n8n-core's engine over real HTTP to the emulator; its hooks play the service
 * answering 503 (not carried out) and the other writer.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, MIB, byKey, fileItem, putText, randomFile, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

const THEIRS = 'the report another workflow stored at this key';
const OURS = Buffer.from('the report this item uploads');

/** Who acts while the write waits out its 503: another writer at the key, nobody, or a service whose check of the key fails. */
type Meanwhile = 'other writer' | 'nobody' | 'check fails';

/**
 * The first request `op` on `key` is answered 503 Retry-After: 1 and not carried out. 'other writer': another writer
 * stores THEIRS at `key` before that answer; 'check fails': every later signed-link request for `key` (the existence
 * check) is answered 500. `seen` lists the requests naming `key`, in order.
 */
function answer503Once(op: string, key: string, meanwhile: Meanwhile) {
	const seen: string[] = [];
	let struck = false;
	const json = { 'Content-Type': 'application/json' };
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.query.get('key') !== key) return undefined;
			seen.push(call.op);
			if (struck && meanwhile === 'check fails' && call.op === 'signedUrl') {
				return {
					status: 500,
					headers: json,
					body: JSON.stringify({ error: 'Internal Server Error', message: 'down' }),
				};
			}
			if (struck || call.op !== op) return undefined;
			struck = true;
			if (meanwhile === 'other writer') await putText(emulator(), key, THEIRS, 'other workflow');
			const body = JSON.stringify({ error: 'Service Unavailable', message: 'Try again shortly' });
			return { status: 503, headers: { ...json, 'Retry-After': '1' }, body };
		},
	});
	return seen;
}

/** What `key` holds, in words: the other writer's file, or how many other bytes (never a random file's bytes). */
async function holds(key: string): Promise<string> {
	const text = await storedText(emulator(), key);
	return text === THEIRS ? "the other writer's file" : `${text?.length ?? 'no'} other bytes`;
}

const upload = (key: string) => ({ resource: 'file', operation: 'upload', key, options: { refuseExisting: true } });
const multipart = (key: string) => ({
	resource: 'file',
	operation: 'multipartUpload',
	key,
	partSize: 5,
	options: { refuseExisting: true },
});

describe.each([2, 3])(
	'A write that must not replace, answered 503 with Retry-After (node version %i)',
	(typeVersion) => {
		it("Upload with Refuse Existing File, one request: another writer's file stored during the wait is kept, the repeat not sent", async () => {
			const key = `resend-taken-v${typeVersion}/upload.txt`;
			const seen = answer503Once('upload', key, 'other writer');
			const result = await runFileStorage(emulator(), upload(key), {
				items: [fileItem(OURS, 'report.txt', 'text/plain')],
				typeVersion,
				continueOnFail: true,
			});
			emulator().adversary.setHooks(undefined);
			expect(await holds(key)).toBe("the other writer's file");
			expect(seen.filter((op) => op === 'upload')).toHaveLength(1);
			const error = String(result.items[0]?.json.error);
			expect(error).toContain(`'${key}'`);
			expect(error).toContain('was not sent again');
			const description = String(result.items[0]?.json.description);
			expect(description).toContain('nothing was replaced by a repeat');
			expect(description).toContain('File → Get Info');
		}, 60_000);

		it("Multipart Upload with Refuse Existing File, its Complete: another writer's file stored during the wait is kept", async () => {
			const key = `resend-taken-v${typeVersion}/video.mp4`;
			const seen = answer503Once('complete', key, 'other writer');
			const result = await runFileStorage(emulator(), multipart(key), {
				items: [fileItem(randomFile(6 * MIB), 'video.mp4', 'video/mp4')],
				typeVersion,
				continueOnFail: true,
			});
			emulator().adversary.setHooks(undefined);
			expect(await holds(key)).toBe("the other writer's file");
			expect(seen.filter((op) => op === 'complete')).toHaveLength(1);
			const error = String(result.items[0]?.json.error);
			expect(error).toContain(`'${key}'`);
			expect(error).toContain('was not sent again');
			expect(String(result.items[0]?.json.description)).toContain('nothing was replaced by a repeat');
			// The upload the Complete did not carry out is cancelled: nothing of it is left on the service.
			expect(emulator().listOpenUploads()).toEqual([]);
		}, 60_000);

		it.each(['copy', 'move'])(
			"%s with Replace Existing File off, the copy's upload: another writer's file at the destination is kept",
			async (operation) => {
				const source = `resend-taken-v${typeVersion}-${operation}/source.txt`;
				const destination = `resend-taken-v${typeVersion}-${operation}/destination.txt`;
				await putText(emulator(), source, 'the source report', 'setup');
				// A Move waits out a source written moments before it is read: let it settle first.
				if (operation === 'move') await new Promise((resolve) => setTimeout(resolve, 5000));
				const seen = answer503Once('upload', destination, 'other writer');
				const result = await runFileStorage(
					emulator(),
					{ resource: 'file', operation, fileKey: byKey(source), destinationKey: destination },
					{ items: [{ json: {} }], typeVersion, continueOnFail: true },
				);
				emulator().adversary.setHooks(undefined);
				expect(await holds(destination)).toBe("the other writer's file");
				expect(await storedText(emulator(), source)).toBe('the source report');
				expect(seen.filter((op) => op === 'upload')).toHaveLength(1);
				const error = String(result.items[0]?.json.error);
				expect(error).toContain(`'${destination}'`);
				expect(error).toContain('was not sent again');
			},
			60_000,
		);

		it('Upload with Refuse Existing File: a check of the key that fails before the repeat sends nothing more', async () => {
			const key = `resend-unchecked-v${typeVersion}/upload.txt`;
			const seen = answer503Once('upload', key, 'check fails');
			const result = await runFileStorage(
				emulator(),
				{ ...upload(key), options: { refuseExisting: true, maxRetries: 1 } },
				{ items: [fileItem(OURS, 'report.txt', 'text/plain')], typeVersion, continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			expect(seen.filter((op) => op === 'upload')).toHaveLength(1);
			expect(seen.filter((op) => op === 'signedUrl').length).toBeGreaterThan(1);
			expect(await storedText(emulator(), key)).toBeUndefined();
			const error = String(result.items[0]?.json.error);
			expect(error).toContain(`'${key}' was not sent again: whether its key is still free could not be checked`);
		}, 60_000);

		it.each([
			['upload', 'Upload', upload, OURS],
			['complete', 'Multipart Upload', multipart, randomFile(6 * MIB)],
		])(
			'no other writer: the key is checked again, found free, and the repeat of the %s stores the file',
			async (op, _name, parameters, bytes) => {
				const key = `resend-free-v${typeVersion}/${op}.bin`;
				const seen = answer503Once(op, key, 'nobody');
				const result = await runFileStorage(emulator(), parameters(key), {
					items: [fileItem(bytes, 'file.bin')],
					typeVersion,
					continueOnFail: true,
				});
				emulator().adversary.setHooks(undefined);
				expect(result.items[0]?.json.error).toBeUndefined();
				const stored = await emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
				expect(stored?.body.equals(bytes)).toBe(true);
				// The 503, then the key asked again (its signed link), then the repeat.
				const at = seen.indexOf(op);
				expect(seen.slice(at, at + 3)).toEqual([op, 'signedUrl', op]);
			},
			60_000,
		);
	},
);
