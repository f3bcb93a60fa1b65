/**
 * The API's own answers a gateway cache kept are refused (docs/api-choices.md, "API answers a cache
 * kept"), as they may be of an earlier moment: an existence check answered with a kept 404 would
 * let Upload with Refuse Existing File replace a file another writer stored since. nginx, the most
 * common gateway, never sends an Age; its cache status is exposed in a header of the operator's
 * choosing, `X-Proxy-Cache` being the one its guides name besides X-Cache and X-Cache-Status. A
 * kept answer marked so is a kept answer. Through n8n-core's engine over real HTTP: a caching
 * gateway in front of the emulator.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { runNode } from '../harness';
import { BUCKET, credentialsFor, fileItem, storedText, useEmulator } from './support';

const emulator = useEmulator();
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const read = async (key: string) => await storedText(emulator(), key);

async function put(key: string, text: string, writer: string) {
	await emulator().adversary.put(HERE, key, Buffer.from(text), {
		visibility: 'private',
		contentType: 'text/plain',
		writer,
	});
}

interface Kept {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
	at: number;
}

/**
 * A gateway that forwards everything to the API and keeps GET answers (200 and 404) of the paths
 * it caches for a minute, by method and request target, as a shared cache does; a kept answer is
 * sent with `hitMark`.
 */
function useCachingGateway(
	cached: RegExp,
	hitMark: (ageSeconds: number) => Record<string, string>,
	missMark: Record<string, string> = {},
): () => { url: string; hits: string[] } {
	let server: Server | undefined;
	const sockets = new Set<Socket>();
	const kept = new Map<string, Kept>();
	const state = { url: '', hits: [] as string[] };
	const send = (res: ServerResponse, answer: Kept, mark: Record<string, string>) => {
		res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(answer.body.length), ...mark });
		res.end(answer.body);
	};
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const target = req.url ?? '/';
		const name = `${req.method ?? 'GET'} ${target}`;
		const cacheable = req.method === 'GET' && cached.test(target.split('?')[0]);
		const hit = cacheable ? kept.get(name) : undefined;
		if (hit && Date.now() - hit.at < 60_000) {
			state.hits.push(name);
			req.resume();
			return send(res, hit, hitMark(Math.floor((Date.now() - hit.at) / 1000)));
		}
		const upstreamUrl = new URL(emulator().url);
		const upstream = request(
			{ host: upstreamUrl.hostname, port: upstreamUrl.port, method: req.method, path: target, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					const headers: Record<string, string> = {};
					for (const [header, value] of Object.entries(answer.headers)) {
						if (
							value === undefined ||
							['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(header)
						)
							continue;
						headers[header] = Array.isArray(value) ? value.join(', ') : value;
					}
					const fresh: Kept = {
						status: answer.statusCode ?? 502,
						headers,
						body: Buffer.concat(chunks),
						at: Date.now(),
					};
					if (cacheable && (fresh.status === 200 || fresh.status === 404)) kept.set(name, fresh);
					send(res, fresh, missMark);
				});
				answer.on('error', () => res.destroy());
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	};
	beforeAll(async () => {
		server = createServer(handle);
		server.on('connection', (socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		});
		await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
		state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	beforeEach(() => {
		kept.clear();
		state.hits.splice(0);
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server?.close(() => resolve()));
	});
	return () => state;
}

/** nginx with `add_header X-Proxy-Cache $upstream_cache_status`: no Age, ever. */
const nginx = useCachingGateway(/^\/api\/v1\/files\/(list|contents|signed-url)$/, () => ({ 'X-Proxy-Cache': 'HIT' }), {
	'X-Proxy-Cache': 'MISS',
});

describe('Upload with Refuse Existing File behind an nginx cache', () => {
	it('the existence check answered with a 404 the gateway kept (X-Proxy-Cache: HIT): a file another writer stored since is not replaced', async () => {
		const key = 'gw-nginx-refuse/contract.txt';
		const upload = (text: string) =>
			runNode({
				credentials: credentialsFor(emulator(), { baseUrl: nginx().url }),
				continueOnFail: true,
				items: [fileItem(Buffer.from(text), 'contract.txt', 'text/plain')],
				parameters: { ...BUCKET, resource: 'file', operation: 'upload', key, options: { refuseExisting: true } },
			});
		// The key is free: the first run's check gets the API's 404, which the gateway keeps.
		const first = await upload('first run: a draft');
		expect(first.error).toBeUndefined();
		// Another writer (the signing app) stores the signed contract at the key.
		await put(key, 'the signed contract, the only copy', 'other');
		await upload('second run: another draft');
		expect(nginx().hits.some((hit) => hit.includes('/api/v1/files/signed-url'))).toBe(true);
		expect(await read(key)).toBe('the signed contract, the only copy');
	}, 40_000);
});
