/**
 * A listing that names one key twice with different records contradicts itself and is no proof
 * (docs/api-choices.md, "A listing date without its second, and a file listed twice": "Entries of one
 * key are looked for side by side"). Two entries side by side may fall on two pages: a service may
 * serve pages shorter than asked (a silent cap, listing/pageEnd.ts), so the key's second entry can be
 * the first of the next page. Move deletes its source only while the destination, listed just before
 * the delete, is still the copy it proved.
 *
 * Here another writer stores a file at the destination in the copy's second, of the same size but
 * another content type; the listing just before the delete, served one entry a page, names the
 * destination twice: the copy's record on page 1 (a listing merged from two moments), the file
 * stored now on page 2. On one page the node refuses such a listing; across the page boundary the
 * source must stay just as well, its bytes being nowhere else. Through n8n-core's engine over real
 * HTTP to the emulator; the storage's clock is held still from the copy's upload until the other
 * writer has stored its file, so both land in one second.
 */
import type { HookCall } from '../emulator/history';
import { moveOfSettledSource } from './moveOfSettledSource';
import { HERE, useEmulator } from './support';

let heldAt: number | undefined;
const emulator = useEmulator({ now: () => heldAt ?? Date.now() });

type Entry = { path: string };
type Listing = { data?: { contents?: { children?: Entry[] }; pagination?: Record<string, number> } };

afterEach(() => {
	emulator().adversary.setHooks(undefined);
	heldAt = undefined;
});

/**
 * The other writer stores `destination` (same size, another content type) right before the source is
 * listed for its delete, in the copy's second; from then on the destination's listing is served one
 * entry a page: the copy's entry (as the copy check's listing gave it) on page 1, the file there now on page 2.
 */
function writerAndEntryOnTwoPages(source: string, destination: string) {
	let uploaded = false;
	let written = false;
	let split = false;
	let copyEntry: Entry | undefined;
	let nowEntry: Entry | undefined;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op === 'upload' || call.op === 'start') {
				uploaded = true;
				heldAt ??= Date.now();
			}
			if (call.op !== 'list' || !uploaded || written || call.query.get('prefix') !== source) return undefined;
			written = true;
			await emulator().adversary.put(HERE, destination, Buffer.from('XXXX'), {
				visibility: 'private',
				contentType: 'application/x-other-writer',
				writer: 'other',
			});
			heldAt = undefined;
			return undefined;
		},
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (call.op !== 'list' || call.query.get('prefix') !== destination) return;
			const page = Number(call.query.get('page') ?? '1');
			const body = JSON.parse(JSON.stringify(reply.body)) as Listing;
			const contents = body.data?.contents;
			if (!written) {
				if (page === 1) copyEntry ??= contents?.children?.find((child) => child.path === destination);
				return;
			}
			if (copyEntry === undefined || !contents || !body.data) return;
			if (page === 1) {
				// The file stored there now, as the storage lists it, goes to page 2.
				nowEntry = contents.children?.find((child) => child.path === destination);
				split = nowEntry !== undefined;
				contents.children = [copyEntry];
				body.data.pagination = { current_page: 1, total_pages: 2, total_items: 2, items_per_page: 1 };
			} else if (page === 2 && nowEntry) {
				contents.children = [nowEntry];
				body.data.pagination = { current_page: 2, total_pages: 2, total_items: 2, items_per_page: 1 };
			} else {
				contents.children = [];
				body.data.pagination = { current_page: page, total_pages: 2, total_items: 2, items_per_page: 1 };
			}
			reply.body = body;
		},
	});
	return () => ({ written, split });
}

describe('Move: a destination listed twice across a page boundary, the copy beside another writer’s file', () => {
	it('File → Move: the source is kept, never deleted on a listing whose pages contradict each other', async () => {
		const move = { source: 'two-pages/a.txt', destination: 'two-pages-to/a.txt', typeVersion: 3 };
		let seen = () => ({ written: false, split: false });
		const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
			seen = writerAndEntryOnTwoPages(move.source, move.destination);
		});
		expect(seen()).toEqual({ written: true, split: true });
		// The source's bytes are still somewhere.
		expect(Object.values(stored)).toContain('AAAA');
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 60_000);

	it('Folder → Move, version 3: the source is kept, never deleted on a listing whose pages contradict each other', async () => {
		const root = 'two-pages-v3/';
		const folders = { from: `${root}src/`, to: `${root}dst/` };
		const move = { source: `${root}src/a.txt`, destination: `${root}dst/a.txt`, typeVersion: 3, folders };
		let seen = () => ({ written: false, split: false });
		const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
			seen = writerAndEntryOnTwoPages(move.source, move.destination);
		});
		expect(seen()).toEqual({ written: true, split: true });
		expect(Object.values(stored)).toContain('AAAA');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);
});
