/**
 * An n8n restart between polls, for Watch For settings without File Created. docs/trigger.md, Limits: what a poll
 * that emits nothing takes in is kept in memory until the next poll that emits; "After an n8n restart in between it
 * is taken in again, and one case shows: with File Created only, a file deleted ... and stored again". So any other
 * setting must report its watched changes across such a restart. A file created after activation is a change nobody
 * watches with File Deleted only (or File Updated only): the poll that sees it emits nothing, so n8n saves nothing.
 */
import { apiFor, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

/** Activation, a file created (seen by a poll that emits nothing), then n8n restarted with the row saved at activation. */
async function createdThenRestarted(folder: string, watchFor: string[]): Promise<Poller> {
	await put(api(), `${folder}/old.txt`, 'there before activation');
	const trigger = new Poller(emulator, { folder, watchFor } as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	const inDatabase = structuredClone(trigger.staticData);
	await put(api(), `${folder}/report.txt`, 'version one');
	// The creation is not watched: this poll takes it in, emits nothing, and n8n keeps that in memory only.
	expect((await trigger.poll()).returnedNull).toBe(true);
	// n8n restarts (an upgrade, a crash, a deploy): the workflow is activated again with the saved row.
	trigger.staticData = inDatabase;
	return trigger;
}

describe('an n8n restart after a poll that took in a creation nobody watches', () => {
	it('File Deleted only: the deletion of the file the trigger saw is still reported', async () => {
		const trigger = await createdThenRestarted('restart-delonly', ['deleted']);
		await remove(api(), 'restart-delonly/report.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'restart-delonly/report.txt']]);
	});

	it('File Updated only: the update of the file the trigger saw is still reported', async () => {
		const trigger = await createdThenRestarted('restart-updonly', ['updated']);
		await put(api(), 'restart-updonly/report.txt', 'version two, a longer text');
		expect(await trigger.changes()).toEqual([['updated', 'restart-updonly/report.txt']]);
	});
});
