import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listContents } from '../transport/api';
import { FileStorageClient } from '../transport/request';

const SEARCH_PAGE_SIZE = 100;

/**
 * Files for the "From List" mode of the File field. The filter narrows by folder
 * (everything up to its last '/') and then by name, so typing "reports/2026/q"
 * lists reports/2026/ and keeps the names containing "q".
 */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const bucket = String(this.getNodeParameter('bucketName', '') ?? '').trim();
	const region = String(this.getNodeParameter('region', '') ?? '').trim();
	if (!bucket || !region) {
		throw new NodeOperationError(this.getNode(), 'Set Bucket Name and Region first to list its files');
	}
	const text = (filter ?? '').replace(/^\/+/, '');
	const cut = text.lastIndexOf('/') + 1;
	const prefix = text.slice(0, cut);
	const needle = text.slice(cut).toLowerCase();
	const page = Number(paginationToken ?? 1) || 1;
	const client = await FileStorageClient.create(this, 0);
	const { contents, pagination } = await listContents(client, { bucket, region }, prefix, page, SEARCH_PAGE_SIZE);
	const results: INodeListSearchItems[] = (contents?.children ?? [])
		.filter((entry) => entry.type === 'file' && entry.name.toLowerCase().includes(needle))
		.map((entry) => ({ name: entry.path, value: entry.path }));
	const more = page < (pagination?.total_pages ?? page);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}

/**
 * Folders for the "From List" mode of the Folder field. Typing a path navigates: "reports/"
 * lists the folders inside reports/ (and reports/ itself, to pick it), "reports/20" those whose
 * name contains "20".
 */
export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const bucket = String(this.getNodeParameter('bucketName', '') ?? '').trim();
	const region = String(this.getNodeParameter('region', '') ?? '').trim();
	if (!bucket || !region) {
		throw new NodeOperationError(this.getNode(), 'Set Bucket Name and Region first to list its folders');
	}
	const text = (filter ?? '').replace(/^\/+/, '');
	const cut = text.lastIndexOf('/') + 1;
	const prefix = text.slice(0, cut);
	const needle = text.slice(cut).toLowerCase();
	const page = Number(paginationToken ?? 1) || 1;
	const client = await FileStorageClient.create(this, 0);
	const { contents, pagination } = await listContents(client, { bucket, region }, prefix, page, SEARCH_PAGE_SIZE);
	const results: INodeListSearchItems[] = (contents?.children ?? [])
		.filter((entry) => entry.type === 'folder' && entry.name.toLowerCase().includes(needle))
		.map((entry) => ({ name: entry.path, value: entry.path }));
	if (page === 1 && prefix && !needle) results.unshift({ name: prefix, value: prefix });
	const more = page < (pagination?.total_pages ?? page);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}
