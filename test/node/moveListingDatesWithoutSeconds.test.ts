/**
 * The listing dates versions to the whole second (spec §3.1: "2024-03-20T10:30:00Z"), and Move's delete
 * of its source acts on that: the record listed just before the delete must be the one copied. A listing
 * whose dates come coarser than that (a service or a gateway re-serializing its JSON that writes
 * "2024-03-20T10:30Z", no seconds) tells two versions of one minute apart no better than the listing
 * tells two of one second: such a date is no evidence that the version is unchanged, so a same-size
 * version another writer stored in that minute, after the Move read the earlier one and before it
 * deleted, must never be deleted. Through n8n-core's engine over real HTTP to the emulator, whose
 * clock is set to the top of a minute (and to the top of the next one while the copy is uploaded, so
 * the copy's own record and Last-Modified agree to the second); the other writer and the coarse dates
 * come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { byKey, putText, runFileStorage, storedText, useEmulator } from './support';

/** The emulator's clock runs `shift` ms ahead of the host's (it dates versions and its answers). */
let shift = 0;
const emulator = useEmulator({ now: () => Date.now() + shift });
const read = async (key: string) => await storedText(emulator(), key);

/** Every file's last_modified without its seconds: "2026-11-29T22:04:00Z" as "2026-11-29T22:04Z". */
function withoutSeconds(body: unknown): void {
	const children = (body as { data?: { contents?: { children?: Array<{ last_modified?: unknown }> } } }).data?.contents
		?.children;
	for (const child of children ?? []) {
		if (typeof child.last_modified === 'string') {
			child.last_modified = child.last_modified.replace(/(T\d{2}:\d{2}):\d{2}(?:\.\d+)?Z$/, '$1Z');
		}
	}
}

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Move and a listing whose dates name no seconds', () => {
	it('a same-size version another writer stored in the minute of the copied one is never deleted', async () => {
		const key = 'minute-dates/status.txt';
		const destination = 'minute-dates-to/status.txt';
		// The emulator's clock at the top of a minute, so the whole Move falls in one minute.
		shift = 60_000 - (Date.now() % 60_000) + 20;
		await putText(emulator(), key, 'STATUS: PENDING', 'writer');
		let rewritten = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				// After the Move read and listed the source, while its copy is uploaded: a newer version, same size.
				if (!rewritten && call.op === 'upload' && call.query.get('key') === destination) {
					rewritten = true;
					await putText(emulator(), key, 'STATUS: SUCCESS', 'writer');
					// The copy is stored at the top of the next minute (the upload took that long, or its clock says so).
					shift += 60_000 - ((Date.now() + shift) % 60_000) + 20;
				}
				return undefined;
			},
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				if (call.op === 'list') withoutSeconds(reply.body);
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey: destination },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		const stored = { source: await read(key), destination: await read(destination) };
		expect(result.items[0].json.sourceDeleted).not.toBe(true);
		if (rewritten) {
			// 'STATUS: SUCCESS' is the version the service stored before the Move's last listing of the source.
			expect(Object.values(stored)).toContain('STATUS: SUCCESS');
		} else {
			// Refused before its copy: a listing date without its second dates no version; the source is as it was.
			expect(String(result.items[0].json.error)).toContain('gives no time');
			expect(stored.source).toBe('STATUS: PENDING');
		}
	}, 60_000);
});
