/**
 * The listing dates versions in UTC (spec §3.1: "2024-03-20T10:30:00Z"). A date the service (or a
 * gateway re-serializing its JSON) writes without the zone designator ("2024-03-20T10:30:00", a
 * naive UTC datetime) is read as UTC too (listing/listingTime.ts), not in the n8n host's zone: read
 * east of UTC it would lie hours in the past, every read would look long settled, and a same-size
 * version written in the second the Move read an earlier one would be deleted (west of UTC, every
 * Move of a private file would fail). Through n8n-core's engine over real HTTP to the emulator;
 * the other writer and the naive dates come from its hooks. Runs only on a host east of UTC (jest's
 * sandbox keeps its own copy of process.env, so a test file cannot move the process's zone):
 * `TZ=Asia/Tokyo npx jest <this file>`. test/unit/listingTime.test.ts holds the guarantee on every
 * host, reading the dates in child processes east and west of UTC.
 */
import type { HookCall } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

/** Every file's last_modified as a naive UTC datetime: the same instant, without its "Z". */
function withoutZone(body: unknown): void {
	const children = (body as { data?: { contents?: { children?: Array<{ last_modified?: unknown }> } } }).data?.contents
		?.children;
	for (const child of children ?? []) {
		if (typeof child.last_modified === 'string') child.last_modified = child.last_modified.replace(/Z$/, '');
	}
}

afterEach(() => emulator().adversary.setHooks(undefined));

/** The host's zone as n8n's process sees it: east of UTC, a naive UTC datetime reads as hours earlier. */
const eastOfUtc = new Date(2026, 0, 1).getTimezoneOffset() < 0;

describe('Move and a listing whose dates carry no zone designator (read on a host east of UTC)', () => {
	(eastOfUtc ? it : it.skip)(
		'a same-size version written in the second the Move read an earlier one is never deleted',
		async () => {
			const key = 'tz-naive/status.txt';
			let written = false;
			let rewritten = false;
			emulator().adversary.setHooks({
				before: async (call: HookCall) => {
					if (written || call.op !== 'signedUrl' || call.query.get('key') !== key) return undefined;
					written = true;
					// Version 1 at the top of a second, just before the Move asks for its link.
					while (Date.now() % 1000 > 20) await sleep(2);
					await put(key, 'STATUS: PENDING', 'writer');
					return undefined;
				},
				after: async (call: HookCall, reply: { status: number; body: unknown }) => {
					if (call.op !== 'list') return;
					withoutZone(reply.body);
					if (!rewritten && written && call.query.get('prefix') === key) {
						// After the Move read version 1 and listed it: version 2, same size, in the same second.
						rewritten = true;
						await put(key, 'STATUS: SUCCESS', 'writer');
					}
				},
			});
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey: 'tz-naive-to/status.txt' },
				{ continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			expect(rewritten).toBe(true);
			const history = { source: await read(key), destination: await read('tz-naive-to/status.txt') };
			// 'STATUS: SUCCESS' is the version the service stores when the Move deletes: it must survive.
			expect(Object.values(history)).toContain('STATUS: SUCCESS');
			void result;
		},
		60_000,
	);
});
