/**
 * Move: the source is listed (still the version copied), then the destination (still the copy proven), then the
 * source is deleted. docs/api-choices.md ("A write at the destination between a Move's last look and its delete")
 * says that window is "never a wait (a Retry-After, a backoff, a retry, a pool pause or a slot wait): milliseconds
 * plus one request's way to the service", and transport/looks.ts that what comes between a look's answer and the
 * send "is only one answer's way, never a wait".
 *
 * A gateway does not always ask a client to wait with a 503 and a Retry-After: a rate limiter in delay mode (nginx
 * `limit_req` with a burst, an API gateway's throttling queue) holds the request for seconds and then passes it on,
 * and a slow proxy can hold an answer as long. To the files that is the same wait as a Retry-After: seconds in which
 * another writer stores unseen. moveSourceCheckStaleByDestinationListingWait.test.ts keeps the newer source when the
 * destination's listing is answered 503 with Retry-After: 3; here the same listing is held 3 s and then answered
 * 200, the world changes the same way meanwhile, and the node must keep the files the same way.
 * Through n8n-core's engine over real HTTP to the emulator; the held request and the other writer come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const NEWER = Buffer.from('the newer version of the ledger, stored by the accountant');
const OTHER = Buffer.from("the auditor's own file, stored at the archive path while the Move ran");
/** How long the gateway holds the request (or its answer): the Retry-After of the 503 test. */
const HELD_MS = 3000;

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

async function put(key: string, body: Buffer, writer: string) {
	await emulator().adversary.put(HERE, key, body, { visibility: 'private', contentType: 'text/plain', writer });
}

const keyOf = (call: HookCall) => call.query.get('key') ?? call.query.get('prefix');

async function runMove(typeVersion: number, source: string, destination: string) {
	return await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
		{ typeVersion, continueOnFail: true },
	);
}

describe.each([3, 2])('Move (node version %i) whose last look a gateway held', (typeVersion) => {
	it("never deletes a newer source version stored while a gateway held the destination's listing", async () => {
		const source = `move-held-${typeVersion}/ledger.txt`;
		const destination = `move-held-${typeVersion}/archive/ledger.txt`;
		await put(source, randomFile(1000), 'setup');
		// Sources written moments ago are read only once their listed second has passed (moveSource.ts).
		await sleep(4000);
		const events: string[] = [];
		let uploaded = false;
		let sourceListedAfterCopy = false;
		let held = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = keyOf(call);
				if (call.op === 'delete' && key === source) events.push('source delete');
				if (call.op !== 'list' || key !== destination || !sourceListedAfterCopy || held) return undefined;
				held = true;
				events.push('destination listing held');
				// The accountant stores a newer version of the source a second later, while the gateway holds the listing.
				setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 1000);
				await sleep(HELD_MS);
				events.push('destination listing passed on');
				return undefined;
			},
			after: async (call: HookCall) => {
				const key = keyOf(call);
				if (call.op === 'upload' && key === destination) uploaded = true;
				if (call.op === 'list' && uploaded && key === source) sourceListedAfterCopy = true;
			},
		});
		await runMove(typeVersion, source, destination);
		emulator().adversary.setHooks(undefined);
		// The scenario happened: the source was listed, then the newer version stored while the listing was held.
		const at = (event: string) => events.indexOf(event);
		expect(at('destination listing held')).toBeGreaterThan(-1);
		expect(at('newer source stored')).toBeGreaterThan(at('destination listing held'));
		expect(at('destination listing passed on')).toBeGreaterThan(at('newer source stored'));
		const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
	}, 60_000);

	it("never deletes the source once the copy was replaced while the destination listing's answer was held on its way", async () => {
		const source = `move-held-answer-${typeVersion}/ledger.txt`;
		const destination = `move-held-answer-${typeVersion}/archive/ledger.txt`;
		const original = randomFile(1000);
		await put(source, original, 'setup');
		await sleep(4000);
		const events: string[] = [];
		let uploaded = false;
		let sourceListedAfterCopy = false;
		let held = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'delete' && keyOf(call) === source) events.push('source delete');
				return undefined;
			},
			after: async (call: HookCall) => {
				const key = keyOf(call);
				if (call.op === 'upload' && key === destination) uploaded = true;
				if (call.op === 'list' && uploaded && key === source) sourceListedAfterCopy = true;
				if (call.op !== 'list' || key !== destination || !sourceListedAfterCopy || held) return;
				held = true;
				events.push('destination listed');
				// The auditor stores a file of their own at the archive path while the listing's answer is on its way.
				setTimeout(() => void put(destination, OTHER, 'auditor').then(() => events.push('destination replaced')), 1000);
				await sleep(HELD_MS);
			},
		});
		await runMove(typeVersion, source, destination);
		emulator().adversary.setHooks(undefined);
		const at = (event: string) => events.indexOf(event);
		expect(at('destination replaced')).toBeGreaterThan(at('destination listed'));
		expect(at('destination listed')).toBeGreaterThan(-1);
		const atSource = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		const atDestination = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, destination))?.body;
		// The source's bytes must be somewhere: at the source (kept), or at the destination (the copy).
		const survives = atSource?.equals(original) === true || atDestination?.equals(original) === true;
		expect(survives ? "the source's bytes kept" : "the source's bytes lost").toBe("the source's bytes kept");
	}, 60_000);
});
