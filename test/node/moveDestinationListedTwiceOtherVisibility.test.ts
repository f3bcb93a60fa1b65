/**
 * A listing that names one key twice with different records contradicts itself and is no proof
 * (docs/api-choices.md, "A listing date without its second, and a file listed twice"); a record is
 * its size, second, content type and visibility (files/proof.ts sameVersion: another writer's file
 * may differ only in its visibility). Move deletes its source only while the destination, listed
 * just before the delete, is still the copy it proved.
 *
 * Here another writer stores a file at the destination in the copy's second, of the same size and
 * content type, public where the copy is private; the listing just before the delete names the
 * destination twice: the copy's record first (a listing merged from two moments, a page repeated by
 * a gateway), then the file stored now. The two entries differ only in visibility. Such a listing
 * does not show the destination still holds the copy: the source must stay, its bytes being nowhere
 * else. Through n8n-core's engine over real HTTP to the emulator; the storage's clock is held still
 * from the copy's upload until the other writer has stored its file, so both land in one second.
 */
import type { HookCall } from '../emulator/history';
import { moveOfSettledSource } from './moveOfSettledSource';
import { HERE, useEmulator } from './support';

let heldAt: number | undefined;
const emulator = useEmulator({ now: () => heldAt ?? Date.now() });

type Listing = { data?: { contents?: { children?: Array<{ path?: string }> } } };

afterEach(() => {
	emulator().adversary.setHooks(undefined);
	heldAt = undefined;
});

/**
 * The other writer stores `destination` (public, same size and type) right before the source is listed
 * for its delete, in the copy's second; from then on the destination's listing names it twice, the
 * copy's entry (as the copy check's listing gave it) first.
 */
function writerAndRepeatedEntry(source: string, destination: string) {
	let uploaded = false;
	let written = false;
	let repeated = false;
	let copyEntry: { path: string } | undefined;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op === 'upload' || call.op === 'start') {
				uploaded = true;
				heldAt ??= Date.now();
			}
			if (call.op !== 'list' || !uploaded || written || call.query.get('prefix') !== source) return undefined;
			written = true;
			await emulator().adversary.put(HERE, destination, Buffer.from('XXXX'), {
				visibility: 'public',
				contentType: 'text/plain',
				writer: 'other',
			});
			heldAt = undefined;
			return undefined;
		},
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (call.op !== 'list' || call.query.get('prefix') !== destination) return;
			const body = JSON.parse(JSON.stringify(reply.body)) as Listing;
			const children = body.data?.contents?.children ?? [];
			const entry = children.find((child) => child.path === destination) as { path: string } | undefined;
			if (!written) {
				copyEntry ??= entry;
				return;
			}
			if (copyEntry === undefined || !body.data?.contents) return;
			repeated = true;
			body.data.contents.children = [copyEntry, ...children];
			reply.body = body;
		},
	});
	return () => ({ written, repeated });
}

describe('Move: a destination listed twice, the copy beside another writer’s file that differs only in visibility', () => {
	it('File → Move: the source is kept, never deleted on a listing that contradicts itself', async () => {
		const move = { source: 'twice-vis/a.txt', destination: 'twice-vis-to/a.txt', typeVersion: 3 };
		let seen = () => ({ written: false, repeated: false });
		const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
			seen = writerAndRepeatedEntry(move.source, move.destination);
		});
		expect(seen()).toEqual({ written: true, repeated: true });
		// The source's bytes are still somewhere.
		expect(Object.values(stored)).toContain('AAAA');
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 60_000);

	it.each([2, 3])(
		'Folder → Move, version %s: the source is kept, never deleted on a listing that contradicts itself',
		async (typeVersion) => {
			const root = `twice-vis-v${typeVersion}/`;
			const folders = { from: `${root}src/`, to: `${root}dst/` };
			const move = { source: `${root}src/a.txt`, destination: `${root}dst/a.txt`, typeVersion, folders };
			let seen = () => ({ written: false, repeated: false });
			const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
				seen = writerAndRepeatedEntry(move.source, move.destination);
			});
			expect(seen()).toEqual({ written: true, repeated: true });
			expect(Object.values(stored)).toContain('AAAA');
			expect(result.items.map((item) => item.json.status)).not.toContain('moved');
		},
		60_000,
	);
});
