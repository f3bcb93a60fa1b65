/**
 * Folder → Delete and its Dry Run against a listing that names one file twice on a page (a service or a
 * gateway that repeats a row). docs/operations.md: "One output item per file"; a delete's count says how
 * many files were deleted. A repeated row is one file: one item, counted once, in a run and in a Dry Run.
 */
import { deleteFolderAt, ScriptedFolder, startListServer, type ListAnswer, type ListServer } from './listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** The folder's answer with its first entry named twice. */
function repeatingFirst(folder: ScriptedFolder): ListAnswer {
	return (request) => {
		const answer = folder.answer(request);
		const children = answer.children.length > 0 ? [answer.children[0], ...answer.children] : [];
		return { ...answer, children };
	};
}

async function deleteFolder(folder: ScriptedFolder, dryRun: boolean) {
	server = await startListServer(repeatingFirst(folder), undefined, folder.exists, folder.deleteKey);
	return await deleteFolderAt(server, folder.prefix, { dryRun });
}

describe('a listing that names one file twice on a page', () => {
	it.each([
		['a run', false],
		['a Dry Run', true],
	])('%s gives one item per file', async (_, dryRun) => {
		const folder = new ScriptedFolder('old/', ['a.txt', 'b.txt', 'c.txt']);
		const result = await deleteFolder(folder, dryRun);
		expect(result.error).toBeUndefined();
		const keys = result.items.map((item) => String(item.json.key));
		expect(keys.sort()).toEqual(['old/a.txt', 'old/b.txt', 'old/c.txt']);
	});
});
