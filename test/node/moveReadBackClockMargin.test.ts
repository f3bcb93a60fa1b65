/**
 * Move's proofs are timed by the answers' Dates (files/proof.ts): the earlier of the CDN's Date and
 * the Date of the API's answer just before the read, with 3 s for the clocks (CDN_CLOCK_MARGIN_MS,
 * settledAfter). The read of the source and Move's read-back of its copy (readBackDecision) both
 * get that margin: with the API's and the CDN's clocks 2 s ahead of the storage's, a cache's copy of
 * the node's own upload, kept from just before another writer replaced it with a same-size file,
 * does not pass for the destination, and the source is kept.
 * Through n8n-core's engine over real HTTP to the emulator; the cache, the clocks and the other
 * writer act from its hooks (every header a cache would send is honest: Age grows with time).
 */
import type { HookCall, HookAnswer } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

/** The API's and the CDN's clocks: 2 s ahead of the storage's (the emulator's, which dates the listing). */
const AHEAD_MS = 2000;
const ahead = () => new Date(Date.now() + AHEAD_MS).toUTCString();

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

afterEach(() => emulator().adversary.setHooks(undefined));

describe("Move's read-back of its copy and clocks that run ahead within the margin", () => {
	it("API and CDN clocks 2 s ahead: a cache's copy of the upload, kept from before another writer's same-size file, never deletes the source", async () => {
		const source = 'rb-margin/report.txt';
		const destination = 'rb-margin-to/report.txt';
		const mine = 'AAAA the only copy';
		const theirs = 'BBBB other writer!';
		expect(theirs.length).toBe(mine.length);
		await put(source, mine, 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		let filledAt: number | undefined;
		let struck = false;
		let keptAnswers = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall): Promise<HookAnswer | undefined> => {
				if (call.op === 'list' && call.query.get('prefix') === destination && !struck) {
					// Just after the upload (and after a reader had the CDN fetch the copy): the other writer.
					struck = true;
					await put(destination, theirs, 'other');
				}
				if (call.op !== 'cdn' || !call.path.endsWith(`/${destination}`) || filledAt === undefined) return undefined;
				keptAnswers += 1;
				// The CDN's copy of the upload, fetched when it was stored: an honest Age, the CDN's clock.
				return {
					status: 200,
					headers: {
						'Content-Type': 'text/plain',
						'Cache-Control': 'private, max-age=60',
						Age: String(Math.floor((Date.now() - filledAt) / 1000)),
						Date: ahead(),
					},
					body: mine,
				};
			},
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				if (call.op === 'upload' && call.query.get('key') === destination) filledAt = Date.now();
				// The API's clock, as its answers' Date says.
				const withHeaders = reply as { headers?: Record<string, string> };
				withHeaders.headers = { ...(withHeaders.headers ?? {}), Date: ahead() };
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		expect(keptAnswers).toBeGreaterThan(0);
		expect(await read(destination)).toBe(theirs);
		// The only copy of the source's bytes must still be stored somewhere: at the source.
		expect(await read(source)).toBe(mine);
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 60_000);
});
