import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import {
	deleteFolderAt,
	pagesOf,
	ScriptedFolder,
	startListServer,
	type ListAnswer,
	type ListServer,
} from './listServer';
import { runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

/** For the walks the emulator serves (its listing rewritten by a fault): a real Folder → Delete. */
const emulator = useEmulator();
const storeText = async (key: string, text: string) => await uploadWithNode(emulator(), key, text);
const read = async (key: string) => await storedText(emulator(), key);

const credentials = (server: ListServer) => ({
	fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url },
});

async function listWith(answer: ListAnswer, parameters: INodeParameters) {
	const server = await startListServer(answer);
	try {
		const result = await runNode({
			credentials: credentials(server),
			parameters: { bucketName: 'b', region: 'r', resource: 'bucket', operation: 'listContents', ...parameters },
		});
		return { result, requests: server.requests };
	} finally {
		await server.stop();
	}
}

const file = (index: number) => ({
	name: `f${index}.txt`,
	type: 'file',
	path: `many/f${index}.txt`,
	size: index,
	content_type: 'text/plain',
	last_modified: '2026-01-01T00:00:00Z',
	visibility: 'private',
});

describe('List Contents at the edges', () => {
	it('Return All over 150,000 entries gives every one (no stack overflow in the output)', async () => {
		const { result, requests } = await listWith(pagesOf(150_000, file), { returnAll: true, folder: 'many' });
		expect(result.error).toBeUndefined();
		// 150 full pages; the last is full, so one more (empty) page shows the end.
		expect(requests).toHaveLength(151);
		expect(requests[150]).toEqual({ prefix: 'many/', page: 151, limit: 1000 });
		expect(result.items).toHaveLength(150_000);
		expect(result.items[0].json.path).toBe('many/f0.txt');
		expect(result.items[149_999].json.path).toBe('many/f149999.txt');
		expect(result.items[149_999].pairedItem).toEqual({ item: 0 });
	});

	it('Return All over a count that lags behind its rows gives the entries past the full page it calls the last', async () => {
		// 2,005 entries; the count still says 2,000 (two full pages): page 3 is read all the same.
		const lagging: ListAnswer = (request) => {
			const answer = pagesOf(2005, file)(request);
			return { ...answer, pagination: { ...answer.pagination, total_items: 2000, total_pages: 2 } };
		};
		const { result, requests } = await listWith(lagging, { returnAll: true, folder: 'many' });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.path)).toEqual(
			Array.from({ length: 2005 }, (_, i) => `many/f${i}.txt`),
		);
		// Page 3 is short: page 4, empty, shows the end (a short page may be a silent cap).
		expect(requests.map((request) => request.page)).toEqual([1, 2, 3, 4]);
	});

	it('a folder that shows up inside itself ends a recursive walk with an error naming it, instead of looping', async () => {
		// Page 2 of each folder is past its end: no children (spec).
		const loop: ListAnswer = ({ prefix, page, limit }) => ({
			children:
				page > 1
					? []
					: [
							{ name: 'loop', type: 'folder', path: 'loop/', size: null, last_modified: null },
							{ name: 'again', type: 'folder', path: 'loop/', size: null, last_modified: null },
							file(prefix.length),
						],
			pagination: { current_page: page, total_pages: 1, total_items: 3, items_per_page: limit },
		});
		const { result, requests } = await listWith(loop, { returnAll: true, options: { recursive: true } });
		expect(result.error?.message).toMatch(
			/^Unexpected answer from the service to List Contents of 'loop\/' in 'b' \(page 1\): the listing of 'loop\/' names 'loop\/', which is not under 'loop\/'/,
		);
		expect(requests.map((request) => request.prefix)).toEqual(['', '', 'loop/']);
	});

	it('a service that ignores the page number ends the walk with an error instead of looping', async () => {
		const stuck: ListAnswer = ({ limit }) => ({
			children: [file(1)],
			pagination: { current_page: 1, total_pages: 5, total_items: 5, items_per_page: limit },
		});
		const { result, requests } = await listWith(stuck, { returnAll: true, options: { pageSize: 1 } });
		expect(result.error?.message).toMatch(
			/Unexpected answer from the service to List Contents of 'b' \(page 2\): "pagination.current_page" is 1, but page 2 was asked for/,
		);
		expect(requests).toHaveLength(2);
	});

	it('total_pages below the page that has entries is an unexpected answer', async () => {
		const skewed: ListAnswer = ({ page, limit }) => ({
			children: [file(page)],
			pagination: { current_page: page, total_pages: 0, total_items: 1, items_per_page: limit },
		});
		const { result } = await listWith(skewed, { returnAll: true });
		expect(result.error?.message).toMatch(/"pagination.total_pages" is 0 on page 1, which has entries/);
	});

	it('a service that echoes the page number but repeats the same entries fails instead of giving duplicates', async () => {
		const echo: ListAnswer = ({ page, limit }) => ({
			children: [file(1), file(2)],
			pagination: { current_page: page, total_pages: 5, total_items: 10, items_per_page: limit },
		});
		const { result, requests } = await listWith(echo, { returnAll: true, options: { pageSize: 2 } });
		expect(result.error?.message).toMatch(
			/^Unexpected answer from the service to List Contents of 'b' \(page 2\): page 2 of the root repeats 2 entries already listed on earlier pages/,
		);
		expect(requests).toHaveLength(2);
	});

	it('a total_pages that keeps growing stops the walk early with an error, naming what page 1 said', async () => {
		const growing: ListAnswer = ({ page, limit }) => ({
			children: [file(page)],
			pagination: { current_page: page, total_pages: page + 1, total_items: page + 1, items_per_page: limit },
		});
		const { result, requests } = await listWith(growing, { returnAll: true, options: { pageSize: 1000 } });
		expect(result.error?.message).toMatch(
			/^Unexpected answer from the service to List Contents of 'b' \(page \d+\): "pagination.total_pages" grew to \d+, but page 1 said 2/,
		);
		expect(requests.length).toBeLessThanOrEqual(5);
	});

	it('full pages that never end past a count of one page stop the walk with an error, instead of reading on for ever', async () => {
		const endless: ListAnswer = ({ page, limit }) => ({
			children: Array.from({ length: limit }, (_, i) => file((page - 1) * limit + i)),
			pagination: { current_page: page, total_pages: 1, total_items: limit, items_per_page: limit },
		});
		const { result, requests } = await listWith(endless, { returnAll: true });
		expect(result.error?.message).toMatch(
			/^Unexpected answer from the service to List Contents of 'b' \(page 4\): page 4 still has entries, but page 1 said 1 page; the walk of the root was stopped/,
		);
		expect(requests).toHaveLength(4);
	});

	it('entries shifted by files added while Return All pages (even by a whole page) are listed once, without an error', async () => {
		const names = Array.from({ length: 10 }, (_, i) => `m${i}.txt`);
		const folder = new ScriptedFolder('', names);
		folder.beforeAnswer = ({ page }) => {
			// One file before page 2 (its first entry repeats), three before page 3 (all of it repeats).
			if (page === 2) folder.put('a0.txt');
			if (page === 3) for (const name of ['a1.txt', 'a2.txt', 'a3.txt']) folder.put(name);
		};
		const { result } = await listWith(folder.answer, { returnAll: true, options: { pageSize: 3 } });
		expect(result.error).toBeUndefined();
		const paths = result.items.map((item) => String(item.json.path));
		expect(new Set(paths).size).toBe(paths.length);
		expect(paths).toEqual(expect.arrayContaining(names));
	});
});

