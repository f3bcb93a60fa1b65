/**
 * The integrity check is only optional for states of releases that never wrote one. A state that holds a field only
 * states with a check ever held (`place`, written since the check exists), but no check, had its check removed by a
 * hand edit: read as it is, any other alteration passes (here one record, so an old, unchanged file is emitted).
 *
 * Promises (docs/trigger.md): "A state altered after it was saved (one character) is a lost state, never read as
 * changes"; "no file stored before activation and never changed is emitted".
 */
import { apiFor, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

describe('a state saved by this release whose check was removed, then altered', () => {
	it('is a lost state: no old, unchanged file is read as created', async () => {
		for (const name of ['a.txt', 'b.txt', 'c.txt']) await put(api(), `unchecked/${name}`);
		const trigger = new Poller(emulator, { folder: 'unchecked', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const state = { ...(trigger.savedState as Record<string, unknown>) };
		// Only states written with a check name their place: this one was written by a release that checks.
		expect(typeof state.place).toBe('string');
		expect(typeof state.check).toBe('string');
		delete state.check;
		const files = String(state.files);
		trigger.savedState = { ...state, files: (files[0] === 'A' ? 'B' : 'A') + files.slice(1) };
		const changes = await trigger.changes();
		expect(changes).toEqual([['stateLost', 'null']]);
	});
});

describe('a state as releases before the check saved it (no check, no place)', () => {
	it('polls with no item, and still reports a change made since', async () => {
		for (const name of ['a.txt', 'b.txt', 'c.txt']) await put(api(), `precheck/${name}`);
		const trigger = new Poller(emulator, { folder: 'precheck', watchFor: ['created', 'deleted'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		// The fields of release 0.1.0's states (triggerState.test.ts › "state saved by release 0.1.0"), nothing more.
		const { version, scope, count, files, keys } = trigger.savedState as Record<string, unknown>;
		trigger.savedState = { version, scope, count, files, keys };
		expect(await trigger.changes()).toEqual([]);
		await remove(api(), 'precheck/b.txt');
		await put(api(), 'precheck/d.txt');
		expect(await trigger.changes()).toEqual([
			['created', 'precheck/d.txt'],
			['deleted', 'precheck/b.txt'],
		]);
		expect(await trigger.changes()).toEqual([]);
	});
});
