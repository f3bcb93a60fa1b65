/**
 * A look's age (transport/looks.ts): "a destructive first send whose look ... began more than 2 s before is checked
 * again in its slot". completeCheckHeldByGateway.test.ts keeps the editor's file when the check's answer is held 3 s
 * on its way. Here the same hold happens while the n8n host's wall clock is stepped back (NTP correcting a clock that
 * ran fast, a VM resumed): the look is still 3 s old when Complete goes, and the editor's file stored meanwhile must
 * be kept the same way. An age read from a clock that can step back says the look is fresh. Through n8n-core's engine
 * over real HTTP to the emulator; the held answer, the other writer and the step come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, MIB, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const EDITOR = 'the final cut, stored by the editor';

const realNow = Date.now;
let stepMs = 0;

beforeEach(() => {
	stepMs = 0;
	Date.now = () => realNow() + stepMs;
});
afterEach(() => {
	Date.now = realNow;
	emulator().adversary.setHooks(undefined);
});

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

describe.each([3, 2])('Upload in parts with Refuse Existing File (node version %i)', (typeVersion) => {
	it("keeps a file another writer stored while the last check's answer was held and the host clock stepped back", async () => {
		const big = `complete-held-clock-${typeVersion}/video.mp4`;
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
				setTimeout(() => {
					void emulator()
						.adversary.put(HERE, big, Buffer.from(EDITOR), {
							visibility: 'private',
							contentType: 'video/mp4',
							writer: 'editor',
						})
						.then(() => events.push('editor stored'));
				}, 1000);
				// While the answer is held, the host's clock is stepped back 5 s (a correction of a clock 5 s fast).
				setTimeout(() => (stepMs -= 5000), 1500);
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
		expect(events.filter((event) => event.startsWith('check')).slice(0, 2)).toEqual(['check 404', 'check 404']);
		expect(at('editor stored')).toBeGreaterThan(events.lastIndexOf('check 404'));
		const stored = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, big))?.body;
		expect(stored?.toString() === EDITOR ? "the editor's file" : `${stored?.length} bytes of the upload`).toBe(
			"the editor's file",
		);
	}, 60_000);
});
