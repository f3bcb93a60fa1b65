/**
 * Move deletes its source only while the listing, read just before the delete, shows the version it
 * copied (docs/reliability.md, "Move's delete of its source"). A listing answer that names the source's
 * key twice, once with the copied version's record and once with another (a listing merged from two
 * moments, a page repeated by a gateway), does not show that: it contradicts itself, and the other
 * entry may be the version stored now. Such an answer is no proof, whichever entry comes first, and the
 * newer version must never be deleted. Through n8n-core's engine over real HTTP to the emulator; the
 * other writer and the repeated entry come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

type Listing = { data?: { contents?: { children?: Array<{ path?: string }> } } };

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Move and a listing that names its source twice', () => {
	it('an entry of the copied version beside one of a newer version never deletes the newer one', async () => {
		const key = 'listed-twice/status.txt';
		const destination = 'listed-twice-to/status.txt';
		await putText(emulator(), key, 'STATUS: PENDING', 'writer');
		let copiedEntry: unknown;
		let rewritten = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				// After the Move read and listed the source, while its copy is uploaded: a newer version.
				if (!rewritten && call.op === 'upload' && call.query.get('key') === destination) {
					rewritten = true;
					await putText(emulator(), key, 'STATUS: SUCCESS', 'writer');
				}
				return undefined;
			},
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				if (call.op !== 'list' || call.query.get('prefix') !== key) return;
				const body = JSON.parse(JSON.stringify(reply.body)) as Listing;
				const children = body.data?.contents?.children ?? [];
				const entry = children.find((child) => child.path === key);
				if (!rewritten) {
					copiedEntry = entry;
					return;
				}
				// The source's key named twice: the copied version's record first, then the one stored now.
				if (copiedEntry !== undefined && body.data?.contents) {
					body.data.contents.children = [copiedEntry as { path: string }, ...children];
					reply.body = body;
				}
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey: destination },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(rewritten).toBe(true);
		const stored = { source: await read(key), destination: await read(destination) };
		expect(Object.values(stored)).toContain('STATUS: SUCCESS');
		expect(result.items[0].json.sourceDeleted).not.toBe(true);
	}, 60_000);
});
