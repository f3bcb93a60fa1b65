/**
 * The service's record of one file (files/storedRecord.ts) is read from the listing, and "no
 * record" is a decision: before a Move's delete is sent again, the listing showing nothing at the
 * source means "the first attempt deleted it", and the Move reports the source deleted. The
 * listing's end rule (docs/api-choices.md; listing.ts, fullPage) is that a full page the count calls
 * the last is no proof that the listing ends there: a count may lag behind the rows (a cached
 * count, a few files added just before). A record search that stops on such a page says "no
 * file" of a file that is there.
 *
 * Here the source's folder holds 999 sub-folders whose names start with the source's name (they
 * sort first) and the source: 1000 entries, one full page. The first delete of the source gets a
 * gateway's 502 (not passed on: nothing was deleted) while another writer adds one more such
 * sub-folder; the count, cached, still says 1000. The source is now the first entry of page 2.
 * Through n8n-core's engine over real HTTP: a gateway in front of the emulator answers the first
 * delete and serves the listing with the cached count.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { BUCKET, credentialsFor, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const byKey = (value: string) => ({ __rl: true, mode: 'key', value });

const SOURCE = 'wide-src/a.txt';
const DESTINATION = 'wide-dst/a.txt';

async function put(key: string, text: string, writer: string) {
	await emulator().adversary.put(HERE, key, Buffer.from(text), {
		visibility: 'private',
		contentType: 'text/plain',
		writer,
	});
}

/**
 * Forwards to the emulator; the listing's count is the one cached before the last sub-folder was
 * added (1000 entries at most); the first DELETE of SOURCE gets a 502 and is not passed on, and
 * meanwhile another writer adds a sub-folder.
 */
function useGateway() {
	let server: Server | undefined;
	const sockets = new Set<Socket>();
	const state = { url: '', deletes: 0 };
	const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
		const upstreamUrl = new URL(emulator().url);
		const isList = /^\/api\/v1\/files\/(list|contents)\?/.test(req.url ?? '');
		const upstream = request(
			{ host: upstreamUrl.hostname, port: upstreamUrl.port, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					let out = Buffer.concat(chunks);
					if (isList && answer.statusCode === 200) {
						const json = JSON.parse(out.toString()) as {
							data: { pagination: { total_items: number; total_pages: number; items_per_page: number } };
						};
						const pagination = json.data.pagination;
						const counted = Math.min(pagination.total_items, 1000);
						pagination.total_items = counted;
						pagination.total_pages = Math.max(1, Math.ceil(counted / pagination.items_per_page));
						out = Buffer.from(JSON.stringify(json));
					}
					const headers = { ...answer.headers };
					delete headers['content-length'];
					delete headers['transfer-encoding'];
					res.writeHead(answer.statusCode ?? 502, { ...headers, 'Content-Length': String(out.length) });
					res.end(out);
				});
			},
		);
		upstream.on('error', () => res.destroy());
		upstream.end(body);
	};
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const target = new URL(req.url ?? '/', 'http://gateway');
			if (req.method === 'DELETE' && target.searchParams.get('key') === SOURCE && state.deletes++ === 0) {
				// Another writer adds a sub-folder; the gateway could not reach the service for the delete.
				void put('wide-src/a.txt-v0999/x.txt', 'another sub-folder', 'app').then(() => {
					res.writeHead(502, { 'Content-Type': 'text/html' });
					res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
				});
				return;
			}
			forward(req, Buffer.concat(chunks), res);
		});
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
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise<void>((resolve) => server?.close(() => resolve()));
	});
	return () => state;
}

const gateway = useGateway();

describe("Move's delete sent again, and a listing whose count lags behind its rows", () => {
	it('a source still there, on the page after a full page the count calls the last, is not reported deleted', async () => {
		for (let i = 0; i < 999; i++) await put(`wide-src/a.txt-v${String(i).padStart(4, '0')}/x.txt`, 'x', 'setup');
		await put(SOURCE, 'the report', 'setup');
		// A Move waits out a source written moments before it is read.
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(SOURCE), destinationKey: DESTINATION },
			{ credentials: credentialsFor(emulator(), { baseUrl: gateway().url }), continueOnFail: true },
		);
		expect(gateway().deletes).toBeGreaterThan(0);
		const sourceThere = (await storedText(emulator(), SOURCE)) !== undefined;
		// The run may fail or succeed, but it must not say the source is deleted while it is there.
		expect({
			sourceThere,
			sourceDeleted: result.items[0]?.json.sourceDeleted,
			error: result.items[0]?.json.error,
		}).toEqual({
			sourceThere,
			sourceDeleted: sourceThere ? undefined : true,
			error: sourceThere ? expect.any(String) : undefined,
		});
	}, 60_000);
});
