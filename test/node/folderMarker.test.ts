/**
 * A folder marker: an object whose key ends in '/' (e.g. 'marker/'), as S3 consoles create for an
 * empty folder. The API stores it like any key, and the one-level listing of its folder names it
 * as a file whose path is the folder itself. Every walk of that folder must pass it.
 */
import { runListSearch } from '../harness';
import { apiFor, put, Poller } from '../trigger/support';
import { BUCKET, credentialsFor, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

const KEYS = ['marker/', 'marker/a.txt', 'marker/sub/', 'marker/sub/b.txt'];

async function store(prefix: string) {
	for (const key of KEYS) await put(api(), key.replace(/^marker\//, prefix), key.endsWith('/') ? '' : key);
}

const list = async (folder: string, recursive = false) =>
	await runFileStorage(emulator(), {
		resource: 'bucket',
		operation: 'listContents',
		folder,
		returnAll: true,
		options: { recursive },
	});

describe('a folder marker (a key ending in "/")', () => {
	it('is stored by the emulator and listed by it as a file whose path is its folder (sorted by its name)', async () => {
		await store('marker/');
		const response = await api().list({ prefix: 'marker/' });
		const children = (response.json as { data: { contents: { children: Array<{ path: string; type: string }> } } }).data
			.contents.children;
		expect(children.map((entry) => [entry.type, entry.path])).toEqual([
			['folder', 'marker/sub/'],
			['file', 'marker/a.txt'],
			['file', 'marker/'],
		]);
	});

	it('List Contents lists the folder with its marker, flagged folderMarker, also with Include Subfolders', async () => {
		await store('marker/');
		const paths = (result: Awaited<ReturnType<typeof list>>) =>
			result.items.map(
				(item) => `${item.json.type} ${item.json.path}${item.json.folderMarker === true ? ' (marker)' : ''}`,
			);
		const flat = await list('marker/');
		expect(flat.error).toBeUndefined();
		expect(paths(flat)).toEqual(['folder marker/sub/', 'file marker/a.txt', 'file marker/ (marker)']);
		const deep = await list('marker/', true);
		expect(deep.error).toBeUndefined();
		expect(paths(deep)).toEqual([
			'folder marker/sub/',
			'file marker/a.txt',
			'file marker/ (marker)',
			'file marker/sub/b.txt',
			'file marker/sub/ (marker)',
		]);
		const top = await list('', true);
		expect(top.error).toBeUndefined();
		expect(paths(top).filter((line) => line.includes(' marker/'))).toEqual([
			'folder marker/',
			'folder marker/sub/',
			'file marker/a.txt',
			'file marker/ (marker)',
			'file marker/sub/b.txt',
			'file marker/sub/ (marker)',
		]);
	});

	it('Folder → Delete (Dry Run) reports the markers, and Folder → Delete deletes them with their folder', async () => {
		await store('gone/');
		const folderDelete = async (dryRun: boolean) =>
			await runFileStorage(emulator(), { resource: 'folder', operation: 'delete', folder: 'gone/', dryRun });
		const dry = await folderDelete(true);
		expect(dry.error).toBeUndefined();
		expect(dry.items.map((item) => item.json.key).sort()).toEqual([
			'gone/',
			'gone/a.txt',
			'gone/sub/',
			'gone/sub/b.txt',
		]);
		const done = await folderDelete(false);
		expect(done.error).toBeUndefined();
		expect(done.items.map((item) => [item.json.key, item.json.deleted]).sort()).toEqual([
			['gone/', true],
			['gone/a.txt', true],
			['gone/sub/', true],
			['gone/sub/b.txt', true],
		]);
		for (const key of ['gone/', 'gone/a.txt', 'gone/sub/', 'gone/sub/b.txt']) {
			expect(await emulator().readObject(BUCKET.bucketName, BUCKET.region, key)).toBeUndefined();
		}
	});

	it('the File picker browses and searches the folder without failing, and offers no marker as a file', async () => {
		await store('pick/');
		const search = async (filter: string) =>
			await runListSearch({
				method: 'searchFiles',
				parameters: { ...BUCKET, resource: 'file', operation: 'download' },
				credentials: credentialsFor(emulator()),
				filter,
			});
		expect((await search('pick/')).results.map((r) => r.value)).toEqual(['pick/a.txt']);
		// Searching by name walks the sub-folders: the markers are no files to pick.
		expect((await search('pick/ick')).results.map((r) => r.value)).toEqual([]);
		expect((await search('pick/.txt')).results.map((r) => r.value)).toEqual(['pick/a.txt', 'pick/sub/b.txt']);
		const folders = await runListSearch({
			method: 'searchFolders',
			parameters: { ...BUCKET, resource: 'bucket', operation: 'listContents' },
			credentials: credentialsFor(emulator()),
			filter: 'pick/',
		});
		expect(folders.results.map((r) => r.value)).toEqual(['pick/', 'pick/sub/']);
	});

	it('the trigger with Include Subfolders polls past the markers and emits only files', async () => {
		await store('watched/');
		const trigger = new Poller(emulator, {
			folder: 'watched/',
			includeSubfolders: true,
			options: { emitExistingFiles: true },
		} as never);
		expect((await trigger.changes()).sort()).toEqual([
			['created', 'watched/a.txt'],
			['created', 'watched/sub/b.txt'],
		]);
	});
});
