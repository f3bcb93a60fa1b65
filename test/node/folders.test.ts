import { runListSearch } from '../harness';
import { BUCKET, credentialsFor, fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const search = async (filter?: string) =>
	await runListSearch({
		method: 'searchFolders',
		parameters: { ...BUCKET, resource: 'bucket', operation: 'listContents' },
		credentials: credentialsFor(emulator()),
		filter,
	});

beforeAll(async () => {
	for (const key of ['reports/2025/a.pdf', 'reports/2026/q1/b.pdf', 'reports/2026/c.pdf', 'photos/d.jpg', 'top.txt']) {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key },
			{ items: [fileItem(Buffer.from(key))] },
		);
		expect(stored.error).toBeUndefined();
	}
});

describe('the Folder picker (version 2)', () => {
	it('lists the folders at the top, and navigates into the folder typed so far', async () => {
		expect((await search()).results.map((r) => r.value)).toEqual(['/', 'photos/', 'reports/']);
		expect((await search('reports/')).results.map((r) => r.value)).toEqual([
			'reports/',
			'reports/2025/',
			'reports/2026/',
		]);
		expect((await search('reports/2026/')).results.map((r) => r.value)).toEqual(['reports/2026/', 'reports/2026/q1/']);
		expect((await search('reports/2026')).results).toEqual([{ name: 'reports/2026/', value: 'reports/2026/' }]);
	});

	it('a picked folder lists its contents and receives uploads', async () => {
		const folder = { __rl: true, mode: 'list', value: 'reports/2026/' };
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder,
			returnAll: true,
		});
		expect(listed.items.map((item) => item.json.path)).toEqual(['reports/2026/q1/', 'reports/2026/c.pdf']);
		const uploaded = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'new.pdf', folder: { ...folder, mode: 'path' } },
			{ items: [fileItem(Buffer.from('new'))] },
		);
		expect(uploaded.items[0].json.key).toBe('reports/2026/new.pdf');
	});

	it('version 1 keeps its typed Folder text', async () => {
		const listed = await runFileStorage(
			emulator(),
			{ resource: 'bucket', operation: 'listContents', folder: 'photos', returnAll: true },
			{ typeVersion: 1 },
		);
		expect(listed.error).toBeUndefined();
		expect(listed.items.map((item) => item.json.path)).toEqual(['photos/d.jpg']);
	});
});
