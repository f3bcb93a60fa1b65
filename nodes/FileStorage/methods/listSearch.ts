import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listContents } from '../transport/api';
import { FileStorageClient } from '../transport/request';

const SEARCH_PAGE_SIZE = 100;

type EntryType = 'file' | 'folder';

/**
 * Entries of one type for a "From List" mode. The filter narrows by folder (everything up to its
 * last '/') and then by name, so typing "reports/2026/q" lists reports/2026/ and keeps the names
 * containing "q".
 */
async function searchEntries(
	ctx: ILoadOptionsFunctions,
	type: EntryType,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const bucket = String(ctx.getNodeParameter('bucketName', '') ?? '').trim();
	const region = String(ctx.getNodeParameter('region', '') ?? '').trim();
	if (!bucket || !region) {
		throw new NodeOperationError(ctx.getNode(), `Set Bucket Name and Region first to list its ${type}s`);
	}
	const text = (filter ?? '').replace(/^\/+/, '');
	const cut = text.lastIndexOf('/') + 1;
	const prefix = text.slice(0, cut);
	const needle = text.slice(cut).toLowerCase();
	const page = Number(paginationToken ?? 1) || 1;
	const client = await FileStorageClient.create(ctx, 0);
	const { contents, pagination } = await listContents(client, { bucket, region }, prefix, page, SEARCH_PAGE_SIZE);
	const results: INodeListSearchItems[] = (contents?.children ?? [])
		.filter((entry) => entry.type === type && entry.name.toLowerCase().includes(needle))
		.map((entry) => ({ name: entry.path, value: entry.path }));
	// The folder typed so far can be picked itself.
	if (type === 'folder' && page === 1 && prefix && !needle) results.unshift({ name: prefix, value: prefix });
	const more = page < (pagination?.total_pages ?? page);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}

/** Files for the "From List" mode of the File field. */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchEntries(this, 'file', filter, paginationToken);
}

/** Folders for the Folder picker; typing "reports/" navigates into reports/. */
export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchEntries(this, 'folder', filter, paginationToken);
}
