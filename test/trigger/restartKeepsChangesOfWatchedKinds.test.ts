/**
 * An n8n restart between polls, for Watch For settings without File Created. docs/trigger.md, Limits: what a poll
 * that emits nothing takes in is kept in memory until the next poll that emits, and a restart in between loses it.
 * A file created after activation is a change nobody watches with File Deleted only (or File Updated only): the poll
 * that sees it emits nothing, so n8n saves nothing; after a restart the trigger does not know the file, so its
 * deletion, or its update (which then looks like a creation), is not reported. Without the restart both are. This
 * pins the documented limit and its workaround (watch File Created too, and route on `event`).
 */
import { apiFor, Poller, put, remove, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

/** Activation, a file created (seen by a poll), then, with `restart`, n8n restarted with the row saved at activation. */
async function createdThenRestarted(folder: string, watchFor: string[], restart: boolean): Promise<Poller> {
	await put(api(), `${folder}/old.txt`, 'there before activation');
	const trigger = new Poller(emulator, { folder, watchFor } as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	let inDatabase = structuredClone(trigger.staticData);
	await put(api(), `${folder}/report.txt`, 'version one');
	// The creation is taken in; n8n saves the row only after a poll that emits (File Created watched).
	if (!(await trigger.poll()).returnedNull) inDatabase = structuredClone(trigger.staticData);
	// n8n restarts (an upgrade, a crash, a deploy): the workflow is activated again with the saved row.
	if (restart) trigger.staticData = inDatabase;
	return trigger;
}

describe('an n8n restart after a poll that took in a creation nobody watches', () => {
	it.each([
		['deleted', (folder: string) => remove(api(), `${folder}/report.txt`)],
		['updated', (folder: string) => put(api(), `${folder}/report.txt`, 'version two, a longer text')],
	] as const)(
		'File %s only: the change of the file the trigger saw is reported without a restart; after one it is not (documented limit)',
		async (event, change) => {
			const folder = `restart-${event}-only`;
			const steady = await createdThenRestarted(`${folder}-steady`, [event], false);
			await change(`${folder}-steady`);
			expect(await steady.changes()).toEqual([[event, `${folder}-steady/report.txt`]]);
			const restarted = await createdThenRestarted(folder, [event], true);
			await change(folder);
			expect(await restarted.changes()).toEqual([]);
		},
	);

	it('with File Created watched too (the workaround), the change after a restart is reported', async () => {
		const trigger = await createdThenRestarted('restart-with-created', ['created', 'deleted'], true);
		await remove(api(), 'restart-with-created/report.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'restart-with-created/report.txt']]);
	});
});
