/**
 * The API's own answers are judged by what caches say of them, as the CDN's are (Age, X-Cache,
 * Cache-Status: transport/cacheMarks.ts). A caching gateway in front of the API (nginx
 * micro-caching GETs, a "cache everything" rule; the API's auth is in custom headers, not
 * Authorization, so a shared cache stores its GET answers by URL) answers a listing or a
 * signed-link request with a copy it kept, and says so (X-Cache: HIT, Age). No destructive step
 * decides on such an answer: the transport refuses it, naming the cache and the fix.
 * - Move's listing of its source just before the delete, answered from the cache, would still show
 *   the version copied after another writer replaced it: the source is kept;
 * - Upload with Refuse Existing File: the existence check, answered with a kept 404 (negative
 *   caching), would say "absent" of a file another writer stored since: nothing is uploaded.
 * A gateway that keeps nothing but stamps what it forwards (X-Cache: MISS, Age: 0) changes nothing.
 * Through n8n-core's engine over real HTTP; the gateway is a small caching proxy in front of the
 * emulator, the other writer acts from the emulator's hooks.
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { runNode, type RunNodeOptions } from '../harness';
import { useLocalHttpServer } from './localServer';
import { BUCKET, HERE, byKey, credentialsFor, fileItem, putText, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

interface Kept {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
	at: number;
}

/**
 * A gateway that forwards everything to the API and keeps GET answers (200 and 404) of the paths
 * it caches for a minute, by method and request target, as a shared cache does; a kept answer is
 * sent with `X-Cache: HIT` and its `Age`, as caches mark them (RFC 9111 §5.1).
 */
function useCachingGateway(
	cached: RegExp,
	missMark: Record<string, string> = { 'X-Cache': 'MISS' },
): () => { url: string; hits: string[] } {
	const kept = new Map<string, Kept>();
	const hits: string[] = [];
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
			hits.push(name);
			req.resume();
			return send(res, hit, { 'X-Cache': 'HIT', Age: String(Math.floor((Date.now() - hit.at) / 1000)) });
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
	const url = useLocalHttpServer(handle);
	beforeEach(() => {
		kept.clear();
		hits.splice(0);
	});
	return () => ({ url: url(), hits });
}

const gateway = useCachingGateway(/^\/api\/v1\/files\/(list|contents|signed-url)$/);
/** One that keeps listings only: the destination's existence checks (signed URLs) go through to the API. */
const listingGateway = useCachingGateway(/^\/api\/v1\/files\/(list|contents)$/);
/** A gateway that keeps nothing but stamps every answer it forwards as a miss, `Age: 0` included (Varnish does). */
const stamping = useCachingGateway(/^$/, { 'X-Cache': 'MISS', Age: '0', 'Cache-Status': 'gateway; fwd=uri-miss' });

function viaGateway(parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}, through = gateway) {
	return runNode({
		credentials: credentialsFor(emulator(), { baseUrl: through().url }),
		continueOnFail: true,
		...extra,
		parameters: { ...BUCKET, ...parameters },
	});
}

beforeEach(() => emulator().adversary.setHooks(undefined));
afterEach(() => emulator().adversary.setHooks(undefined));

describe('Move: a listing a cache kept is no proof that the source is still the version copied', () => {
	it("the source's listing before the delete answered from the gateway's cache: a newer version stored during the copy survives", async () => {
		const source = 'gw-cache/report.txt';
		const destination = 'gw-cache-to/report.txt';
		await put(source, 'version 1', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const newer = 'version 2, stored by the app while the copy was made (longer)';
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call: HookCall) => {
				// After the source was read and listed: the app stores a newer version of it.
				if (struck || call.op !== 'upload' || call.query.get('key') !== destination) return;
				struck = true;
				await put(source, newer, 'app');
			},
		});
		const result = await viaGateway(
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{},
			listingGateway,
		);
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		// The gateway did answer the source's listing from its cache (marked HIT, with an Age).
		const sourceListings = listingGateway().hits.filter((hit) =>
			/\/files\/(list|contents)\?.*prefix=gw-cache%2Freport/.test(hit),
		);
		expect(sourceListings.length).toBeGreaterThan(0);
		expect(await read(destination)).toBe('version 1');
		// The newer version is nowhere else: it must still be at the source.
		expect(await read(source)).toBe(newer);
		expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 40_000);
});

describe('Upload with Refuse Existing File: a "not found" a cache kept is no proof that the key is free', () => {
	it("the existence check answered with the gateway's kept 404: a file another writer stored since is not replaced", async () => {
		const key = 'gw-cache-refuse/contract.txt';
		const upload = (text: string) =>
			viaGateway(
				{ resource: 'file', operation: 'upload', key, options: { refuseExisting: true } },
				{ items: [fileItem(Buffer.from(text), 'contract.txt', 'text/plain')] },
			);
		// The key is free: the first run's check gets the API's 404, which the gateway keeps.
		const first = await upload('first run: a draft');
		expect(first.error).toBeUndefined();
		// Another writer (the signing app) stores the signed contract at the key.
		await put(key, 'the signed contract, the only copy', 'other');
		const second = await upload('second run: another draft');
		// The 404 was the gateway's kept answer, marked as such.
		expect(gateway().hits.some((hit) => hit.includes('/api/v1/files/signed-url'))).toBe(true);
		expect(await read(key)).toBe('the signed contract, the only copy');
		expect(second.error?.message ?? String(second.items[0]?.json.error ?? '')).toMatch(/exist|could not/i);
	}, 40_000);
});

describe('A gateway that marks the answers it forwards as misses (X-Cache: MISS, Age: 0) is no cache answering', () => {
	it('Move and Upload with Refuse Existing File through it work as without it', async () => {
		const source = 'gw-miss/report.txt';
		const destination = 'gw-miss-to/report.txt';
		await put(source, 'version 1', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		const moved = await viaGateway(
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{},
			stamping,
		);
		expect(moved.error).toBeUndefined();
		expect(moved.items[0]?.json.error).toBeUndefined();
		expect(moved.items[0]?.json.sourceDeleted).toBe(true);
		expect(await read(destination)).toBe('version 1');
		const uploaded = await viaGateway(
			{ resource: 'file', operation: 'upload', key: 'gw-miss/new.txt', options: { refuseExisting: true } },
			{ items: [fileItem(Buffer.from('a draft'), 'new.txt', 'text/plain')] },
			stamping,
		);
		expect(uploaded.items[0]?.json.error).toBeUndefined();
		expect(await read('gw-miss/new.txt')).toBe('a draft');
	}, 40_000);
});
