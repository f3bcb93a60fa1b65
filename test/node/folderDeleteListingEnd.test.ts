/**
 * Folder → Delete against a listing whose page count lags behind its rows (a cached count: five
 * files were uploaded just before, the count still says 1000). The folder holds 1000 sub-folders
 * (which sort first, so page 1 is all folders) and five files of its own. Include Subfolders is off:
 * only the folder's own five files are to go. A full page that the count calls the last one is no
 * proof that the listing ends there: the next page is read, and the five files go. Never a plain
 * success while files of the folder are still there. The same on a service that caps its pages at
 * 500 (saying so in `items_per_page`) while its count says one page: page 1, all folders, is as full
 * as its pages go, so it is no end either.
 */
import { deleteFolderAt, pagesOf, startListServer, type ListServer, type ListRequest } from './listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** A bucket listed one level deep as the spec lists it: folders first, then files, each by name. */
class Tree {
	readonly keys = new Set<string>();
	/** The count the service answers with; undefined: the true count. */
	counted?: number;
	/** The most entries the service puts on a page, whatever the limit asked for (its `items_per_page`). */
	cap = Number.POSITIVE_INFINITY;

	entries(prefix: string): object[] {
		const folders = new Set<string>();
		const files: string[] = [];
		for (const key of this.keys) {
			if (!key.startsWith(prefix)) continue;
			const slash = key.indexOf('/', prefix.length);
			if (slash >= 0) folders.add(key.slice(0, slash + 1));
			else files.push(key);
		}
		return [
			...[...folders].sort().map((path) => ({
				name: path.slice(prefix.length, -1),
				type: 'folder',
				path,
				size: null,
				last_modified: null,
			})),
			...files.sort().map((path) => ({
				name: path.slice(prefix.length),
				type: 'file',
				path,
				size: 5,
				content_type: 'text/plain',
				last_modified: '2026-01-01T00:00:00Z',
				visibility: 'private',
			})),
		];
	}

	readonly answer = (request: ListRequest) => {
		const entries = this.entries(request.prefix);
		const page = pagesOf(
			entries.length,
			(index) => entries[index],
		)({ ...request, limit: Math.min(request.limit, this.cap) });
		if (this.counted === undefined) return page;
		const total_pages = Math.max(1, Math.ceil(this.counted / request.limit));
		return { ...page, pagination: { ...page.pagination, total_items: this.counted, total_pages } };
	};
}

describe('Folder → Delete and a listing whose count lags behind its rows', () => {
	it.each([
		['with a true count', undefined],
		['with a count that lags by the five files', 1000],
	])("%s: deletes the folder's own files that follow a full last page, and says so", async (_, counted) => {
		await deletesOwnFiles(counted);
	});

	it("on a service that caps its pages at 500 (items_per_page), a count of one page: the folder's own files past page 1 go", async () => {
		await deletesOwnFiles(500, 500);
	});
});

/** Folder → Delete of 'wide/' (Include Subfolders off) over 1000 sub-folders and five files of its own. */
async function deletesOwnFiles(counted: number | undefined, cap?: number): Promise<void> {
	const tree = new Tree();
	if (cap) tree.cap = cap;
	for (let i = 0; i < 1000; i++) tree.keys.add(`wide/s${String(i).padStart(4, '0')}/kept.txt`);
	const own = ['wide/f0.txt', 'wide/f1.txt', 'wide/f2.txt', 'wide/f3.txt', 'wide/f4.txt'];
	for (const key of own) tree.keys.add(key);
	tree.counted = counted;
	server = await startListServer(
		tree.answer,
		undefined,
		(key) => tree.keys.has(key),
		(key) => tree.keys.delete(key),
	);
	const result = await deleteFolderAt(server, 'wide/', { includeSubfolders: false });
	// The folder's own files are gone and the run says so; the sub-folders' files stay (Include
	// Subfolders is off).
	expect({ left: own.filter((key) => tree.keys.has(key)), error: result.error?.message }).toEqual({
		left: [],
		error: undefined,
	});
	expect(result.items.map((item) => item.json.key)).toEqual(own);
	expect(tree.keys.size).toBe(1000);
}
