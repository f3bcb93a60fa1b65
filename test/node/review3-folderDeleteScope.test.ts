/**
 * Review 3: Folder → Delete deletes what the listing of the folder names, without checking that
 * it lies in the folder. A listing that strays (a service that ignores or normalises the prefix,
 * a sub-folder entry whose path is the root) then deletes files outside it, up to the whole
 * bucket, which the node promises to refuse without Allow Whole Bucket.
 */
import { runNode } from '../harness';
import { startListServer, type ListAnswer } from './listServer';

const entry = (path: string, type: 'file' | 'folder' = 'file') => ({
	name: path.split('/').filter(Boolean).pop(),
	type,
	path,
	size: type === 'file' ? 5 : null,
	content_type: 'text/plain',
	last_modified: type === 'file' ? '2026-01-01T00:00:00Z' : null,
	visibility: 'private',
});

/** A service that lists the root, whatever prefix it is asked for. */
const ignoresPrefix: ListAnswer = () => ({
	children: [entry('reports/', 'folder'), entry('keep/', 'folder'), entry('top-secret.pdf')],
	pagination: { current_page: 1, total_pages: 1, total_items: 3, items_per_page: 1000 },
});

describe('Folder → Delete stays in its folder', () => {
	it('deletes (or lists in Dry Run) only keys under the Folder, whatever the listing names', async () => {
		const server = await startListServer(ignoresPrefix);
		try {
			const result = await runNode({
				credentials: { fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url } },
				typeVersion: 3,
				parameters: {
					bucketName: 'b',
					region: 'r',
					resource: 'folder',
					operation: 'delete',
					folder: { __rl: true, mode: 'path', value: 'reports/' },
					includeSubfolders: false,
					dryRun: true,
				},
			});
			const named = result.items.map((item) => String(item.json.key));
			// Either refused as an unexpected answer, or only keys under reports/.
			expect(named.filter((key) => !key.startsWith('reports/'))).toEqual([]);
		} finally {
			await server.stop();
		}
	});
});
