/**
 * Review: the trigger's multi-page snapshot rule ("a deletion is confirmed by a second scan that
 * misses the file too") against a busy folder, where files come and go during every scan.
 * README (Trigger): "no change is ever emitted twice and no existing file is reported deleted".
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

describe('a scan over several pages in a folder that changes during every scan', () => {
	const names = Array.from({ length: 2500 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());

	/** Runs each change once, just before the given page of the next scan is answered. */
	function during(folder: ScriptedFolder, changes: Record<number, () => void>) {
		const done = new Set<number>();
		folder.beforeAnswer = (request) => {
			const change = changes[request.page];
			if (change && !done.has(request.page)) {
				done.add(request.page);
				change();
			}
		};
	}

	it('a file that two scans in a row miss because of other changes mid-scan is never reported deleted, nor created again', async () => {
		const folder = new ScriptedFolder('busy/', names);
		server = await startListServer(folder.answer);
		const trigger = new Poller(server, { folder: 'busy', watchFor: ['created', 'deleted'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);

		// Scan 1: a file of page 1 goes before page 2 is read: f1000.txt slides onto page 1 and is missed.
		during(folder, { 2: () => folder.remove('f0010.txt') });
		expect(await trigger.changes()).toEqual([]);

		// Scan 2: a file arrives before page 1 (f1000.txt is back at the top of page 2), another goes
		// before page 2 (it slides onto page 1 again): missed a second time, though it never went away.
		during(folder, { 1: () => folder.put('e.txt'), 2: () => folder.remove('f0020.txt') });
		const second = await trigger.changes();
		expect(second).toContainEqual(['created', 'busy/e.txt']);
		expect(second).not.toContainEqual(['deleted', 'busy/f1000.txt']);

		folder.beforeAnswer = undefined;
		const third = await trigger.changes();
		expect(third).not.toContainEqual(['created', 'busy/f1000.txt']);
	});
});