/**
 * What a listing names is acted on (Folder → Delete deletes it), so an entry outside the folder
 * asked for (a service that ignores or normalises the prefix, a sub-folder entry that is the
 * folder itself) fails the walk instead of reaching a file outside the Folder.
 */
describe('a listing that names entries outside the folder asked for', () => {
	const entry = (path: string, type: 'file' | 'folder' = 'file') => ({
		name: path.split('/').filter(Boolean).pop() ?? '',
		type,
		path,
		size: type === 'file' ? 5 : null,
		content_type: 'text/plain',
		last_modified: type === 'file' ? '2026-01-01T00:00:00Z' : null,
		visibility: 'private',
	});
	const onePage =
		(...children: object[]): ListAnswer =>
		() => ({
			children,
			pagination: { current_page: 1, total_pages: 1, total_items: children.length, items_per_page: 1000 },
		});
	const unexpected = (named: string) =>
		new RegExp(
			`^Unexpected answer from the service to List Contents of 'reports/' in 'b' \\(page 1\\): the listing of 'reports/' names ${named}, which is not under 'reports/'`,
		);

	it.each([
		['the root, whatever the prefix', onePage(entry('keep/', 'folder'), entry('top-secret.pdf')), "'keep/'"],
		['the folder itself as a sub-folder', onePage(entry('reports/a.txt'), entry('reports/', 'folder')), "'reports/'"],
	])(
		'Folder → Delete (Dry Run) of reports/ names no key outside it: a listing of %s fails as an unexpected answer',
		async (_case, answer, named) => {
			const server = await startListServer(answer);
			try {
				const result = await deleteFolderAt(server, 'reports/', { includeSubfolders: true, dryRun: true });
				expect(result.error?.message).toMatch(unexpected(named));
				expect(result.items.map((item) => String(item.json.key)).filter((key) => !key.startsWith('reports/'))).toEqual(
					[],
				);
			} finally {
				await server.stop();
			}
		},
	);

	it('List Contents of reports/ fails naming the first entry outside it, instead of listing it', async () => {
		const { result } = await listWith(onePage(entry('reports/a.txt'), entry('top-secret.pdf')), {
			returnAll: true,
			folder: 'reports/',
		});
		expect(result.error?.message).toMatch(unexpected("'top-secret.pdf'"));
		expect(result.items).toEqual([]);
	});
});

