/**
 * Listing answers of the wrong shape (an entry that is not an object, or has no path or type):
 * "Unexpected answer from the service to List Contents …" naming the entry and the field, in the
 * node and in the trigger, never a TypeError or an item made of a string's letters.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { startListServer, type ListAnswer } from './listServer';
import { Poller } from '../trigger/support';

const pageOf =
	(children: unknown[]): ListAnswer =>
	({ page, limit }) => ({
		children: children as object[],
		pagination: { current_page: page, total_pages: 1, total_items: children.length, items_per_page: limit },
	});

const good = {
	name: 'a.txt',
	type: 'file',
	path: 'shape/a.txt',
	size: 1,
	content_type: 'text/plain',
	last_modified: '2026-01-01T00:00:00Z',
	visibility: 'private',
};

async function listWith(answer: ListAnswer, parameters: INodeParameters = {}) {
	const server = await startListServer(answer);
	try {
		return await runNode({
			credentials: { fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url } },
			parameters: {
				bucketName: 'b',
				region: 'r',
				resource: 'bucket',
				operation: 'listContents',
				returnAll: true,
				...parameters,
			},
		});
	} finally {
		await server.stop();
	}
}

describe('listing entries of the wrong shape', () => {
	it.each<[string, unknown, string]>([
		['null', null, '"contents.children[1]" is null, not an entry object'],
		['a string', 'shape/a.txt', '"contents.children[1]" is "shape/a.txt", not an entry object'],
		['an entry without a path', { name: 'b.txt', type: 'file', size: 1 }, '"contents.children[1]".path is nothing'],
		['an entry without a type', { name: 'b.txt', path: 'shape/b.txt' }, '"contents.children[1]".type is nothing'],
	])(
		'List Contents: a listing entry that is %s is an unexpected answer naming the entry, not a TypeError',
		async (_kind, entry, problem) => {
			const result = await listWith(pageOf([good, entry]), { folder: 'shape' });
			expect(result.error?.message).toMatch(
				/^Unexpected answer from the service to List Contents of 'shape\/' in 'b' \(page 1\): /,
			);
			expect(result.error?.message).toContain(problem);
			expect(result.items).toEqual([]);
		},
	);

	it.each<[string, unknown, string]>([
		['null', null, '"contents.children[1]" is null'],
		['an entry without a path', { name: 'b.txt', type: 'file', size: 1 }, '"contents.children[1]".path is nothing'],
		['a file whose path is a number', { name: 'c.txt', type: 'file', path: 42, size: 1 }, '.path is 42'],
	])(
		'the trigger: a listing entry that is %s fails the poll as an unexpected answer',
		async (_kind, entry, problem) => {
			const server = await startListServer(pageOf([good, entry]));
			try {
				const trigger = new Poller(server, { folder: 'shape', options: { emitExistingFiles: true } } as never);
				const result = await trigger.poll();
				expect(result.error?.message).toMatch(/^Unexpected answer from the service to List Contents/);
				expect(result.error?.message).toContain(problem);
			} finally {
				await server.stop();
			}
		},
	);
});
