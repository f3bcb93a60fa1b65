/**
 * A CDN the test scripts: every request (GET or HEAD, any path) gets `answer()`'s status, headers
 * and body. For what the emulator's CDN does not do: a cache that ignores the purge, marks its
 * answers (Age, X-Cache), sends MD5 ETags, or has a clock of its own. Node's server adds a Date
 * header of the real clock unless the answer sets one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CdnAnswer {
	status?: number;
	headers?: Record<string, string>;
	body: Buffer | string;
}

export interface FakeCdn {
	/** The CDN location of `key` (what a signed-link rewrite points at). */
	urlOf(key: string): string;
	answer: (method: string) => CdnAnswer;
	requests: string[];
}

export function useFakeCdn(): () => FakeCdn {
	let server: Server | undefined;
	const cdn: FakeCdn = { urlOf: () => '', answer: () => ({ body: '' }), requests: [] };
	beforeAll(async () => {
		server = createServer((req, res) => {
			cdn.requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
			const { status = 200, headers = {}, body } = cdn.answer(req.method ?? 'GET');
			const bytes = Buffer.from(body);
			res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': String(bytes.length), ...headers });
			res.end(req.method === 'HEAD' ? undefined : bytes);
		});
		await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
		cdn.urlOf = (key) => `${base}${key}`;
	});
	beforeEach(() => {
		cdn.requests.splice(0);
		cdn.answer = () => ({ body: '' });
	});
	afterAll(async () => await new Promise<void>((resolve) => server?.close(() => resolve())));
	return () => cdn;
}
