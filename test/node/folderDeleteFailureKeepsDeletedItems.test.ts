/**
 * Folder → Delete with Continue On Fail, when one delete fails while others succeed. The workflow goes on
 * (that is what Continue On Fail asks), so its output must say which files are gone: the files already
 * deleted are items (`deleted: true`), as with leftovers ("each is an item … after the deleted ones",
 * docs/operations.md) and as Folder → Copy and Move do ("a failed file is its own item, the others finish").
 * An output of one error item hides from the workflow that files were deleted, with no way back.
 */
import { startProxy, type TestProxy } from './proxy';
import { credentialsFor, runFileStorage, useEmulator } from './support';
import { apiFor, put } from '../trigger/support';

const emulator = useEmulator();
let proxy: TestProxy | undefined;
afterEach(async () => await proxy?.stop());

describe('Folder → Delete with Continue On Fail and one delete refused', () => {
	it('the files it deleted before stopping are items of the output, each with deleted: true', async () => {
		const keys = ['cof/a.txt', 'cof/b.txt', 'cof/c.txt', 'cof/d.txt', 'cof/e.txt'];
		for (const key of keys) await put(apiFor(emulator()), key);
		proxy = await startProxy(emulator().url);
		// The first delete is refused (a permission the key lacks for that file); the ones beside it go through.
		proxy.setRules({ answerInstead: { delete: [{ status: 403 }] } });
		const result = await runFileStorage(
			emulator(),
			{ resource: 'folder', operation: 'delete', folder: { __rl: true, mode: 'path', value: 'cof' } } as never,
			{ continueOnFail: true, credentials: credentialsFor(emulator(), { baseUrl: proxy.url }) },
		);
		expect(result.error).toBeUndefined();
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			folder: { __rl: true, mode: 'path', value: 'cof' },
			returnAll: true,
		} as never);
		const left = new Set(listed.items.map((item) => String(item.json.path)));
		const gone = keys.filter((key) => !left.has(key));
		expect(gone.length).toBeGreaterThan(0);
		const reported = result.items.filter((item) => item.json.deleted === true).map((item) => String(item.json.key));
		expect(reported.sort()).toEqual(gone);
	});
});
