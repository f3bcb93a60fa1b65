/**
 * A saved state that cannot be read must be reported (a `stateLost` item), never taken silently for
 * a state of other files, through n8n-core's PollContext against the emulator. The whole state is
 * decoded and checked before its `scope` is compared, so neither of these is "another folder or
 * filter" (which would start afresh without a word and, with Emit Existing Files, emit every file again):
 * - its `files` cut short (a lost state) in the same save as File Deleted is added to Watch For:
 *   the carry-over of the state fails, and says so;
 * - its `scope` itself damaged.
 *
 * Promises (docs/trigger.md): "A saved state that cannot be read is reported once, as a `stateLost`
 * item"; "Emit Existing Files: a lost state never emits the files again".
 */
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

type Damage = (state: Record<string, unknown>) => unknown;
const cutShort: Damage = (state) => ({ ...state, files: String(state.files).slice(0, 5) });
const scopeDamaged: Damage = (state) => ({ ...state, scope: String(state.scope).slice(0, 8) });

describe('a damaged saved state is reported as lost, never taken for a state of other files', () => {
	it('files cut short, Watch For unchanged: reported as a stateLost item', async () => {
		await put(api(), 'dmg-control/old.txt');
		const trigger = new Poller(emulator, { folder: 'dmg-control', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		trigger.savedState = cutShort(trigger.savedState as Record<string, unknown>);
		expect(await trigger.changes()).toEqual([['stateLost', 'null']]);
	});

	it.each([
		['its files cut short, in the poll where File Deleted is added', cutShort, ['created', 'deleted']],
		['its scope damaged', scopeDamaged, ['created']],
	])('(%s) without Emit Existing Files: a stateLost item, not a silent new start', async (label, damage, nextWatch) => {
		const folder = `dmg-${label.length}`;
		await put(api(), `${folder}/old.txt`);
		const trigger = new Poller(emulator, { folder, watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		trigger.savedState = damage(trigger.savedState as Record<string, unknown>);
		// Created while the state was being damaged: only a stateLost item tells the workflow it may be missed.
		await put(api(), `${folder}/missed.txt`);
		const changes = await trigger.changes({ parameters: { watchFor: nextWatch } as never });
		expect(changes).toEqual([['stateLost', 'null']]);
	});

	it.each([
		['its files cut short, in the poll where File Deleted is added', cutShort, ['created', 'deleted']],
		['its scope damaged', scopeDamaged, ['created']],
	])('(%s) with Emit Existing Files: files already emitted are not emitted again', async (label, damage, nextWatch) => {
		const folder = `dmg-ex-${label.length}`;
		await put(api(), `${folder}/a.txt`);
		await put(api(), `${folder}/b.txt`);
		const options = { emitExistingFiles: true };
		const trigger = new Poller(emulator, { folder, watchFor: ['created'], options } as never);
		expect((await trigger.changes()).sort()).toEqual([
			['created', `${folder}/a.txt`],
			['created', `${folder}/b.txt`],
		]);
		trigger.savedState = damage(trigger.savedState as Record<string, unknown>);
		const changes = await trigger.changes({ parameters: { watchFor: nextWatch } as never });
		expect(changes).toEqual([['stateLost', 'null']]);
	});
});
