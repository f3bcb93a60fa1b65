import { request, type IncomingMessage, type ServerResponse } from 'node:http';

import type { Emulator } from '../emulator';
import { useLocalHttpServer } from './localServer';

interface Kept {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
	at: number;
}

/** How a gateway marks what it sends: a kept answer (with its age), and one it fetched. */
export interface CacheMarks {
	hit: (ageSeconds: number) => Record<string, string>;
	miss: Record<string, string>;
}

/** How shared caches mark a kept answer by default: `X-Cache: HIT` and its `Age` (RFC 9111 §5.1). */
export const X_CACHE_MARKS: CacheMarks = {
	hit: (ageSeconds) => ({ 'X-Cache': 'HIT', Age: String(ageSeconds) }),
	miss: { 'X-Cache': 'MISS' },
};

/** The answer's headers a cache keeps and sends again (hop-by-hop ones and the length are its own). */
function keptHeaders(answer: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [header, value] of Object.entries(answer.headers)) {
		if (value === undefined || ['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(header))
			continue;
		headers[header] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

/**
 * A gateway in front of the emulator that forwards everything to the API and keeps GET answers (200
 * and 404) of the paths it caches for a minute, by method and request target, as a shared cache does
 * (the API's auth is in custom headers, so a shared cache stores its GET answers by URL). Started for
 * the test file; what it kept is forgotten before each test. `hits` names the requests it answered.
 */
export function useCachingGateway(
	emulator: () => Emulator,
	cached: RegExp,
	marks: CacheMarks = X_CACHE_MARKS,
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
			return send(res, hit, marks.hit(Math.floor((Date.now() - hit.at) / 1000)));
		}
		const upstreamUrl = new URL(emulator().url);
		const upstream = request(
			{ host: upstreamUrl.hostname, port: upstreamUrl.port, method: req.method, path: target, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					const fresh = {
						status: answer.statusCode ?? 502,
						headers: keptHeaders(answer),
						body: Buffer.concat(chunks),
						at: Date.now(),
					};
					if (cacheable && (fresh.status === 200 || fresh.status === 404)) kept.set(name, fresh);
					send(res, fresh, marks.miss);
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
