/**
 * Upload with Refuse Existing File in parts: the key is checked just before Complete. docs/api-choices.md ("Another
 * writer outside the run") says the window between that check and the Complete "never holds a wait (a Retry-After, a
 * backoff, a retry after no answer, a pool pause or a slot wait …): it is the check's answer coming back plus the
 * write's way to the service. For a Complete … that is milliseconds plus one request's way".
 *
 * A slow proxy or a throttling gateway can hold the check's answer for seconds (no 503, no Retry-After: it passes the
 * answer on late). completeWaitsForSlotAfterCheck.test.ts keeps the editor's file stored during a 3 s pause of the
 * pool; here the check's answer is held 3 s on its way, the editor stores the same way meanwhile, and the file must be
 * kept the same way. Through n8n-core's engine over real HTTP to the emulator; the held answer and the other writer
 * come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const EDITOR = 'the final cut, stored by the editor';

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

describe.each([3, 2])('Upload in parts with Refuse Existing File (node version %i)', (typeVersion) => {
	it("keeps a file another writer stored while the last check's answer was held on its way", async () => {
		const big = `complete-held-${typeVersion}/video.mp4`;
		const events: string[] = [];
		let checks = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'complete' && call.query.get('key') === big) events.push('complete');
				return undefined;
			},
			after: async (call: HookCall, reply) => {
				if (call.op !== 'signedUrl' || call.query.get('key') !== big) return;
				checks += 1;
				events.push(`check ${reply.status}`);
				if (checks !== 2) return;
				// The editor stores its file a second after the last check was answered, while that answer is held.
				setTimeout(() => {
					void emulator()
						.adversary.put(HERE, big, Buffer.from(EDITOR), {
							visibility: 'private',
							contentType: 'video/mp4',
							writer: 'editor',
						})
						.then(() => events.push('editor stored'));
				}, 1000);
				await sleep(3000);
			},
		});
		await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				key: big,
				options: { refuseExisting: true, multipartThreshold: 5, partSize: 5 },
			},
			{ items: [fileItem(randomFile(11 * MIB), 'video.mp4', 'video/mp4')], typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		const at = (event: string) => events.indexOf(event);
		// The scenario happened: the key was free at both checks, the editor stored after the last one was answered.
		expect(events.filter((event) => event.startsWith('check')).slice(0, 2)).toEqual(['check 404', 'check 404']);
		expect(at('editor stored')).toBeGreaterThan(events.lastIndexOf('check 404'));
		const stored = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, big))?.body;
		expect(stored?.toString() === EDITOR ? "the editor's file" : `${stored?.length} bytes of the upload`).toBe(
			"the editor's file",
		);
	}, 60_000);
});
