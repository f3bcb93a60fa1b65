/**
 * Folder → Move (and File → Move) delete the source only while the destination, listed again just
 * before the delete, is still the copy that was proven. The listing gives each file's size, second
 * and content type: another writer's file stored there after the proof, of the same size and in the
 * copy's second but of another content type (or visibility), is shown by that listing not to be the copy. The
 * source must then stay: its bytes are nowhere else.
 *
 * Through n8n-core's engine over real HTTP to the emulator. The storage's clock is held still from
 * the copy's upload until the other writer has stored its file, so both land in one second.
 */
import type { HookCall } from '../emulator/history';
import { moveOfSettledSource } from './moveOfSettledSource';
import { HERE, useEmulator } from './support';

let heldAt: number | undefined;
const emulator = useEmulator({ now: () => heldAt ?? Date.now() });

afterEach(() => {
	emulator().adversary.setHooks(undefined);
	heldAt = undefined;
});

/** The other writer stores `destination` right before the source is listed for its delete, in the copy's second. */
type Other = { visibility: 'public' | 'private'; contentType: string };
const OTHER_TYPE: Other = { visibility: 'private', contentType: 'application/x-other-writer' };

function writerAtDestination(source: string, destination: string, other: Other = OTHER_TYPE) {
	let uploaded = false;
	let written = false;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op === 'upload' || call.op === 'start') {
				uploaded = true;
				heldAt ??= Date.now();
			}
			if (call.op !== 'list' || !uploaded || written || call.query.get('prefix') !== source) return undefined;
			written = true;
			// The same size as the copy, another content type or visibility: the listing shows it is not the copy.
			await emulator().adversary.put(HERE, destination, Buffer.from('XXXX'), { ...other, writer: 'other' });
			heldAt = undefined;
			return undefined;
		},
	});
	return () => written;
}

describe('Move: another writer’s file of another content type at the destination before the source’s delete', () => {
	it.each([2, 3])(
		'Folder → Move, version %s: the source is kept (its bytes are nowhere else), never deleted for a file the listing shows is not the copy',
		async (typeVersion) => {
			const root = `retyped-v${typeVersion}/`;
			const folders = { from: `${root}src/`, to: `${root}dst/` };
			const move = { source: `${root}src/a.txt`, destination: `${root}dst/a.txt`, typeVersion, folders };
			let written = () => false;
			const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
				written = writerAtDestination(move.source, move.destination);
			});
			expect(written()).toBe(true);
			// The source's bytes are still somewhere.
			expect(Object.values(stored)).toContain('AAAA');
			expect(result.items.map((item) => item.json.status)).not.toContain('moved');
		},
		60_000,
	);

	it('Folder → Move, version 3, a public file of the same type: the source is kept, never deleted for a file the listing shows is not the copy', async () => {
		const root = 'republic/';
		const folders = { from: `${root}src/`, to: `${root}dst/` };
		const move = { source: `${root}src/a.txt`, destination: `${root}dst/a.txt`, typeVersion: 3, folders };
		const other: Other = { visibility: 'public', contentType: 'text/plain' };
		let written = () => false;
		const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
			written = writerAtDestination(move.source, move.destination, other);
		});
		expect(written()).toBe(true);
		expect(Object.values(stored)).toContain('AAAA');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);

	it('File → Move: the source is kept, never deleted for a file the listing shows is not the copy', async () => {
		const move = { source: 'retyped-file/a.txt', destination: 'retyped-file-to/a.txt', typeVersion: 3 };
		let written = () => false;
		const { result, stored } = await moveOfSettledSource(emulator(), move, () => {
			written = writerAtDestination(move.source, move.destination);
		});
		expect(written()).toBe(true);
		expect(Object.values(stored)).toContain('AAAA');
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 60_000);
});
