/**
 * A saved state whose characters were altered (a hand edit, a damaged row) with its length intact
 * still decodes into other key hashes: the state carries a short hash of its content, so the change
 * is detected and reported as a `stateLost` item instead of being read as changes (the file whose
 * record changed would otherwise be emitted as `created`, stored before activation and never changed).
 *
 * Promises (docs/trigger.md): "A saved state that cannot be read is reported once, as a `stateLost`
 * item"; "no file stored before activation and never changed is emitted".
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('a saved state whose characters were altered (its length intact)', () => {
	it('is never read as changes: no old, unchanged file is emitted', async () => {
		for (const name of ['a.txt', 'b.txt', 'c.txt']) await put(api(), `altered/${name}`);
		const trigger = new Poller(emulator, { folder: 'altered', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const state = trigger.savedState as Record<string, unknown>;
		const files = String(state.files);
		// One character of the first record changed, within base64's alphabet: the length is the same.
		trigger.savedState = { ...state, files: (files[0] === 'A' ? 'B' : 'A') + files.slice(1) };
		const changes = await trigger.changes();
		// The state's check does not match: it is reported lost, and no file is read as created.
		expect(changes).toEqual([['stateLost', 'null']]);
		expect(await trigger.changes()).toEqual([]);
	});
});
