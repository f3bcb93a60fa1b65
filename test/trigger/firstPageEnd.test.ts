/**
 * Where the listing of a folder ends on its FIRST page. A service may cap its pages below the limit
 * asked for (docs/trigger.md: "Pages shorter than the limit asked for (a service's own cap) still give a
 * baseline"), and its count may lag behind its rows ("A listing ends where an answer shows it, not where
 * a lagging page count says"). Both at once at activation: page 1 comes back as full as the service's
 * pages go (its `items_per_page`), but shorter than the limit asked for, and the count (cached before a
 * burst of uploads) says it is the only page. Nothing in that answer shows the end of the listing.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** The most entries this service puts on one page, whatever `limit` asks for. */
const SERVICE_PAGE_CAP = 500;

/** How a capped service's answer reads besides its entries. */
interface CappedService {
	/** Its pages' size: as many as it serves (`items_per_page` tells the cap), or the limit asked for (it does not). */
	cap: number;
	/** Whether `items_per_page` names the limit asked for rather than the cap. */
	hidesCap?: boolean;
	/** The count it answers with (total_items, and total_pages of it by the cap); undefined: the true count. */
	counted: () => number | undefined;
}

/** A list server over `folder` serving at most `cap` entries a page, its count as `counted` says. */
async function startCappedService(folder: ScriptedFolder, { cap, hidesCap, counted }: CappedService) {
	return await startListServer(
		(request) => {
			const answer = folder.answer({ ...request, limit: Math.min(request.limit, cap) });
			const count = counted();
			const pagination = { ...answer.pagination, ...(hidesCap ? { items_per_page: request.limit } : {}) };
			if (count === undefined) return { ...answer, pagination };
			const totalPages = Math.max(1, Math.ceil(count / (hidesCap ? request.limit : cap)));
			return { ...answer, pagination: { ...pagination, total_items: count, total_pages: totalPages } };
		},
		undefined,
		folder.exists,
	);
}

