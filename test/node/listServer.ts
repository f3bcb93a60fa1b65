/**
 * A stand-in for the list endpoint only, for listings the emulator cannot hold cheaply (150,000
 * files) or would never produce (a folder inside itself, a page number ignored). It checks no
 * signature; every other path is a 404.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListRequest {
	prefix: string;
	page: number;
	limit: number;
}

export type ListAnswer = (request: ListRequest) => { children: object[]; pagination: object };

export interface ListServer {
	url: string;
	requests: ListRequest[];
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

export async function startListServer(answer: ListAnswer): Promise<ListServer> {
	const requests: ListRequest[] = [];
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://list.test');
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
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
