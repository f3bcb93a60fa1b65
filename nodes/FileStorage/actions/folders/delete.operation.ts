import type { IDataObject, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';

import { folderPrefix } from '../../files/keys';
import { existenceOf } from '../../files/proof';
import { checkUnder, MAX_PAGE_SIZE, walkEntries, type FolderListing } from '../../listing/listing';
import { listingEnds, looksLast, readBound } from '../../listing/pageEnd';
import { stillStored } from '../../listing/stillStored';
import { TOP_OF_BUCKET_NAME } from '../../methods/listSearch';
import type { Item } from '../../item';
import { deleteFile, listContents, listingWhat, type BucketRef, type ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { optionsCollection } from '../common';
import { failureItem } from '../parallelItems';
import { folderFields, folderOf } from '../folder';
import { failedAnswer } from '../../transport/apiAnswer';

const show = { resource: ['folder'], operation: ['delete'] };

/** Deletes at once: few enough to be gentle on the service, enough to hide its latency. */
const PARALLEL_DELETES = 4;

export const description: INodeProperties[] = [
	...folderFields(show, 'Folder whose files are deleted, e.g. reports/2025/', {
		placeholder: TOP_OF_BUCKET_NAME,
		hint: 'Empty: the whole bucket, only with the option Allow Whole Bucket',
	}),
	{
		displayName: 'Include Subfolders',
		name: 'includeSubfolders',
		type: 'boolean',
		default: true,
		description: 'Whether the files of every sub-folder are deleted too. Off: only the files directly in the folder.',
		displayOptions: { show },
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description: 'Whether to only list the files that would be deleted, and delete nothing',
		displayOptions: { show },
	},
	// What a run will do, said before it runs: off by default, Dry Run is not a safety net.
	...deletionNotices(),
	optionsCollection(show, [
		{
			displayName: 'Allow Whole Bucket',
			name: 'allowWholeBucket',
			type: 'boolean',
			default: false,
			description:
				'Whether an empty Folder may delete every file of the bucket. Off: an empty Folder fails and nothing is deleted.',
		},
	]),
];

/** The notice under Dry Run: what a run of the node as set will delete, or that it deletes nothing. */
function deletionNotices(): INodeProperties[] {
	const notice = (displayName: string, when: Record<string, boolean[]>): INodeProperties => ({
		displayName,
		name: 'deletionNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, ...when } },
	});
	const tail = 'with no way back. Turn on Dry Run to list them first.';
	return [
		notice(`A run deletes every file under Folder, in all its sub-folders too, ${tail}`, {
			dryRun: [false],
			includeSubfolders: [true],
		}),
		notice(`A run deletes every file directly in Folder (not its sub-folders), ${tail}`, {
			dryRun: [false],
			includeSubfolders: [false],
		}),
		notice('Dry Run: a run lists the files a delete would remove, and deletes nothing.', { dryRun: [true] }),
	];
}

/** Passes over the folder while one may have missed files (its pages moved under it). */
const MAX_ROUNDS = 3;
/** Files still there after the last pass that the error names (the others are counted). */
const NAMED_LEFTOVERS = 10;

/** One Delete Folder: the item, its client, and the folder it empties. */
interface Deletion {
	item: Item;
	client: FileStorageClient;
	where: BucketRef;
	prefix: string;
	recursive: boolean;
	/** Files deleted (or found gone), over every pass. */
	deleted: number;
	/** One output item per file deleted, in the order of the deletes. */
	results: INodeExecutionData[];
}

/** Files of a listed page this delete may delete. */
function deletable({ prefix, recursive }: Deletion, children: ListEntry[]): ListEntry[] {
	// Without sub-folders only the folder's own files go: a service that lists deeper files
	// (a flat listing, or one not matching the spec's one level) must not widen the delete.
	// A folder's marker (its own key, e.g. 'reports/') is a file of the folder too: it goes with it.
	// A listing that names a file twice on a page gives it once: one delete, one output item.
	const named = new Set<string>();
	return children.filter((entry) => {
		if (entry.type !== 'file' || (!recursive && entry.path.slice(prefix.length).includes('/'))) return false;
		if (named.has(entry.path)) return false;
		named.add(entry.path);
		return true;
	});
}

/**
 * Every file under the prefix, for Dry Run (which deletes nothing, so its walk is not shifted by it)
 * and the check after the last round. Each page boundary is proven (listing/boundary.ts), so a file
 * that others' changes slid onto a page already read is listed too; `settled` says whether every
 * boundary was.
 */
async function filesUnder(deletion: Deletion): Promise<{ files: ListEntry[]; settled: boolean }> {
	const { client, where, prefix, recursive } = deletion;
	const files: ListEntry[] = [];
	let settled = true;
	const onFolder = (listing: FolderListing) => (settled &&= listing.settled);
	const walk = { where, prefix, pageSize: MAX_PAGE_SIZE, recursive, onFolder, proveBoundaries: true };
	// A file the walk names twice (twice on a page, or again on a later one) is listed once.
	const named = new Set<string>();
	for await (const entry of walkEntries(client, walk)) {
		for (const file of deletable(deletion, [entry]))
			if (!named.has(file.path) && named.add(file.path)) files.push(file);
	}
	return { files, settled };
}

function filesCount(count: number): string {
	return `${count} ${count === 1 ? 'file' : 'files'}`;
}

/** A file's output item. */
function fileItem(deletion: Deletion, entry: ListEntry, json: IDataObject): INodeExecutionData {
	const { where, item } = deletion;
	return {
		json: { key: entry.path, size: entry.size ?? null, bucket: where.bucket, region: where.region, ...json },
		pairedItem: { item: item.index },
	};
}

/**
 * Files just deleted that the next read names again: a listing that lags (gone: skipped) or another
 * writer that stored them again (there: deleted again). Only the service's answer for each tells.
 */
async function storedAgain({ client, where }: Deletion, named: ListEntry[]): Promise<Set<string>> {
	const again = new Set<string>();
	for (const entry of named) if (await stillStored(client, where, entry.path)) again.add(entry.path);
	return again;
}

/** Deletes `files`, four at a time; the first failure stops it and is thrown with the tally. */
async function deleteFiles(deletion: Deletion, files: ListEntry[]): Promise<void> {
	const { client, where } = deletion;
	const results: INodeExecutionData[] = new Array(files.length);
	let next = 0;
	let failure: { key: string; error: Error } | undefined;
	const worker = async () => {
		while (!failure && next < files.length) {
			const index = next++;
			const entry = files[index];
			try {
				const removal = await deleteFile(client, where, entry.path);
				results[index] = fileItem(deletion, entry, { deleted: true, doneByEarlierAttempt: removal.earlierAttempt });
				deletion.deleted += 1;
			} catch (error) {
				// Gone between the listing and the delete (another run, a person): the goal is reached. Only
				// the API's own 404 says so; a proxy's or gateway's 404 is a delete that did not happen.
				if (existenceOf(failedAnswer(error)) === 'absent') {
					results[index] = fileItem(deletion, entry, { deleted: true, alreadyGone: true });
					deletion.deleted += 1;
				} else failure ??= { key: entry.path, error: error as Error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, files.length) }, worker));
	for (const result of results) if (result) deletion.results.push(result);
	if (!failure) return;
	throw deletion.item.fail(
		`Deleted ${filesCount(deletion.deleted)} under '${deletion.prefix || '(whole bucket)'}'; deleting '${failure.key}' failed: ${failure.error.message}`,
		'The files already deleted are gone; the others are still there. Run the node again to delete the rest.',
	);
}

/**
 * Empties one folder a page at a time, so that memory holds one page whatever the folder's size:
 * a page is read, its files deleted, and the same page read again (the files after them have
 * moved up onto it) until it holds none of its own; then the next page (folders sort first, so
 * earlier pages hold only sub-folders, which `found` is told of). Answers how many files it
 * deleted and whether it stayed on page 1, where no file can have slid onto a page already read.
 */
async function emptyFolder(deletion: Deletion, folder: string, found: (folder: string) => void) {
	const { client, where } = deletion;
	let page = 1;
	let deleted = 0;
	// The files just deleted: one the next read names again is deleted again only if it is stored (see storedAgain).
	let lastBatch = new Set<string>();
	// Reads of one folder: enough to empty it as page 1 first said, with room for files arriving.
	let reads = 0;
	let most = Number.POSITIVE_INFINITY;
	// The most entries a page before this one held (a service may cap its pages below the limit), and
	// the entries the pages before this one held (where this page starts).
	let largest = 0;
	let before = 0;
	// Whether the page read last looked last (pageEnd.ts): an empty page after it only checks that end.
	let lookedLast = false;
	for (;;) {
		const answer = await listContents(client, where, folder, page, MAX_PAGE_SIZE);
		const children = answer.contents.children ?? [];
		for (const entry of children) checkUnder(client, listingWhat(where, folder, `page ${page}`), folder, entry);
		if (reads++ === 0) most = readBound(answer.pagination, MAX_PAGE_SIZE);
		for (const entry of children) if (entry.type === 'folder') found(entry.path);
		const listed = deletable(deletion, children);
		const again = await storedAgain(deletion, reads <= most ? listed.filter((entry) => lastBatch.has(entry.path)) : []);
		const files = listed.filter((entry) => !lastBatch.has(entry.path) || again.has(entry.path));
		if (files.length > 0 && reads <= most) {
			await deleteFiles(deletion, files);
			deleted += files.length;
			lastBatch = new Set(files.map((entry) => entry.path));
			lookedLast = false;
			continue;
		}
		// The one end rule of every walk (pageEnd.ts): only an empty page ends it (a short page may be a silent cap).
		// Page 2 read only to check the end page 1 showed keeps the pass on page 1: nothing slid past it.
		if (listingEnds(children.length) || reads > most) {
			return { deleted, onFirstPage: (page === 1 || (page === 2 && lookedLast)) && reads <= most };
		}
		const read = { page, entries: children.length, asked: MAX_PAGE_SIZE, pagination: answer.pagination };
		lookedLast = looksLast({ ...read, receivedBefore: before, largestEarlier: largest });
		page += 1;
		before += children.length;
		largest = Math.max(largest, children.length);
		lastBatch = new Set();
	}
}

/**
 * One pass over the folder and (with Include Subfolders) its sub-folders. `complete`: every folder
 * was emptied without leaving page 1, so nothing can have been missed by pages moving.
 */
async function deletePass(deletion: Deletion): Promise<{ deleted: number; complete: boolean }> {
	const folders = [deletion.prefix];
	// A folder listed twice (or inside itself) would be emptied again and again.
	const seen = new Set(folders);
	const found = (folder: string) => {
		if (!deletion.recursive || seen.has(folder)) return;
		seen.add(folder);
		folders.push(folder);
	};
	let deleted = 0;
	let complete = true;
	for (let next = 0; next < folders.length; next++) {
		const folder = await emptyFolder(deletion, folders[next], found);
		deleted += folder.deleted;
		complete &&= folder.onFirstPage;
	}
	return { deleted, complete };
}

/**
 * After the last pass, what is still there: never a plain success. The error names the first
 * files and counts the rest; with Continue On Fail each one is an item with its error instead.
 */
async function leftovers(deletion: Deletion): Promise<INodeExecutionData[]> {
	const { files: still, settled } = await filesUnder(deletion);
	if (still.length === 0 && settled) return deletion.results;
	if (still.length === 0) {
		throw deletion.item.fail(
			`Deleted ${filesCount(deletion.deleted)}, but whether files are still under '${deletion.prefix || '(whole bucket)'}' could not be told: its listing moved under each of ${MAX_ROUNDS} rounds and the check after them`,
			'Something keeps changing the folder. Stop what writes there and run the node again; Dry Run shows what is left.',
		);
	}
	const message = `${still.length} ${still.length === 1 ? 'file is' : 'files are'} still under '${deletion.prefix || '(whole bucket)'}' after ${MAX_ROUNDS} rounds of listing and deleting`;
	if (deletion.item.ctx.continueOnFail()) {
		return [
			...deletion.results,
			...still.map((entry) => fileItem(deletion, entry, { deleted: false, error: message })),
		];
	}
	const named = still.slice(0, NAMED_LEFTOVERS).map((entry) => `'${entry.path}'`);
	const more = still.length > NAMED_LEFTOVERS ? ` and ${still.length - NAMED_LEFTOVERS} more` : '';
	throw deletion.item.fail(
		`Deleted ${filesCount(deletion.deleted)}, but ${message}: ${named.join(', ')}${more}`,
		'Something keeps writing into the folder (or its listing keeps naming deleted files). Stop what writes there and run the node again; Dry Run shows what is left.',
	);
}

/**
 * Dry Run's list: a walk whose pages moved under it (another writer removed or added files) may have
 * left out files a run deletes, so it is walked again, up to MAX_ROUNDS times, and an unsettled list is
 * never given as what would go: the run says it could not list the folder whole.
 */
async function dryRunList(deletion: Deletion): Promise<INodeExecutionData[]> {
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		const { files, settled } = await filesUnder(deletion);
		if (settled) return files.map((entry) => fileItem(deletion, entry, { deleted: false, dryRun: true }));
	}
	throw deletion.item.fail(
		`Dry Run could not list '${deletion.prefix || '(whole bucket)'}' whole: its listing moved under each of ${MAX_ROUNDS} walks, so files a run would delete may be missing from the list`,
		'Something keeps changing the folder. Stop what writes there and run the Dry Run again.',
	);
}

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const prefix = folderPrefix(folderOf(item));
	const recursive = item.param('includeSubfolders', true) as boolean;
	const dryRun = item.param('dryRun', false) as boolean;
	if (!prefix && item.options().allowWholeBucket !== true) {
		throw item.fail(
			"The parameter 'Folder' is empty: that would delete the whole bucket",
			'Pick the folder to delete. To empty the whole bucket on purpose, turn on the Allow Whole Bucket option (try Dry Run first).',
		);
	}
	// A file an earlier item's write may still put there (its outcome unknown): the folder would not stay empty.
	if (!dryRun) item.refuseUnsettledUnder({ ...where, key: prefix }, recursive);
	const client = await item.client();
	const deletion: Deletion = { item, client, where, prefix, recursive, deleted: 0, results: [] };
	if (dryRun) return await dryRunList(deletion);
	return await deleteInRounds(deletion).catch((error: unknown) => withDeletedFiles(deletion, error));
}

/** With Continue On Fail the files already deleted stay items of the output, the failure after them. */
function withDeletedFiles({ item, results }: Deletion, error: unknown): INodeExecutionData[] {
	if (!item.ctx.continueOnFail() || results.length === 0) throw error as NodeOperationError;
	return [...results, failureItem(item.ctx, error, item.index)];
}

async function deleteInRounds(deletion: Deletion): Promise<INodeExecutionData[]> {
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		// A pass that stayed on page 1 everywhere missed nothing. One that left page 1 may have missed
		// files that slid onto a page it had read (others removed entries before them), whether or not
		// it deleted anything: the folder is walked again, then checked.
		const pass = await deletePass(deletion);
		if (pass.complete) return deletion.results;
	}
	return await leftovers(deletion);
}
