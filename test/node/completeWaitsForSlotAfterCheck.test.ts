/**
 * Upload with Refuse Existing File in parts, version 3: the key is checked just before Complete,
 * and then Complete takes its slot of the run's pool. When the pool is paused (another item of the
 * run got a 503 with Retry-After) or its slots are busy, Complete waits there after the check, for
 * seconds, not the milliseconds docs/api-choices.md ("Another writer outside the run") leaves to
 * chance. A file another writer stores in that wait must be kept, as an upload in one request keeps
 * it (checked again in its slot). Through n8n-core's engine over real HTTP to the emulator; the other
 * item's 503 and the other writer come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const EDITOR = 'the final cut, stored by the editor';

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

describe('Upload in parts with Refuse Existing File (node version 3)', () => {
	it("keeps a file another writer stored while the Complete waited for the run's paused pool", async () => {
		const big = 'complete-slot/video.mp4';
		const small = 'complete-slot/notes.txt';
		const events: string[] = [];
		let bigChecks = 0;
		let checked: () => void = () => undefined;
		const bigChecked = new Promise<void>((resolve) => (checked = resolve));
		let pausedOnce = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = call.query.get('key');
				if (call.op === 'upload' && key === small && !pausedOnce) {
					// The other item's upload is answered 503 once the big file's last check was made.
					await Promise.race([bigChecked, sleep(20_000)]);
					pausedOnce = true;
					events.push('small 503');
					return {
						status: 503,
						headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
						body: JSON.stringify({ error: 'Service unavailable' }),
					};
				}
				if (call.op === 'complete' && key === big) events.push('big complete');
				return undefined;
			},
			after: async (call: HookCall, reply) => {
				if (call.op !== 'signedUrl' || call.query.get('key') !== big) return;
				bigChecks += 1;
				events.push(`big check ${reply.status}`);
				if (bigChecks !== 2) return;
				checked();
				// The editor stores its file a second after the check was answered, while the pool waits.
				setTimeout(() => {
					void emulator()
						.adversary.put(HERE, big, Buffer.from(EDITOR), {
							visibility: 'private',
							contentType: 'video/mp4',
							writer: 'editor',
						})
						.then(() => events.push('editor stored'));
				}, 1000);
				// The check's answer reaches n8n after the 503 that pauses the pool.
				await sleep(300);
			},
		});
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				key: '={{ $json.key }}',
				options: { refuseExisting: true, multipartThreshold: 5, partSize: 5 },
			},
			{
				items: [
					{ ...fileItem(randomFile(11 * MIB), 'video.mp4', 'video/mp4'), json: { key: big } },
					{ ...fileItem(Buffer.from('notes'), 'notes.txt', 'text/plain'), json: { key: small } },
				],
				typeVersion: 3,
				continueOnFail: true,
			},
		);
		emulator().adversary.setHooks(undefined);
		// The scenario happened: the key was free at both checks before the Complete's wait, the editor stored after the
		// last one and before the Complete (a check in the Complete's slot, after the wait, may follow: it finds the file).
		const at = (event: string) => events.indexOf(event);
		expect(events.filter((event) => event.startsWith('big check')).slice(0, 2)).toEqual([
			'big check 404',
			'big check 404',
		]);
		expect(events.filter((event) => event === 'big check 404')).toHaveLength(2);
		expect(at('small 503')).toBeGreaterThan(-1);
		expect(at('editor stored')).toBeGreaterThan(events.lastIndexOf('big check 404'));
		expect(at('big complete') === -1 || at('big complete') > at('editor stored')).toBe(true);
		const stored = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, big))?.body;
		expect(stored?.toString() === EDITOR ? "the editor's file" : `${stored?.length} bytes of the upload`).toBe(
			"the editor's file",
		);
		expect(result.items[0]?.json.error).toBeDefined();
		expect(emulator().listOpenUploads()).toEqual([]);
	}, 60_000);
});
