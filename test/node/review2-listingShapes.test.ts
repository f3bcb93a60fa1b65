/**
 * Review: listing answers of the wrong shape (an entry that is not an object, or has no path).
 * README: "the service answers a call without what the node needs → 'Unexpected answer from the
 * service to …' naming the call and the field".
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
	it.each<[string, unknown]>([
		['null', null],
		['a string', 'shape/a.txt'],
		['an entry without a path', { name: 'b.txt', type: 'file', size: 1 }],
	])('List Contents: a listing entry that is %s is an unexpected answer, not a TypeError', async (_kind, entry) => {
		const result = await listWith(pageOf([good, entry]), { folder: 'shape' });
		expect(result.error?.message).toMatch(/^Unexpected answer from the service to List Contents/);
	});

	it.each<[string, unknown]>([
		['null', null],
		['an entry without a path', { name: 'b.txt', type: 'file', size: 1 }],
		['a file whose path is a number', { name: 'c.txt', type: 'file', path: 42, size: 1 }],
	])('the trigger: a listing entry that is %s fails the poll as an unexpected answer', async (_kind, entry) => {
		const server = await startListServer(pageOf([good, entry]));
		try {
			const trigger = new Poller(server, { folder: 'shape', options: { emitExistingFiles: true } } as never);
			const result = await trigger.poll();
			expect(result.error?.message).toMatch(/^Unexpected answer from the service to List Contents/);
		} finally {
			await server.stop();
		}
	});
});
