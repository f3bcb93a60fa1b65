/**
 * Where a scan's listing ends is taken only from an answer that shows it, never from the page count.
 *
 * - A count that lags behind the rows (a cached count, or a COUNT query run apart from the page's
 *   SELECT): after a burst of uploads the last page the count names is full and more entries follow
 *   it. A scan that trusted `total_pages` would never read them and still call itself complete, so it
 *   would forget the old files pushed past the counted end and emit them as `created` once the count
 *   caught up, though they were stored before activation and never changed.
 * - A service whose pages are shorter than the limit asked for (its own cap of 500): page boundaries
 *   are where the entries received put them, not at (page - 1) x limit; otherwise no scan is ever
 *   complete, no baseline is ever saved, and the trigger is silent for ever.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

describe('a listing whose page count lags behind its rows (a cached count)', () => {
	const names = Array.from({ length: 3000 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);

	it.each([
		['File Created', ['created']],
		['File Created and File Updated', ['created', 'updated']],
	])('(%s) never emits an old, unchanged file as created once the count catches up', async (_, watchFor) => {
		const folder = new ScriptedFolder('big/', names);
		/** The count the service answers with; undefined: the true count (the cache is fresh). */
		let counted: number | undefined;
		server = await startListServer(
			(request) => {
				const answer = folder.answer(request);
				if (counted === undefined) return answer;
				const totalPages = Math.max(1, Math.ceil(counted / request.limit));
				return { ...answer, pagination: { ...answer.pagination, total_items: counted, total_pages: totalPages } };
			},
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'big', watchFor } as never);
		// Activation: 3,000 old files (three full pages), a fresh count, a quiet folder: the baseline.
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect(trigger.savedState).toBeDefined();

		// Five new files that sort first are uploaded; the service's count still says 3,000 (3 pages of
		// 1000), while the rows are 3,005: the last five old files now sit past the counted end.
		counted = 3000;
		const added = ['a0.txt', 'a1.txt', 'a2.txt', 'a3.txt', 'a4.txt'];
		for (const name of added) folder.put(name);
		const emitted: Array<[string, string]> = [];
		emitted.push(...(await trigger.changes()));
		// The count catches up; nothing else changes.
		counted = undefined;
		for (let poll = 0; poll < 3; poll++) emitted.push(...(await trigger.changes()));

		// Only the five new files are changes; f2995.txt … f2999.txt were there all along, untouched.
		expect(emitted).toEqual(added.map((name) => ['created', `big/${name}`]));
	});
});

describe('a service whose pages are shorter than the limit asked for (it caps them at 500)', () => {
	/** The most entries this service puts on one page, whatever `limit` asks for. */
	const SERVICE_PAGE_CAP = 500;

	it('a quiet folder of 1,200 files gets a baseline at activation, and a file added later is emitted', async () => {
		const names = Array.from({ length: 1200 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
		const folder = new ScriptedFolder('capped/', names);
		server = await startListServer(
			(request) => folder.answer({ ...request, limit: Math.min(request.limit, SERVICE_PAGE_CAP) }),
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'capped', watchFor: ['created'] } as never);
		// Activation, then a later tick; nothing changes during either: each scan is a whole, true picture.
		for (let poll = 0; poll < 2; poll++) expect((await trigger.poll()).error).toBeUndefined();
		folder.put('new.txt');
		const changes = await trigger.changes();
		expect({ baselineSaved: trigger.savedState !== undefined, changes }).toEqual({
			baselineSaved: true,
			changes: [['created', 'capped/new.txt']],
		});
	});
});

describe('what showing the end costs', () => {
	it('a scan whose last page is exactly full reads one more page (empty) and proves that boundary too', async () => {
		const names = Array.from({ length: 2000 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
		const folder = new ScriptedFolder('even/', names);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, { folder: 'even', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect(trigger.savedState).toBeDefined();
		const pages = server.requests.filter((request) => request.limit === 1000).map((request) => request.page);
		const windows = server.requests.filter((request) => request.limit !== 1000);
		// Two full pages, then page 3 (empty) shows the end; one small window per boundary (1|2, 2|3).
		expect({ pages, windows: windows.length }).toEqual({ pages: [1, 2, 3], windows: 2 });
	});
});
