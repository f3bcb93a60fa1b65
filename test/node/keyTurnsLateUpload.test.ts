/**
 * Items of one version-3 run naming one key with Refuse Existing File take turns: "the one whose
 * turn comes first stores, the other is refused" (docs/reliability.md, "Writes to one key take
 * turns within a run"). An item whose one-request upload got a gateway's 504 (the gateway stopped
 * waiting; the service goes on and stores the file later) has a write that may still land, as
 * much as one the node itself stopped waiting for: the next item in line must not store a file,
 * report it stored, and then have it replaced by the late write. Through n8n-core's engine over
 * real HTTP: a gateway whose upstream timeout is shorter than the service's processing time
 * answers 504 at once and hands the request on to the service later.
 */
import { createHash } from 'node:crypto';

import { useLateWriteGateway } from './lateWriteGateway';
import { eventually } from './proxy';
import { credentialsFor, fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

const FIRST = Buffer.from('the first attachment: its upload answered 504 by the gateway, stored later');
const SECOND = Buffer.from('the second attachment, stored after the first failed');

/**
 * Forwards everything to the emulator, except an upload carrying FIRST: that one is answered 504
 * at once (the gateway's upstream timeout) and reaches the service only once another upload has
 * been answered 200 after it (the service was busy with it), as a gateway that does not cancel what it
 * already forwarded.
 */
function useSlowServiceGateway() {
	const state: { held: number; landed: number; firstSent?: 'first' | 'second' } = { held: 0, landed: 0 };
	let release: () => void = () => undefined;
	let released = new Promise<void>((resolve) => (release = resolve));
	const url = useLateWriteGateway(emulator, {
		holds: (req, body) => {
			if (req.method === 'PUT' && state.firstSent === undefined && (body.includes(FIRST) || body.includes(SECOND))) {
				state.firstSent = body.includes(FIRST) ? 'first' : 'second';
			}
			if (req.method !== 'PUT' || !body.includes(FIRST)) return false;
			state.held++;
			return true;
		},
		later: (handOn) => void released.then(handOn),
		onAnswer: ({ req, status, late }) => {
			if (late && status === 200) state.landed++;
			// Only an upload answered after the hold: items of version 3 ask for their turns in parallel, and one that
			// stored before the held upload was sent is not "the next item" (its file is replaced by a later write).
			if (!late && req.method === 'PUT' && status === 200 && state.held > 0) release();
		},
	});
	const reset = () => {
		state.held = 0;
		state.landed = 0;
		state.firstSent = undefined;
		released = new Promise<void>((resolve) => (release = resolve));
	};
	beforeEach(reset);
	afterAll(() => release());
	return Object.assign(() => ({ ...state, url: url() }), { reset });
}

const gateway = useSlowServiceGateway();

/**
 * Items of version 3 ask for their turns in parallel, so the second item's may come first (its file stored, the
 * first item's then refused or held with nothing after it to land on). Each attempt must keep the promise; the
 * case is exercised once the first item's upload was the first sent, within five attempts (a fresh key each).
 */
async function untilFirstItemWritesFirst(attempt: (suffix: string) => Promise<void>): Promise<void> {
	for (let tries = 1; tries <= 5; tries++) {
		gateway.reset();
		await attempt(`-${tries}`);
		if (gateway().firstSent === 'first') return;
	}
	throw new Error("in five runs the first item's upload was never the first sent: the case was not exercised");
}

/** Waits for the held upload to reach the service, when it can: only after another upload was stored after it. */
async function heldUploadSettled(items: Array<{ json: { error?: unknown } }>): Promise<void> {
	if (gateway().firstSent !== 'first') return;
	await eventually(() => gateway().landed > 0 || items.every((item) => item.json.error !== undefined), 10_000);
	await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('Upload, two items of one run with the same key', () => {
	it.each([
		[true, 0],
		[true, 2],
		[false, 0],
		[false, 2],
	])(
		"an upload answered 504 by a gateway while the service still stores it (Refuse Existing File %s, Max Retries %i): the next item's file, reported stored, is not replaced by it",
		async (refuseExisting, maxRetries) => {
			await untilFirstItemWritesFirst(async (suffix) => {
				const key = `turn-late-504-${String(refuseExisting)}-${maxRetries}${suffix}/contract.txt`;
				const result = await runFileStorage(
					emulator(),
					{ resource: 'file', operation: 'upload', key, options: { refuseExisting, maxRetries } },
					{
						typeVersion: 3,
						continueOnFail: true,
						credentials: credentialsFor(emulator(), { baseUrl: gateway().url }),
						items: [fileItem(FIRST, 'contract.txt', 'text/plain'), fileItem(SECOND, 'contract.txt', 'text/plain')],
					},
				);
				// The held upload reaches the service once the other one was stored (or never, if none was).
				await heldUploadSettled(result.items);
				if (gateway().firstSent === 'first') expect(gateway().held).toBe(maxRetries + 1);
				const stored = (await emulator().readObject('my-bucket', 'us-east-1', key))?.body;
				const named = (bytes: Buffer | undefined) =>
					bytes === undefined
						? 'nothing'
						: md5(bytes) === md5(SECOND)
							? 'the second file'
							: md5(bytes) === md5(FIRST)
								? 'the first file'
								: 'other bytes';
				const reported = result.items.map((item, index) =>
					item.json.error === undefined
						? `stored ${index === 0 ? 'the first file' : 'the second file'}`
						: `failed: ${String(item.json.error)}`,
				);
				// Whatever the run reports stored must be what the key holds.
				for (const line of reported.filter((one) => one.startsWith('stored '))) {
					expect({ keyHolds: named(stored), reported }).toEqual({ keyHolds: line.slice('stored '.length), reported });
				}
			});
		},
		60_000,
	);
});

describe('Copy with Replace Existing File off, two items of one run onto the same destination', () => {
	it("the copy's upload answered 504 by a gateway while the service still stores it: the next item's copy, reported done, is not replaced by it", async () => {
		await untilFirstItemWritesFirst(async (suffix) => {
			const destination = `turn-late-504-copy${suffix}/contract.txt`;
			const sources = [`turn-late-504-copy-src${suffix}/first.txt`, `turn-late-504-copy-src${suffix}/second.txt`];
			for (const [index, bytes] of [FIRST, SECOND].entries()) {
				await emulator().adversary.put({ name: 'my-bucket', region: 'us-east-1' }, sources[index], bytes, {
					visibility: 'private',
					contentType: 'text/plain',
					writer: 'setup',
				});
			}
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation: 'copy',
					fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
					destinationKey: destination,
					options: { maxRetries: 0 },
				},
				{
					typeVersion: 3,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gateway().url }),
					items: sources.map((from) => ({ json: { from } })),
				},
			);
			await heldUploadSettled(result.items);
			if (gateway().firstSent === 'first') expect(gateway().held).toBe(1);
			const stored = (await emulator().readObject('my-bucket', 'us-east-1', destination))?.body;
			const holds = stored === undefined ? 'nothing' : md5(stored) === md5(SECOND) ? 'second' : 'first';
			const reported = result.items.map((item, index) =>
				item.json.error === undefined
					? `copied the ${index === 0 ? 'first' : 'second'}`
					: `failed: ${String(item.json.error)}`,
			);
			for (const line of reported.filter((one) => one.startsWith('copied '))) {
				expect({ keyHolds: holds, reported }).toEqual({ keyHolds: line.slice('copied the '.length), reported });
			}
		});
	}, 60_000);
});
