import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isFolderMarker, MAX_PAGE_SIZE } from '../listing/listing';
import { countedEntries, entryBound, listingEnds } from '../listing/pageEnd';
import { listContents, type BucketRef } from '../transport/api';
import { FileStorageClient } from '../transport/request';

const SEARCH_PAGE_SIZE = 100;
/** One answer of a search stops at this many list requests or results; scrolling asks for more. */
const REQUESTS_PER_ANSWER = 20;
const RESULTS_PER_ANSWER = 50;
/** A search walks at most this many folders in all: the picker is not a crawler of huge buckets. */
const MAX_FOLDERS_SEARCHED = 2000;

type EntryType = 'file' | 'folder';

/**
 * The top of the bucket as a folder to pick: every folder parameter reads '/' as the top (its
 * leading slashes are dropped), and Folder → Delete still asks for Allow Whole Bucket.
 */
export const TOP_OF_BUCKET = '/';
/** Its name in the list, and what an empty folder picker shows (actions/folder.ts). */
export const TOP_OF_BUCKET_NAME = '/ (Top of the Bucket)';
const TOP: INodeListSearchItems = { name: TOP_OF_BUCKET_NAME, value: TOP_OF_BUCKET };

interface Typed {
	where: BucketRef;
	/** The folder typed so far (up to its last '/'). */
	prefix: string;
	/** The rest, lower-cased: part of a name. */
	needle: string;
}

function readTyped(ctx: ILoadOptionsFunctions, type: EntryType, filter: string | undefined): Typed {
	const bucket = String(ctx.getNodeParameter('bucketName', '') ?? '').trim();
	const region = String(ctx.getNodeParameter('region', '') ?? '').trim();
	if (!bucket || !region) {
		throw new NodeOperationError(ctx.getNode(), `Set Bucket Name and Region first to list its ${type}s`);
	}
	const text = (filter ?? '').replace(/^\/+/, '');
	const cut = text.lastIndexOf('/') + 1;
	return { where: { bucket, region }, prefix: text.slice(0, cut), needle: text.slice(cut).toLowerCase() };
}

/**
 * One folder's page, filtered by name. Entries of one type for a "From List" mode, narrowed by
 * folder (everything up to its last '/') and then by name, so typing "reports/2026/q" lists
 * reports/2026/ and keeps the names containing "q".
 */
async function browse(
	ctx: ILoadOptionsFunctions,
	type: EntryType,
	typed: Typed,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const { where, prefix, needle } = typed;
	const page = Number(paginationToken ?? 1) || 1;
	const client = await FileStorageClient.create(ctx, 0);
	const { contents, pagination } = await listContents(client, where, prefix, page, SEARCH_PAGE_SIZE);
	// A folder's marker (its own key, e.g. 'reports/') is the folder, offered as one, never as a file.
	const children = (contents?.children ?? []).filter(
		(entry) => !isFolderMarker(entry) && entry.name.toLowerCase().includes(needle),
	);
	const results: INodeListSearchItems[] = children
		.filter((entry) => entry.type === type)
		.map((entry) => ({ name: entry.path, value: entry.path }));
	// The file picker lists files only: a folder picked as the file would fail the run. Typing a
	// folder's path (reports/) steps into it; the list mode's hint says so.
	// The folder typed so far can be picked itself; with nothing typed, that is the top of the bucket.
	if (type === 'folder' && page === 1 && !needle) results.unshift(prefix ? { name: prefix, value: prefix } : TOP);
	const more = page < (pagination?.total_pages ?? page);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}

/** Where a search through the sub-folders stands: the folders still to list, the next page of the first. */
interface WalkState {
	folders: string[];
	page: number;
	/** Folders taken into the walk so far (the bound). */
	seen: number;
	/** Entries the pages of the first folder read so far held (its runaway bound, pageEnd.ts entryBound). */
	received?: number;
}

function readWalkState(token: string | undefined, prefix: string): WalkState {
	if (token) {
		try {
			const state = JSON.parse(token) as WalkState;
			if (Array.isArray(state.folders) && Number.isInteger(state.page) && Number.isInteger(state.seen)) return state;
		} catch {
			// A token of another form (a page number from browsing) starts the walk afresh.
		}
	}
	return { folders: [prefix], page: 1, seen: 1 };
}

/**
 * Files whose name contains the typed text, anywhere under the folder typed so
 * far: the folders are walked breadth-first, page by page, a bounded number of requests per
 * answer, and the walk goes on from where it stood when the list is scrolled.
 */
async function searchUnder(
	ctx: ILoadOptionsFunctions,
	typed: Typed,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const { where, needle } = typed;
	const state = readWalkState(paginationToken, typed.prefix);
	const client = await FileStorageClient.create(ctx, 0);
	const results: INodeListSearchItems[] = [];
	let requests = 0;
	while (state.folders.length > 0 && requests < REQUESTS_PER_ANSWER && results.length < RESULTS_PER_ANSWER) {
		const folder = state.folders[0];
		const { contents, pagination } = await listContents(client, where, folder, state.page, MAX_PAGE_SIZE);
		requests += 1;
		const children = contents?.children ?? [];
		for (const entry of children) {
			if (isFolderMarker(entry)) continue;
			if (entry.type === 'folder') {
				if (state.seen < MAX_FOLDERS_SEARCHED && entry.path !== folder) {
					state.folders.push(entry.path);
					state.seen += 1;
				}
			} else if (entry.name.toLowerCase().includes(needle)) results.push({ name: entry.path, value: entry.path });
		}
		// The one end rule of every walk (pageEnd.ts): only an empty page ends a folder (a short page may be a
		// silent cap); pages that never end past what the count says are a runaway, left like an end.
		state.received = (state.received ?? 0) + children.length;
		const bound = pagination ? entryBound(countedEntries(pagination, MAX_PAGE_SIZE), MAX_PAGE_SIZE) : 0;
		if (listingEnds(children.length) || state.received >= bound) {
			state.folders.shift();
			Object.assign(state, { page: 1, received: 0 });
		} else state.page += 1;
	}
	return { results, paginationToken: state.folders.length > 0 ? JSON.stringify(state) : undefined };
}

/**
 * Files for the "From List" mode of the File field. Without text after the last '/', the folder
 * typed so far (its files); with text, every file under it whose name
 * contains the text, in sub-folders too. Never a folder: it is not a file.
 */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const typed = readTyped(this, 'file', filter);
	if (!typed.needle) return await browse(this, 'file', typed, paginationToken);
	return await searchUnder(this, typed, paginationToken);
}

/** Folders for the Folder picker; typing "reports/" navigates into reports/. */
export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await browse(this, 'folder', readTyped(this, 'folder', filter), paginationToken);
}
