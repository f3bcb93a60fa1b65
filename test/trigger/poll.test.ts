/**
 * The File Storage Trigger polled through n8n-core's PollContext against the emulator over real
 * HTTP. Each test watches a folder of its own; static data passes from poll to poll as n8n keeps it.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { apiFor, nextSecond, Poller, put, remove, useEmulator } from './support';
import { runPoll } from '../harness';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { credentialsFor, BUCKET } from '../node/support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

function watch(folder: string, parameters: Record<string, unknown> = {}) {
	return new Poller(emulator, { folder, ...parameters } as never);
}

describe('first activation', () => {
	it('records what exists and emits nothing; nothing is emitted later for those files', async () => {
		await put(api(), 'base/a.txt');
		await put(api(), 'base/b.txt');
		const trigger = watch('base', { watchFor: ['created', 'updated', 'deleted'] });
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.returnedNull).toBe(true);
		expect(trigger.staticData).not.toEqual({});
		expect(await trigger.changes()).toEqual([]);
	});

	it('with Emit Existing Files, emits every existing file once', async () => {
		await put(api(), 'existing/a.txt');
		await put(api(), 'existing/b.txt');
		const trigger = watch('existing', { options: { emitExistingFiles: true } });
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'existing/a.txt'],
			['created', 'existing/b.txt'],
		]);
		expect(await trigger.changes()).toEqual([]);
	});
});

describe('the Folder picker', () => {
	it('a folder picked from the list (or by path) is watched like a typed one', async () => {
		for (const mode of ['list', 'path']) {
			await put(api(), `picked-${mode}/a.txt`);
			const trigger = new Poller(emulator, { folder: { __rl: true, mode, value: `picked-${mode}/` } } as never);
			expect((await trigger.poll()).returnedNull).toBe(true);
			await put(api(), `picked-${mode}/b.txt`);
			await put(api(), `elsewhere-${mode}/c.txt`);
			expect(await trigger.changes()).toEqual([['created', `picked-${mode}/b.txt`]]);
		}
	});
});

describe('Fetch Test Event (manual)', () => {
	it('returns the newest matching file and leaves the saved state as it was', async () => {
		await put(api(), 'manual/old.txt');
		await nextSecond();
		await put(api(), 'manual/new.txt', 'newest');
		const trigger = watch('manual');
		const before = await trigger.poll({ mode: 'manual' });
		expect(before.items.map((item) => item.json.key)).toEqual(['manual/new.txt']);
		// No state is created by a manual run...
		expect(before.staticData).toEqual({});
		await trigger.poll();
		const saved = structuredClone(trigger.staticData);
		await nextSecond();
		await put(api(), 'manual/later.txt');
		// ...nor changed: the file that came after the activation is still emitted by the next poll.
		const sample = await trigger.poll({ mode: 'manual' });
		expect(sample.items[0].json).toMatchObject({ event: 'created', key: 'manual/later.txt' });
		expect(sample.staticData).toEqual(saved);
		expect(await trigger.changes()).toEqual([['created', 'manual/later.txt']]);
	});

	it('fails clearly when no file matches', async () => {
		await put(api(), 'nomatch/a.txt');
		const result = await watch('nomatch', { options: { fileNameFilter: '*.pdf' } }).poll({ mode: 'manual' });
		expect(result.error?.message).toMatch(/No file matches in 'my-bucket\/nomatch\/' for the filter "\*\.pdf"/);
	});
});

describe('created files', () => {
	it('emits each new file once, with its listing fields, oldest first', async () => {
		const trigger = watch('create');
		await trigger.poll();
		await put(api(), 'create/first.txt', 'one', { contentType: 'text/csv', visibility: 'public' });
		await nextSecond();
		await put(api(), 'create/second.txt', 'second');
		const result = await trigger.poll();
		expect(result.items.map((item) => item.json)).toEqual([
			{
				event: 'created',
				key: 'create/first.txt',
				name: 'first.txt',
				size: 3,
				content_type: 'text/csv',
				last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
				visibility: 'public',
				bucket: BUCKET.bucketName,
				region: BUCKET.region,
			},
			expect.objectContaining({ event: 'created', key: 'create/second.txt', size: 6 }),
		]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('emits files uploaded in the same second exactly once, also when a poll runs within that second', async () => {
		const trigger = watch('same');
		await trigger.poll();
		await nextSecond();
		await put(api(), 'same/1.txt');
		await put(api(), 'same/2.txt');
		const first = await trigger.poll();
		await put(api(), 'same/3.txt');
		await put(api(), 'same/4.txt');
		const second = await trigger.poll();
		const stamps = new Set([...first.items, ...second.items].map((item) => item.json.last_modified));
		// The whole test ran within one second of the listing's clock (otherwise it proves less).
		expect(stamps.size).toBe(1);
		expect(first.items.map((item) => item.json.key)).toEqual(['same/1.txt', 'same/2.txt']);
		expect(second.items.map((item) => item.json.key)).toEqual(['same/3.txt', 'same/4.txt']);
		expect(await trigger.changes()).toEqual([]);
	});

	it('attaches the file with Download File', async () => {
		const trigger = watch('download', { options: { downloadFile: true } });
		await trigger.poll();
		await put(api(), 'download/report.csv', 'a,b\n1,2\n', { contentType: 'text/csv' });
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].binary?.data).toMatchObject({ fileName: 'report.csv', mimeType: 'text/csv' });
		expect((await result.readBinary(result.items[0])).toString()).toBe('a,b\n1,2\n');
	});

	it('with Download File, a key with a "." segment is never given the bytes of the key without it', async () => {
		const trigger = watch('dotted', { includeSubfolders: true, options: { downloadFile: true } });
		await trigger.poll();
		await put(api(), 'dotted/./x.txt', 'the dotted file');
		await put(api(), 'dotted/x.txt', 'another file');
		const polls = [];
		for (let poll = 0; poll < 3; poll++) polls.push(await trigger.poll());
		const items = polls.flatMap((result) => result.items);
		const dotted = items.filter((item) => item.json.key === 'dotted/./x.txt');
		// Held back for the next polls, then emitted without a file, with the reason.
		expect(dotted).toHaveLength(1);
		expect(dotted[0].binary).toBeUndefined();
		expect(String(dotted[0].json.error)).toMatch(/'dotted\/\.\/x\.txt' has a '\.' segment/);
		const plain = items.filter((item) => item.json.key === 'dotted/x.txt');
		expect(plain).toHaveLength(1);
		expect((await polls.find((result) => result.items.includes(plain[0]))!.readBinary(plain[0])).toString()).toBe(
			'another file',
		);
	});

	it('in combined binary mode the workflow gets the downloaded file under json._files.<field>', async () => {
		const trigger = watch('download-combined', { options: { downloadFile: true, binaryPropertyName: 'file' } });
		await trigger.poll({ binaryMode: 'combined' });
		await put(api(), 'download-combined/report.csv', 'a,b\n3,4\n', { contentType: 'text/csv' });
		const result = await trigger.poll({ binaryMode: 'combined' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			key: 'download-combined/report.csv',
			_files: { file: { fileName: 'report.csv', mimeType: 'text/csv' } },
		});
		expect((await result.readBinary(item, 'file')).toString()).toBe('a,b\n3,4\n');
	});
});

describe('updated files', () => {
	it('emits a file replaced with the same size (in a later second) once, and only when watched', async () => {
		await put(api(), 'update/a.txt', 'aaaa');
		const updates = watch('update', { watchFor: ['updated'] });
		const creations = watch('update', { watchFor: ['created'] });
		await updates.poll();
		await creations.poll();
		await nextSecond();
		await put(api(), 'update/a.txt', 'bbbb');
		const result = await updates.poll();
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ event: 'updated', key: 'update/a.txt', size: 4 }),
		]);
		expect(await updates.changes()).toEqual([]);
		expect(await creations.changes()).toEqual([]);
	});

	it('sees a change of content type or visibility alone', async () => {
		await put(api(), 'meta/a.txt', 'same', { visibility: 'private' });
		const trigger = watch('meta', { watchFor: ['updated'] });
		await trigger.poll();
		await put(api(), 'meta/a.txt', 'same', { visibility: 'public' });
		expect(await trigger.changes()).toEqual([['updated', 'meta/a.txt']]);
		await put(api(), 'meta/a.txt', 'same', { visibility: 'public', contentType: 'text/csv' });
		expect(await trigger.changes()).toEqual([['updated', 'meta/a.txt']]);
	});
});

describe('deleted files', () => {
	it('emits the key of a deleted file once', async () => {
		await put(api(), 'delete/a.txt');
		await put(api(), 'delete/b.txt');
		const trigger = watch('delete', { watchFor: ['deleted'] });
		await trigger.poll();
		await remove(api(), 'delete/a.txt');
		const result = await trigger.poll();
		expect(result.items.map((item) => item.json)).toEqual([
			{
				event: 'deleted',
				key: 'delete/a.txt',
				name: 'a.txt',
				size: null,
				content_type: null,
				last_modified: null,
				visibility: null,
				bucket: BUCKET.bucketName,
				region: BUCKET.region,
			},
		]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a file deleted and re-created between two polls is one update; deleted, polled, re-created is one creation', async () => {
		await put(api(), 'recreate/a.txt', 'first');
		const trigger = watch('recreate', { watchFor: ['created', 'updated', 'deleted'] });
		await trigger.poll();
		await nextSecond();
		await remove(api(), 'recreate/a.txt');
		await put(api(), 'recreate/a.txt', 'again');
		expect(await trigger.changes()).toEqual([['updated', 'recreate/a.txt']]);
		await remove(api(), 'recreate/a.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'recreate/a.txt']]);
		await put(api(), 'recreate/a.txt', 'third');
		expect(await trigger.changes()).toEqual([['created', 'recreate/a.txt']]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a file deleted while only creations are watched is new again when re-created', async () => {
		await put(api(), 'gone/a.txt');
		const trigger = watch('gone');
		await trigger.poll();
		await remove(api(), 'gone/a.txt');
		expect(await trigger.changes()).toEqual([]);
		await put(api(), 'gone/a.txt');
		expect(await trigger.changes()).toEqual([['created', 'gone/a.txt']]);
	});
});

describe('a failed scan', () => {
	afterEach(() => emulator().setFaults([]));

	it.each([
		['failing-500', { status: 500 as const }, {}],
		['failing-timeout', { hang: true }, { timeout: 1 }],
	])(
		'%s: a failed page fails the poll clearly, keeps the state, and the next poll catches up',
		async (folder, fault, options) => {
			await put(api(), `${folder}/top.txt`);
			await put(api(), `${folder}/sub/deep.txt`);
			const trigger = watch(folder, {
				includeSubfolders: true,
				watchFor: ['created', 'deleted'],
				options: { maxRetries: 0, ...options },
			});
			await trigger.poll();
			const saved = structuredClone(trigger.staticData);
			await put(api(), `${folder}/new.txt`);
			await put(api(), `${folder}/sub/new-deep.txt`);
			await remove(api(), `${folder}/sub/deep.txt`);
			// The first page (the folder itself) answers; the sub-folder's page fails.
			emulator().setFaults([{ operation: 'list', nth: [2], ...fault }]);
			const failed = await trigger.poll();
			emulator().setFaults([]);
			expect(failed.error?.message).toMatch(/List Contents of '[^']*\/' in 'my-bucket'/);
			expect(failed.items).toEqual([]);
			expect(trigger.staticData).toEqual(saved);
			expect((await trigger.changes()).sort()).toEqual([
				['created', `${folder}/new.txt`],
				['created', `${folder}/sub/new-deep.txt`],
				['deleted', `${folder}/sub/deep.txt`],
			]);
			expect(await trigger.changes()).toEqual([]);
		},
	);
});

describe('Max Files Per Poll', () => {
	it('emits at most that many, oldest first, and the rest with the next polls, none lost or repeated', async () => {
		const trigger = watch('max', { watchFor: ['created', 'deleted'], options: { maxFilesPerPoll: 2 } });
		await put(api(), 'max/kept.txt');
		await trigger.poll();
		for (const name of ['e', 'd', 'c']) await put(api(), `max/${name}.txt`);
		await nextSecond();
		for (const name of ['b', 'a']) await put(api(), `max/${name}.txt`);
		await remove(api(), 'max/kept.txt');
		const polls = [await trigger.changes(), await trigger.changes(), await trigger.changes()];
		expect(polls).toEqual([
			[
				['created', 'max/c.txt'],
				['created', 'max/d.txt'],
			],
			[
				['created', 'max/e.txt'],
				['created', 'max/a.txt'],
			],
			[
				['created', 'max/b.txt'],
				['deleted', 'max/kept.txt'],
			],
		]);
		expect(await trigger.changes()).toEqual([]);
	});
});

describe('File Name Filter and folders', () => {
	it('emits only files whose name (or key, for a pattern with /) matches', async () => {
		const byName = watch('filter', { includeSubfolders: true, options: { fileNameFilter: '*.pdf' } });
		const byKey = watch('', { includeSubfolders: true, options: { fileNameFilter: 'filter/invoices/*.csv' } });
		await byName.poll();
		await byKey.poll();
		for (const key of ['a.pdf', 'a.txt', 'invoices/b.pdf', 'invoices/jan.csv', 'invoices/2026/feb.csv']) {
			await put(api(), `filter/${key}`);
		}
		expect((await byName.changes()).map(([, key]) => key).sort()).toEqual(['filter/a.pdf', 'filter/invoices/b.pdf']);
		expect((await byKey.changes()).map(([, key]) => key)).toEqual(['filter/invoices/jan.csv']);
	});

	it('without Include Subfolders watches the folder itself only', async () => {
		const trigger = watch('flat');
		await trigger.poll();
		await put(api(), 'flat/top.txt');
		await put(api(), 'flat/sub/deep.txt');
		expect(await trigger.changes()).toEqual([['created', 'flat/top.txt']]);
	});

	it('starts afresh (no flood) when the watched folder changes', async () => {
		await put(api(), 'moved-a/a.txt');
		await put(api(), 'moved-b/b.txt');
		const trigger = watch('moved-a');
		await trigger.poll();
		const moved = await trigger.poll({ parameters: { folder: 'moved-b' } });
		expect(moved.returnedNull).toBe(true);
	});
});

describe('a saved state that cannot be read', () => {
	it.each([
		['truncated', (state: Record<string, unknown>) => ({ ...state, files: String(state.files).slice(0, 5) })],
		['from an unknown release', (state: Record<string, unknown>) => ({ ...state, version: 2 })],
		['not a state at all', () => 'garbage'],
		['without its key list', ({ keys: _keys, ...state }: Record<string, unknown>) => state],
		['with a key list cut short', (state: Record<string, unknown>) => ({ ...state, keys: '' })],
	])(
		'(%s) is reported once as a stateLost item, with a new starting point; the next polls go on from it',
		async (_, damage) => {
			for (const durable of [false, true]) {
				const folder = `lost-${durable ? 'd' : 'm'}-${_.length}`;
				await put(api(), `${folder}/old.txt`);
				const trigger = new Poller(emulator, { folder, watchFor: ['created', 'deleted'] } as never, { durable });
				expect((await trigger.poll()).returnedNull).toBe(true);
				trigger.savedState = damage(trigger.savedState as Record<string, unknown>);
				await put(api(), `${folder}/missed.txt`);
				const lost = await trigger.poll();
				expect(lost.error).toBeUndefined();
				expect(lost.items.map((item) => item.json.event)).toEqual(['stateLost']);
				expect(String(lost.items[0].json.error)).toMatch(
					/^The trigger's saved state could not be read \(.*\): files created, changed or deleted since the last good poll may have been missed\./,
				);
				expect(lost.items[0].json).toMatchObject({ key: null, bucket: BUCKET.bucketName });
				// The files there now are the new starting point: the next poll reports only what comes after.
				expect(await trigger.changes()).toEqual([]);
				await put(api(), `${folder}/after.txt`);
				expect(await trigger.changes()).toEqual([['created', `${folder}/after.txt`]]);
			}
		},
	);

	it('a state saved for another folder is no loss: it starts afresh without a notice', async () => {
		await put(api(), 'lost-scope-b/b.txt');
		const trigger = watch('lost-scope');
		await trigger.poll();
		expect((await trigger.poll({ parameters: { folder: 'lost-scope-b' } })).returnedNull).toBe(true);
		await put(api(), 'lost-scope-b/new.txt');
		expect(await trigger.changes({ parameters: { folder: 'lost-scope-b' } })).toEqual([
			['created', 'lost-scope-b/new.txt'],
		]);
	});

	it('a state whose scope was replaced by another is lost, not taken for a state of another folder', async () => {
		const trigger = watch('lost-scope-edit');
		await trigger.poll();
		const saved = trigger.savedState as Record<string, unknown>;
		trigger.savedState = { ...saved, scope: '0000000000000000' };
		expect(await trigger.changes()).toEqual([['stateLost', 'null']]);
	});
});

describe('cost and n8n versions', () => {
	it(`scans n files of a folder with ceil(n / 1000) list requests, one more (empty) after a short last page, plus one small request per page boundary`, async () => {
		const keys = Array.from({ length: 1001 }, (_, i) => `many/${String(i).padStart(4, '0')}.txt`);
		for (let i = 0; i < keys.length; i += 20) await Promise.all(keys.slice(i, i + 20).map((key) => put(api(), key)));
		const trigger = watch('many');
		emulator().resetStats();
		await trigger.poll();
		expect(emulator().stats().requests.list).toBe(4);
		await put(api(), 'many/new.txt');
		emulator().resetStats();
		expect(await trigger.changes()).toEqual([['created', 'many/new.txt']]);
		expect(emulator().stats().requests.list).toBe(4);
	});

	it('works without getPollBudgetMs (n8n 1.x)', async () => {
		const trigger = watch('old-n8n');
		await trigger.poll({ pollBudgetMs: null });
		await put(api(), 'old-n8n/a.txt');
		expect(await trigger.changes({ pollBudgetMs: null })).toEqual([['created', 'old-n8n/a.txt']]);
	});

	it.each([
		[1, {}, 4],
		[2, { parallelRequests: 2 }, 6],
	])(
		'version %i: starts no further download when the poll budget runs out; the rest come with the next poll',
		async (typeVersion, options, count) => {
			const folder = `budget-download-v${typeVersion}`;
			const trigger = new Poller(emulator, { folder, options: { downloadFile: true, ...options } } as never, {
				typeVersion,
			});
			await trigger.poll();
			const keys = Array.from({ length: count }, (_, i) => `${folder}/${i + 1}.txt`);
			for (const key of keys) await put(api(), key, key);
			// 100 ms per request: the scan takes two (its page, then the empty one), each download two; 90 % of 500 ms is spent after two
			// downloads in a row (version 2: two rounds of two at once).
			emulator().setLatency(100);
			const first = await trigger.poll({ pollBudgetMs: 500 });
			emulator().setLatency(0);
			expect(first.error).toBeUndefined();
			expect(first.items.length).toBeGreaterThanOrEqual(1);
			expect(first.items.length).toBeLessThan(keys.length);
			const rest = await trigger.poll();
			expect([...first.items, ...rest.items].map((item) => item.json.key)).toEqual(keys);
			for (const item of [...first.items, ...rest.items]) {
				expect((await first.readBinary(item)).toString()).toBe(item.json.key);
			}
			expect(await trigger.changes()).toEqual([]);
		},
	);

	it('fails without touching the state when the scan outlasts the poll budget', async () => {
		const trigger = watch('budget');
		await put(api(), 'budget/a.txt');
		await trigger.poll();
		const saved = structuredClone(trigger.staticData);
		await put(api(), 'budget/b.txt');
		emulator().setLatency(50);
		const late = await trigger.poll({ pollBudgetMs: 20 });
		emulator().setLatency(0);
		expect(late.error?.message).toMatch(/did not finish within this poll's time/);
		expect(trigger.staticData).toEqual(saved);
		expect(await trigger.changes()).toEqual([['created', 'budget/b.txt']]);
	});
});

describe('a scan over several pages (a scripted folder of 2,500 files, changed between page requests)', () => {
	const names = Array.from({ length: 2500 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());

	/** The signed-link endpoint answers as the service does: a link, or its 404 for a key not stored. */
	async function watchBig(watchFor: string[], options: Record<string, unknown> = {}) {
		const folder = new ScriptedFolder('big/', names);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, { folder: 'big', watchFor, options } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		return { folder, trigger, links: server.linkRequests };
	}

	/** Runs each change once, just before the given page of the next scan is answered. */
	function during(folder: ScriptedFolder, changes: Record<number, () => void>) {
		const done = new Set<number>();
		folder.beforeAnswer = (request) => {
			const change = request.limit === 1000 ? changes[request.page] : undefined;
			if (change && !done.has(request.page)) {
				done.add(request.page);
				change();
			}
		};
	}

	/** Runs `change` once, just before page `page` of the next scan is answered. */
	function between(folder: ScriptedFolder, page: number, change: () => void) {
		let done = false;
		folder.beforeAnswer = (request) => {
			if (!done && request.page === page && request.limit === 1000) {
				done = true;
				change();
			}
		};
	}

	it('a file deleted on page 1 mid-scan never makes an existing file count as deleted or created again', async () => {
		const { folder, trigger, links } = await watchBig(['created', 'updated', 'deleted']);
		// f1000.txt slides from page 2 onto page 1, which was already read: the window read around
		// that boundary lists it, so this scan misses nothing and nothing is emitted.
		between(folder, 2, () => folder.remove('f0010.txt'));
		expect(await trigger.changes()).toEqual([]);
		expect(links).toEqual([]);
		// The next scan misses f0010.txt: the service says it is gone.
		expect(await trigger.changes()).toEqual([['deleted', 'big/f0010.txt']]);
		expect(links).toEqual(['big/f0010.txt']);
		expect(await trigger.changes()).toEqual([]);
		expect(links).toHaveLength(1);
	});

	it('a file that two scans in a row miss because of other changes mid-scan is never reported deleted, nor created again', async () => {
		const { folder, trigger } = await watchBig(['created', 'deleted']);
		// Scan 1: a file of page 1 goes before page 2 is read: f1000.txt slides onto page 1 and is missed.
		during(folder, { 2: () => folder.remove('f0010.txt') });
		expect(await trigger.changes()).toEqual([]);
		// Scan 2: a file arrives before page 1 (f1000.txt is back at the top of page 2), another goes
		// before page 2 (it slides onto page 1 again): missed a second time, though it never went away.
		during(folder, { 1: () => folder.put('e.txt'), 2: () => folder.remove('f0020.txt') });
		const second = await trigger.changes();
		expect(second).toContainEqual(['created', 'big/e.txt']);
		expect(second).not.toContainEqual(['deleted', 'big/f1000.txt']);
		folder.beforeAnswer = undefined;
		const third = await trigger.changes();
		expect(third).not.toContainEqual(['created', 'big/f1000.txt']);
		expect([...second, ...third].filter(([event]) => event === 'deleted').sort()).toEqual([
			['deleted', 'big/f0010.txt'],
			['deleted', 'big/f0020.txt'],
		]);
	});

	it('a deletion in a folder read over several pages costs one signed-link request and comes with the next poll', async () => {
		const { folder, trigger, links } = await watchBig(['deleted']);
		for (const name of ['f0500.txt', 'f1500.txt', 'f2400.txt']) folder.remove(name);
		expect(await trigger.changes()).toEqual([
			['deleted', 'big/f0500.txt'],
			['deleted', 'big/f1500.txt'],
			['deleted', 'big/f2400.txt'],
		]);
		expect(links).toEqual(['big/f0500.txt', 'big/f1500.txt', 'big/f2400.txt']);
	});

	it('checks at most Max Files Per Poll deletions per poll; the others come with the next polls', async () => {
		const { folder, trigger, links } = await watchBig(['deleted'], { maxFilesPerPoll: 2 });
		for (const name of ['f0001.txt', 'f0002.txt', 'f0003.txt']) folder.remove(name);
		expect(await trigger.changes()).toEqual([
			['deleted', 'big/f0001.txt'],
			['deleted', 'big/f0002.txt'],
		]);
		expect(links).toHaveLength(2);
		expect(await trigger.changes()).toEqual([['deleted', 'big/f0003.txt']]);
		expect(links).toHaveLength(3);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a deletion the service cannot confirm (its check fails) is not reported; the poll says why and the next reports it', async () => {
		const folder = new ScriptedFolder('big/', names);
		let broken = true;
		server = await startListServer(folder.answer, undefined, (key) => (broken ? { status: 500 } : folder.exists(key)));
		const trigger = new Poller(server, { folder: 'big', watchFor: ['deleted'], options: { maxRetries: 0 } } as never);
		await trigger.poll();
		folder.remove('f0500.txt');
		const failed = await trigger.poll();
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toMatch(
			/^Could not check whether 'big\/f0500\.txt' was deleted: Signed URL of 'big\/f0500\.txt' failed: Internal server error \(HTTP 500\)/,
		);
		broken = false;
		expect(await trigger.changes()).toEqual([['deleted', 'big/f0500.txt']]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a file missed mid-scan is not created again when only File Created is watched', async () => {
		const { folder, trigger } = await watchBig(['created']);
		// Page 3 then misses f2000.txt.
		between(folder, 3, () => folder.remove('f0010.txt'));
		expect(await trigger.changes()).toEqual([]);
		expect(await trigger.changes()).toEqual([]);
		expect(await trigger.changes()).toEqual([]);
		// Two scans without it: it was forgotten, so it is new when it comes back.
		folder.put('f0010.txt');
		expect(await trigger.changes()).toEqual([['created', 'big/f0010.txt']]);
	});

	it.each([
		['File Created', ['created']],
		['File Created, Updated and Deleted', ['created', 'updated', 'deleted']],
	])(
		'a baseline read while a file of page 1 is deleted is whole: no old file is created later (%s)',
		async (_, watchFor) => {
			const folder = new ScriptedFolder('big/', names);
			server = await startListServer(folder.answer, undefined, folder.exists);
			const trigger = new Poller(server, { folder: 'big', watchFor } as never);
			// The activation poll: f1000.txt slides onto page 1, already read, when f0010.txt goes.
			between(folder, 2, () => folder.remove('f0010.txt'));
			expect((await trigger.poll()).returnedNull).toBe(true);
			folder.beforeAnswer = undefined;
			const deletedToo = watchFor.includes('deleted') ? [['deleted', 'big/f0010.txt']] : [];
			expect(await trigger.changes()).toEqual(deletedToo);
			expect(await trigger.changes()).toEqual([]);
		},
	);

	it('a file two scans in a row miss while only File Created is watched is never created again', async () => {
		const { folder, trigger } = await watchBig(['created']);
		// Scan 1: a file of page 1 goes before page 2 is read: f1000.txt slides onto page 1.
		during(folder, { 2: () => folder.remove('f0010.txt') });
		expect(await trigger.changes()).toEqual([]);
		// Scan 2: a file arrives before page 1, another goes before page 2: f1000.txt slides again.
		during(folder, { 1: () => folder.put('e.txt'), 2: () => folder.remove('f0020.txt') });
		expect(await trigger.changes()).toEqual([['created', 'big/e.txt']]);
		folder.beforeAnswer = undefined;
		expect(await trigger.changes()).toEqual([]);
	});

	/** Before each window read around a page boundary, `count` new files sort first: the boundary moves away. */
	function movingBoundaries(
		folder: ScriptedFolder,
		prefix: string,
		count: number,
		more: Record<number, () => void> = {},
	) {
		let added = 0;
		const done = new Set<number>();
		folder.beforeAnswer = (request) => {
			if (request.limit === 1000 && more[request.page] && !done.has(request.page)) {
				done.add(request.page);
				more[request.page]();
			}
			if (request.limit === 1000) return;
			for (let i = 0; i < count; i++) folder.put(`${prefix}${String(added++).padStart(4, '0')}.txt`);
		};
	}

	it('a first poll whose scans never settle saves no baseline; the next settled scan is the baseline, without old files', async () => {
		const folder = new ScriptedFolder('big/', names);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, { folder: 'big', watchFor: ['created'] } as never);
		movingBoundaries(folder, 'a', 300, { 2: () => folder.remove('f0010.txt') });
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect(trigger.savedState).toBeUndefined();
		// Three scans in that poll, each with its boundary checks.
		expect(server.requests.filter((request) => request.limit === 1000 && request.page === 1).length).toBe(3);
		folder.beforeAnswer = undefined;
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect(trigger.savedState).toBeDefined();
		folder.put('new.txt');
		expect(await trigger.changes()).toEqual([['created', 'big/new.txt']]);
	});

	it('with Emit Existing Files, a lost state whose scans never settle floods nothing once a scan settles', async () => {
		const folder = new ScriptedFolder('big/', names);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const emitExisting = { parameters: { options: { emitExistingFiles: true } } as never };
		const trigger = new Poller(server, { folder: 'big', watchFor: ['created'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		trigger.savedState = 'garbage';
		movingBoundaries(folder, 'a', 300);
		expect(await trigger.changes(emitExisting)).toEqual([['stateLost', 'null']]);
		folder.beforeAnswer = undefined;
		// Not a first poll: the files there are the new starting point, none is emitted.
		expect(await trigger.changes(emitExisting)).toEqual([]);
		folder.put('new.txt');
		expect(await trigger.changes(emitExisting)).toEqual([['created', 'big/new.txt']]);
	});

	it('a file that scans with moving page boundaries miss, twice in a row, is never forgotten (File Created)', async () => {
		const { folder, trigger } = await watchBig(['created']);
		// Scan 1: f1000.txt slides onto page 1 before page 2 is read, and the boundary cannot be checked.
		movingBoundaries(folder, 'a', 300, { 2: () => folder.remove('f0010.txt') });
		const first = await trigger.changes();
		// Scan 2: 600 new files go before page 2 is read: f1000.txt slides onto page 1 again.
		const aFiles = Array.from({ length: 600 }, (_, i) => `a${String(i).padStart(4, '0')}.txt`);
		movingBoundaries(folder, 'b', 300, { 2: () => aFiles.forEach((name) => folder.remove(name)) });
		const second = await trigger.changes();
		folder.beforeAnswer = undefined;
		const third = await trigger.changes();
		const created = [...first, ...second, ...third].map(([event, key]) => `${event} ${key}`);
		expect(created).not.toContain('created big/f1000.txt');
		expect(created.filter((change) => !/^created big\/[ab]\d{4}\.txt$/.test(change))).toEqual([]);
		expect(new Set(created).size).toBe(created.length);
	});

	it('a file added on page 1 mid-scan makes no change come twice; it comes with the next poll', async () => {
		const { folder, trigger } = await watchBig(['created', 'updated', 'deleted']);
		// The last file of page 1: the addition below pushes it onto page 2 as well.
		folder.put('f0998b.txt');
		between(folder, 2, () => folder.put('f0001b.txt'));
		expect(await trigger.changes()).toEqual([['created', 'big/f0998b.txt']]);
		expect(await trigger.changes()).toEqual([['created', 'big/f0001b.txt']]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('a deletion in a folder read in one page (then its empty page) is emitted by the very next poll, without a check', async () => {
		const folder = new ScriptedFolder('small/', names.slice(0, 1000));
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, { folder: 'small', watchFor: ['deleted'] } as never);
		await trigger.poll();
		folder.remove('f0500.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'small/f0500.txt']]);
		expect(server.linkRequests).toEqual([]);
	});

	it('a service that repeats the same page fails the poll with an unexpected answer and keeps the state', async () => {
		const folder = new ScriptedFolder('big/', names);
		let repeat = false;
		// Echoes the page number asked for, but always answers with page 1's entries.
		server = await startListServer((request) => {
			if (!repeat) return folder.answer(request);
			const first = folder.answer({ ...request, page: 1 });
			return { ...first, pagination: { ...first.pagination, current_page: request.page } };
		});
		const trigger = new Poller(server, { folder: 'big', watchFor: ['created', 'deleted'] } as never);
		await trigger.poll();
		const saved = structuredClone(trigger.staticData);
		repeat = true;
		const result = await trigger.poll();
		expect(result.error?.message).toMatch(
			/^Unexpected answer from the service to List Contents of 'big\/' in 'my-bucket' \(page 2\): .*repeats 1000 entries already listed/,
		);
		expect(trigger.staticData).toEqual(saved);
	});
});

describe('Download File failures', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());
	/** Keys the CDN refuses (403), as a CDN rule or a broken file would. */
	const refused = new Set<string>();
	afterEach(() => refused.clear());
	/** What the poll logs through n8n's logger (the one PollContext hands to the node). */
	let warn: jest.SpyInstance;
	beforeEach(() => (warn = jest.spyOn(Container.get(Logger), 'warn')));
	afterEach(() => warn.mockRestore());
	const warnings = () => warn.mock.calls.map(([message]) => String(message));

	async function watchDownloads(
		options: Record<string, unknown> = {},
		scheduler: { durable?: boolean } = {},
		existing: string[] = [],
	) {
		const folder = new ScriptedFolder('dl/', []);
		for (const name of existing) put(folder, name);
		server = await startListServer(folder.answer, (key) =>
			refused.has(key) ? { status: 403, body: 'Forbidden' } : { status: 200, body: `content of ${key}` },
		);
		const trigger = new Poller(
			server,
			{ folder: 'dl', options: { downloadFile: true, maxRetries: 0, ...options } } as never,
			scheduler,
		);
		return { folder, trigger };
	}

	const keysOf = (items: Array<{ json: { key?: unknown } }>) => items.map((item) => item.json.key);
	/** Listed with the size the CDN serves: the trigger checks the listing's size against the body. */
	const put = (folder: ScriptedFolder, name: string) => folder.put(name, `content of dl/${name}`.length);

	it('a file whose download fails is left for the next poll (the state does not move past it); the others are emitted', async () => {
		const { folder, trigger } = await watchDownloads();
		expect((await trigger.poll()).returnedNull).toBe(true);
		for (const name of ['a.txt', 'b.txt', 'c.txt']) put(folder, name);
		refused.add('dl/b.txt');
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(keysOf(first.items)).toEqual(['dl/a.txt', 'dl/c.txt']);
		for (const item of first.items)
			expect((await first.readBinary(item)).toString()).toBe(`content of ${item.json.key}`);
		expect(warnings()).toEqual([expect.stringMatching(/download of 'dl\/b\.txt' failed \(1 of 3 polls\).*403/)]);
		refused.clear();
		const second = await trigger.poll();
		expect(keysOf(second.items)).toEqual(['dl/b.txt']);
		expect((await second.readBinary(second.items[0])).toString()).toBe('content of dl/b.txt');
		expect(await trigger.changes()).toEqual([]);
	});

	it('a file whose download fails does not hold up the other files when Max Files Per Poll is 1', async () => {
		const { folder, trigger } = await watchDownloads({ maxFilesPerPoll: 1 });
		expect((await trigger.poll()).returnedNull).toBe(true);
		// Same last_modified: ordered by key, so a.txt (refused) comes first.
		for (const name of ['a.txt', 'b.txt', 'c.txt']) put(folder, name);
		refused.add('dl/a.txt');
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(keysOf(first.items)).toEqual(['dl/b.txt']);
		refused.clear();
		expect(keysOf((await trigger.poll()).items)).toEqual(['dl/a.txt']);
		expect(keysOf((await trigger.poll()).items)).toEqual(['dl/c.txt']);
		expect(await trigger.changes()).toEqual([]);
	});

	it.each([
		['as n8n keeps an active workflow in memory', {}],
		["under n8n's durable scheduler (a poll that throws saves nothing)", { durable: true }],
	])(
		'%s: a file that keeps failing is tried in 3 polls, then emitted without its file and with the error; a poll with nothing else does not fail',
		async (_label, scheduler) => {
			const { folder, trigger } = await watchDownloads({}, scheduler);
			expect((await trigger.poll()).returnedNull).toBe(true);
			for (const name of ['a.txt', 'b.txt']) put(folder, name);
			refused.add('dl/b.txt');
			expect(keysOf((await trigger.poll()).items)).toEqual(['dl/a.txt']);
			// Nothing else to emit: the poll returns nothing (n8n saves the count) and logs why.
			const alone = await trigger.poll();
			expect(alone.error).toBeUndefined();
			expect(alone.returnedNull).toBe(true);
			expect(warnings()[1]).toMatch(
				/download of 'dl\/b\.txt' failed \(2 of 3 polls\).*after 3 it is emitted without its file.*Download of 'dl\/b\.txt'.*403/,
			);
			put(folder, 'c.txt');
			const last = await trigger.poll();
			expect(last.error).toBeUndefined();
			expect(keysOf(last.items)).toEqual(['dl/b.txt', 'dl/c.txt']);
			expect(last.items[0].binary).toBeUndefined();
			expect(last.items[0].json).toMatchObject({ event: 'created', key: 'dl/b.txt', size: 19 });
			expect(String(last.items[0].json.error)).toMatch(/Download of 'dl\/b\.txt'.*403/);
			expect((await last.readBinary(last.items[1])).toString()).toBe('content of dl/c.txt');
			expect(await trigger.changes()).toEqual([]);
		},
	);

	it('activation with Emit Existing Files does not fail for a file whose download fails; it comes with its error after 3 polls', async () => {
		refused.add('dl/bad.txt');
		const { trigger } = await watchDownloads({ emitExistingFiles: true }, { durable: true }, ['bad.txt']);
		const activation = await trigger.poll();
		expect(activation.error).toBeUndefined();
		expect(activation.returnedNull).toBe(true);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const third = await trigger.poll();
		expect(keysOf(third.items)).toEqual(['dl/bad.txt']);
		expect(String(third.items[0].json.error)).toMatch(/Download of 'dl\/bad\.txt'.*403/);
		expect(await trigger.changes()).toEqual([]);
	});
});

it('runPoll leaves static data of other nodes alone', async () => {
	const result = await runPoll({
		credentials: credentialsFor(emulator()),
		parameters: { ...BUCKET, folder: 'other' },
		staticData: { 'node:Another': { kept: true } },
	});
	expect(result.staticData['node:Another']).toEqual({ kept: true });
});
