/**
 * A delete sent again is checked right before it goes out (docs/reliability.md, "Delete sent
 * again"): in version 3 every request of the run waits in one pool, which another item's 429 or
 * 503 pauses for its Retry-After. A check made before that wait would let the delete go out
 * after it on what was true before it: a version another writer stored during the wait would be
 * deleted. Through n8n-core's engine over real HTTP to the emulator, whose hooks play the
 * gateway (a 502 that never reached the service), the other item's 429 and the other writer.
 */
import type { HookAnswer, HookCall } from '../emulator/history';
import { byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

const OLDER = 'version 1 of the report';
const NEWER = 'version 2 of the report, written while the run waited for the service';
const PAUSE_SECONDS = 3;

const namesKey = (call: HookCall, part: string) => [...call.query.values()].some((value) => value.includes(part));

/**
 * The first delete of `source` is answered 502 by a gateway that did not pass it on. When the
 * check before its repeat lists the source, the other item's request (held until then) is answered
 * 429 with Retry-After, which pauses the run's requests; during that pause the app stores NEWER.
 */
function pauseAfterTheCheck(source: string, other: string) {
	const seen = { deletes: 0, paused: false, newerStored: undefined as Promise<void> | undefined };
	let letOtherGo: () => void = () => undefined;
	const otherMayGo = new Promise<void>((resolve) => (letOtherGo = resolve));
	emulator().adversary.setHooks({
		before: async (call: HookCall): Promise<HookAnswer | undefined> => {
			if (namesKey(call, other) && !seen.paused) {
				await otherMayGo;
				seen.paused = true;
				return { status: 429, headers: { 'Retry-After': String(PAUSE_SECONDS) }, body: '' };
			}
			if (call.op !== 'delete' || call.query.get('key') !== source) return undefined;
			seen.deletes += 1;
			if (seen.deletes !== 1) return undefined;
			const body = JSON.stringify({ error: 'Bad Gateway', message: 'The upstream server is unreachable' });
			return { status: 502, headers: { 'Content-Type': 'application/json' }, body };
		},
		after: async (call: HookCall) => {
			if (call.op !== 'list' || seen.deletes !== 1 || seen.newerStored) return;
			letOtherGo();
			// The app writes while the run's requests wait out the other item's Retry-After.
			seen.newerStored = new Promise((resolve) => setTimeout(resolve, 700)).then(async () => {
				await putText(emulator(), source, NEWER, 'app');
			});
			// The node has the 429 (and pauses its pool) before this listing's answer reaches it.
			await new Promise((resolve) => setTimeout(resolve, 300));
		},
	});
	return seen;
}

afterEach(() => emulator().adversary.setHooks(undefined));

describe('File → Move in version 3: the check before a delete is sent again runs right before it goes out', () => {
	it("another item's 429 pauses the run after the check: a version written during the pause is not deleted", async () => {
		const source = 'resend-pause/report.txt';
		const other = 'resend-pause-other/notes.txt';
		await putText(emulator(), source, OLDER, 'setup');
		await putText(emulator(), other, 'another file', 'setup');
		// A Move waits out a source written moments before it is read: let both settle first.
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const seen = pauseAfterTheCheck(source, other);
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: byKey('={{ $json.from }}'),
				destinationKey: '={{ $json.to }}',
				options: { parallelRequests: 4 },
			},
			{
				typeVersion: 3,
				continueOnFail: true,
				items: [
					{ json: { from: source, to: 'resend-pause-to/report.txt' } },
					{ json: { from: other, to: 'resend-pause-other-to/notes.txt' } },
				],
			},
		);
		await seen.newerStored;
		emulator().adversary.setHooks(undefined);
		expect(seen.paused).toBe(true);
		expect(seen.deletes).toBeGreaterThanOrEqual(1);
		expect(await read('resend-pause-to/report.txt')).toBe(OLDER);
		// The version stored during the pause is still there, whatever the item reports.
		expect({ source: await read(source), reported: result.items[0]?.json }).toEqual(
			expect.objectContaining({ source: NEWER }),
		);
	}, 60_000);
});
