/**
 * The mark a poll saves when it could record no starting point names the files it is for and is covered by the
 * state's integrity hash, as a state is. docs/trigger.md: "A state altered after it was saved (one character) is a
 * lost state, never read as changes"; "A saved state that cannot be read is reported once, as a `stateLost` item".
 * A whole state with `pending: true` added is neither a mark (a mark records no file) nor the state it was: taken for
 * a mark it would start afresh silently and drop every change made since the last good poll.
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('a saved state marked as waiting for a starting point', () => {
	it('a whole state with a valid check and `pending: true` added is a lost state, not a silent new start', async () => {
		for (const name of ['a.txt', 'b.txt']) await put(api(), `pending-added/${name}`);
		const trigger = new Poller(emulator, { folder: 'pending-added', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const state = trigger.savedState as Record<string, unknown>;
		expect(typeof state.check).toBe('string');
		trigger.savedState = { ...state, pending: true };
		// A file stored since the last good poll: a silent new start would record it and never emit it.
		await put(api(), 'pending-added/c.txt');
		expect(await trigger.changes()).toEqual([['stateLost', 'null']]);
		expect(await trigger.changes()).toEqual([]);
	});
});