describe('a capped service whose count lags at activation', () => {
	it.each([
		['File Created', ['created']],
		['File Created and File Updated', ['created', 'updated']],
	])(
		'(%s) records every file there at activation, so none of them is emitted later as created',
		async (_, watchFor) => {
			const names = Array.from({ length: 1200 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
			const folder = new ScriptedFolder('capped/', names);
			/** The count the service answers with; undefined: the true count (its cache caught up). */
			let counted: number | undefined = SERVICE_PAGE_CAP;
			server = await startCappedService(folder, { cap: SERVICE_PAGE_CAP, counted: () => counted });
			const trigger = new Poller(server, { folder: 'capped', watchFor } as never);
			// Activation: 1,200 files stored before it; the count still says 500 (one page of the service's 500).
			expect((await trigger.poll()).returnedNull).toBe(true);
			// The count catches up; no file is added, changed or deleted from now on.
			counted = undefined;
			const emitted: Array<[string, string]> = [];
			for (let poll = 0; poll < 3; poll++) emitted.push(...(await trigger.changes()));
			expect(emitted).toEqual([]);
		},
	);
});

describe('a capped service whose page count is reckoned with the limit asked for', () => {
	it('a one-page count over a page the cap shortened never reports an existing file deleted', async () => {
		const names = Array.from({ length: 1100 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
		const folder = new ScriptedFolder('capped-del/', names);
		server = await startListServer(
			(request) => {
				const answer = folder.answer({ ...request, limit: Math.min(request.limit, SERVICE_PAGE_CAP) });
				const total = folder.keys().length;
				// total_items is true; total_pages divides it by the limit asked for, not by the cap.
				const totalPages = Math.max(1, Math.ceil(total / request.limit));
				return { ...answer, pagination: { ...answer.pagination, total_items: total, total_pages: totalPages } };
			},
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'capped-del', watchFor: ['created', 'deleted'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		// 150 files are deleted: 950 stay, which the count calls one page of 1000.
		const gone = names.slice(950);
		for (const name of gone) folder.remove(name);
		const reported: Array<[string, string]> = [];
		for (let poll = 0; poll < 3; poll++) reported.push(...(await trigger.changes()));
		expect(reported.filter(([, key]) => !gone.includes(key.slice('capped-del/'.length)))).toEqual([]);
	});
});

describe('a capped service whose page count is reckoned with the limit asked for, over a large folder', () => {
	it('walks every page the service serves (twice what the count names) at activation and after, without an error', async () => {
		const names = Array.from({ length: 3500 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
		const folder = new ScriptedFolder('capped-big/', names);
		server = await startListServer(
			(request) => {
				const answer = folder.answer({ ...request, limit: Math.min(request.limit, SERVICE_PAGE_CAP) });
				// True total_items; total_pages of the limit asked for (4), while the service serves 7 pages.
				const totalPages = Math.max(1, Math.ceil(folder.keys().length / request.limit));
				return { ...answer, pagination: { ...answer.pagination, total_pages: totalPages } };
			},
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'capped-big', watchFor: ['created'] } as never);
		const activation = await trigger.poll();
		folder.put('new.txt');
		const changes = await trigger.changes();
		expect({ error: activation.error?.message, baselineSaved: trigger.savedState !== undefined, changes }).toEqual({
			error: undefined,
			baselineSaved: true,
			changes: [['created', 'capped-big/new.txt']],
		});
	});
});

describe('a capped service whose files before a page boundary go away while it is walked', () => {
	it('proves the boundary with windows the service serves whole, so activation records a baseline holding the files that slid', async () => {
		const names = Array.from({ length: 1200 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
		const folder = new ScriptedFolder('capped-slide/', names);
		let sliding = true;
		server = await startListServer(
			(request) => {
				// Just before page 2 of each scan, 100 files of page 1 are deleted: 100 entries slide onto page 1
				// already read, more than a small window around the boundary can hold.
				if (sliding && request.page === 2 && request.limit === 1000) {
					for (const key of folder.keys().slice(0, 100)) folder.remove(key.slice('capped-slide/'.length));
				}
				return folder.answer({ ...request, limit: Math.min(request.limit, SERVICE_PAGE_CAP) });
			},
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'capped-slide', watchFor: ['created'] } as never);
		expect((await trigger.poll()).error).toBeUndefined();
		const baselineSaved = trigger.savedState !== undefined;
		sliding = false;
		const changes = await trigger.changes();
		// The files that slid at the boundary were in the folder all along: none of them is created.
		expect({ baselineSaved, changes }).toEqual({ baselineSaved: true, changes: [] });
	});
});

describe('a capped service that says it served the limit asked for, its counts lagging at once', () => {
	/** 100 entries a page whatever the limit, `items_per_page` the limit asked for: page 1 looks like a whole folder. */
	const HIDDEN_CAP = 100;
	const names = Array.from({ length: 150 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);

	it('records every file at activation, so none is emitted later as created', async () => {
		const folder = new ScriptedFolder('hidden-cap/', names);
		let counted: number | undefined = HIDDEN_CAP;
		server = await startCappedService(folder, { cap: HIDDEN_CAP, hidesCap: true, counted: () => counted });
		const trigger = new Poller(server, { folder: 'hidden-cap', watchFor: ['created', 'deleted'] } as never);
		// Activation: 150 files, the count (cached) says 100, page 1 holds 100 of the 1000 asked for.
		expect((await trigger.poll()).returnedNull).toBe(true);
		const emitted: Array<[string, string]> = [];
		for (let poll = 0; poll < 2; poll++) emitted.push(...(await trigger.changes()));
		counted = undefined;
		for (let poll = 0; poll < 2; poll++) emitted.push(...(await trigger.changes()));
		expect(emitted).toEqual([]);
	});

	it('never reports a stored file deleted when the count drops back to one short page', async () => {
		const folder = new ScriptedFolder('hidden-cap-del/', names);
		let counted: number | undefined;
		server = await startCappedService(folder, { cap: HIDDEN_CAP, hidesCap: true, counted: () => counted });
		const trigger = new Poller(server, { folder: 'hidden-cap-del', watchFor: ['created', 'deleted'] } as never);
		// Activation under the true count (150: more than page 1 held, read on), then the count lags at 100.
		expect((await trigger.poll()).returnedNull).toBe(true);
		counted = HIDDEN_CAP;
		const emitted: Array<[string, string]> = [];
		for (let poll = 0; poll < 3; poll++) emitted.push(...(await trigger.changes()));
		expect(emitted).toEqual([]);
	});
});
