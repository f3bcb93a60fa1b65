/**
 * A stand-in for the list endpoint, for listings the emulator cannot hold cheaply (150,000
 * files) or would never produce (a folder inside itself, a page number ignored, a folder that
 * changes between two page requests). With `download`, it also hands out signed links and
 * serves them, so a test decides the CDN's answer per key; with `exists`, the signed-link
 * endpoint knows which keys are stored; with `remove`, the delete endpoint deletes. It checks no signature; every other path is a 404.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';

export interface ListRequest {
	prefix: string;
	page: number;
	limit: number;
}

export type ListAnswer = (request: ListRequest) => { children: object[]; pagination: object };

/** The CDN's answer for a key: its bytes, or an error status; `delayMs` holds it back that long. */
/**
 * The CDN's answer for a key. It passes on the Last-Modified of the date every scripted file is listed with
 * (ScriptedFolder), as a CDN passes on the file's own: an undated answer is never given as the file.
 */
export type DownloadAnswer = (key: string) => { status: number; body: string; delayMs?: number };

/** ScriptedFolder's listed date, as an HTTP date. */
const SCRIPTED_LAST_MODIFIED = new Date('2026-01-01T00:00:00Z').toUTCString();

/** Whether a key is stored, as the signed-link endpoint sees it; or an error status to answer instead. */
export type ExistsAnswer = (key: string) => boolean | { status: number };

export interface ListServer {
	url: string;
	requests: ListRequest[];
	/** Keys a signed link was asked for, in order. */
	linkRequests: string[];
	/** Every request, in the order it arrived: method and path, with the key of a signed-link request. */
	log: string[];
	/** The most CDN answers under way at once (a count, not a time). */
	maxDownloadsInFlight(): number;
	stop(): Promise<void>;
}

/** Pages over `total` entries made by `entry(index)`, as the spec pages them. */
export function pagesOf(total: number, entry: (index: number) => object): ListAnswer {
	return ({ page, limit }) => {
		const start = (page - 1) * limit;
		const children = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => entry(start + i));
		const pagination = {
			current_page: page,
			total_pages: Math.max(1, Math.ceil(total / limit)),
			total_items: total,
			items_per_page: limit,
		};
		return { children, pagination };
	};
}

/** A flat folder whose files a test changes between page requests, paged as the spec pages them. */
export class ScriptedFolder {
	private readonly files = new Map<string, object>();
	/** Runs before each list request is answered: the place to change the folder mid-scan. */
	beforeAnswer?: (request: ListRequest) => void;

	constructor(
		readonly prefix: string,
		names: string[],
	) {
		for (const name of names) this.put(name);
	}

	put(name: string, size = 5): void {
		const path = `${this.prefix}${name}`;
		this.files.set(path, {
			name,
			type: 'file',
			path,
			size,
			content_type: 'text/plain',
			last_modified: '2026-01-01T00:00:00Z',
			visibility: 'private',
		});
	}

	remove(name: string): void {
		this.files.delete(`${this.prefix}${name}`);
	}

	/** Deletes a key as the service's delete endpoint does: false (its 404) when it is not stored. */
	readonly deleteKey = (key: string): boolean => this.files.delete(key);

	/** Keys stored now, in listing order. */
	keys(): string[] {
		return [...this.files.keys()].sort();
	}

	/** Whether a key is in the folder now, as the service's signed-link endpoint would see it. */
	readonly exists: ExistsAnswer = (key) => this.files.has(key);

	readonly answer: ListAnswer = (request) => {
		this.beforeAnswer?.(request);
		const sorted = [...this.files.keys()].sort().map((path) => this.files.get(path)!);
		return pagesOf(sorted.length, (index) => sorted[index])(request);
	};
}

/**
 * With `exists`, the signed-link endpoint answers the API's own 404 for a key that is not stored
 * (as the service does) and a link for one that is, with or without `download`.
 */
export async function startListServer(
	answer: ListAnswer,
	download?: DownloadAnswer,
	exists?: ExistsAnswer,
	remove?: (key: string) => boolean,
): Promise<ListServer> {
	const requests: ListRequest[] = [];
	const linkRequests: string[] = [];
	const log: string[] = [];
	let downloading = 0;
	let maxDownloading = 0;
	let origin = '';
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://list.test');
		const named =
			url.pathname === '/api/v1/files/signed-url'
				? ` ${url.searchParams.get('key') ?? ''}`
				: url.pathname === '/api/v1/files/list'
					? ` page=${url.searchParams.get('page') ?? ''}`
					: '';
		log.push(`${req.method ?? 'GET'} ${url.pathname}${named}`);
		if ((download || exists) && url.pathname === '/api/v1/files/signed-url') {
			const key = url.searchParams.get('key') ?? '';
			linkRequests.push(key);
			const stored = exists?.(key) ?? true;
			if (typeof stored === 'object') {
				res.writeHead(stored.status, { 'Content-Type': 'application/json' }).end('{"error":"Internal server error"}');
				return;
			}
			if (!stored) {
				const missing = JSON.stringify({ error: 'Resource not found', message: 'Bucket or file not found' });
				res.writeHead(404, { 'Content-Type': 'application/json' }).end(missing);
				return;
			}
			const link = `${origin}/f/access/${key.split('/').map(encodeURIComponent).join('/')}?signature=test`;
			const body = JSON.stringify({ data: { url: link, expires_in: 900, is_public: false } });
			res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
			return;
		}
		if (remove && req.method === 'DELETE' && url.pathname === '/api/v1/files/delete') {
			const removed = remove(url.searchParams.get('key') ?? '');
			const body = removed
				? JSON.stringify({ data: { message: 'File and all transformations deleted successfully' } })
				: JSON.stringify({ error: 'Resource not found', message: 'Bucket or file not found' });
			res.writeHead(removed ? 200 : 404, { 'Content-Type': 'application/json' }).end(body);
			return;
		}
		if (download && url.pathname.startsWith('/f/access/')) {
			const key = url.pathname.slice('/f/access/'.length).split('/').map(decodeURIComponent).join('/');
			const { status, body, delayMs = 0 } = download(key);
			downloading += 1;
			maxDownloading = Math.max(maxDownloading, downloading);
			res.once('close', () => (downloading -= 1));
			setTimeout(() => {
				const headers = { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) };
				res.writeHead(status, { ...headers, 'Last-Modified': SCRIPTED_LAST_MODIFIED }).end(body);
			}, delayMs);
			return;
		}
		if (url.pathname !== '/api/v1/files/list') {
			res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"Resource not found"}');
			return;
		}
		const request = {
			prefix: url.searchParams.get('prefix') ?? '',
			page: Number(url.searchParams.get('page') ?? 1),
			limit: Number(url.searchParams.get('limit') ?? 20),
		};
		requests.push(request);
		const { children, pagination } = answer(request);
		const body = JSON.stringify({
			data: { contents: { name: request.prefix || '/', type: 'folder', path: request.prefix, children }, pagination },
		});
		res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	origin = `http://127.0.0.1:${port}`;
	return {
		url: origin,
		requests,
		linkRequests,
		log,
		maxDownloadsInFlight: () => maxDownloading,
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** Folder → Delete of `folder` (version 3) through n8n-core's engine against `server`, with more `parameters`. */
export async function deleteFolderAt(server: ListServer, folder: string, parameters: INodeParameters = {}) {
	return await runNode({
		credentials: { fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url } },
		typeVersion: 3,
		parameters: {
			bucketName: 'b',
			region: 'r',
			resource: 'folder',
			operation: 'delete',
			folder: { __rl: true, mode: 'path', value: folder },
			...parameters,
		},
	});
}
