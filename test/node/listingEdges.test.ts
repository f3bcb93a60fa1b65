import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { pagesOf, ScriptedFolder, startListServer, type ListAnswer, type ListServer } from './listServer';

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
		expect(requests).toHaveLength(150);
		expect(result.items).toHaveLength(150_000);
		expect(result.items[0].json.path).toBe('many/f0.txt');
		expect(result.items[149_999].json.path).toBe('many/f149999.txt');
		expect(result.items[149_999].pairedItem).toEqual({ item: 0 });
	});

	it('a recursive walk lists each folder once, even when a folder shows up inside itself', async () => {
		const loop: ListAnswer = ({ prefix, page, limit }) => ({
			children: [
				{ name: 'loop', type: 'folder', path: 'loop/', size: null, last_modified: null },
				{ name: 'again', type: 'folder', path: 'loop/', size: null, last_modified: null },
				file(prefix.length),
			],
			pagination: { current_page: page, total_pages: 1, total_items: 3, items_per_page: limit },
		});
		const { result, requests } = await listWith(loop, { returnAll: true, options: { recursive: true } });
		expect(result.error).toBeUndefined();
		expect(requests.map((request) => request.prefix)).toEqual(['', 'loop/']);
		expect(result.items).toHaveLength(6);
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