describe('Folder → Delete with Include Subfolders off, against the emulator', () => {
	it('a listing that names a file deeper than the folder: nothing below a sub-folder is deleted', async () => {
		await storeText('shallow/top.txt', 'top');
		await storeText('shallow/sub/deep.txt', 'keep me');
		// A service answering the one-level listing of 'shallow/' with a file of its sub-folder.
		emulator().setFaults([
			{
				operation: 'list',
				rewrite: {
					contents: {
						name: 'shallow',
						type: 'folder',
						path: 'shallow/',
						children: [
							{ name: 'top.txt', type: 'file', path: 'shallow/top.txt', size: 3, last_modified: null },
							{ name: 'deep.txt', type: 'file', path: 'shallow/sub/deep.txt', size: 7, last_modified: null },
						],
					},
				},
				nth: [1],
			},
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: 'shallow/' },
			includeSubfolders: false,
		});
		expect(await read('shallow/sub/deep.txt')).toBe('keep me');
		expect(result.items.map((item) => item.json.key)).not.toContain('shallow/sub/deep.txt');
	});
});

describe('Folder → Delete and a listing whose pages shift during the walk', () => {
	it('a folder is emptied even when a file removed during the walk pulled another onto a page already read', async () => {
		for (const name of ['a', 'c', 'd']) await storeText(`shift/${name}.txt`, name);
		const entry = (name: string) => ({
			name: `${name}.txt`,
			type: 'file',
			path: `shift/${name}.txt`,
			size: 1,
			last_modified: null,
		});
		const page = (current: number, children: unknown[], total: number) => ({
			contents: { name: 'shift', type: 'folder', path: 'shift/', children },
			pagination: { current_page: current, total_pages: 2, total_items: total, items_per_page: 2 },
		});
		// Pages of two, as offsets: 'b' was removed by someone else, so after 'a' went, 'c' and 'd'
		// moved up; the second read of page 1 is answered late, without 'c' (a listing that lags).
		emulator().setFaults([
			{ operation: 'list', rewrite: page(1, [entry('a'), entry('b')], 4), nth: [1] },
			// (A rule sees only the requests the rules before it let through: this is the second list request.)
			{ operation: 'list', rewrite: page(1, [entry('d')], 3), nth: [1] },
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: 'shift/' },
		});
		expect(result.error).toBeUndefined();
		expect(await read('shift/c.txt')).toBeUndefined();
		expect(result.items.map((item) => item.json.key)).toContain('shift/c.txt');
	});
});
