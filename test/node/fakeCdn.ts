/**
 * A CDN the test scripts: every request (GET or HEAD, any path) gets `answer()`'s status, headers
 * and body. For what the emulator's CDN does not do: a cache that ignores the purge, marks its
 * answers (Age, X-Cache), sends MD5 ETags, or has a clock of its own. Node's server adds a Date
 * header of the real clock unless the answer sets one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Emulator } from '../emulator';
import { uploadWithNode } from './support';

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

/**
 * Stores `text` through the node within one wall-clock second (again, if the upload crossed one), waits `settleMs`
 * (past the listed second and the clocks' margin, so a Move takes its first read), and gives that second as an
 * HTTP date: the Last-Modified of an earlier version a scripted CDN serves as this one.
 */
export async function storeInOneSecond(
	emulator: Emulator,
	key: string,
	text: string,
	{ settleMs, visibility = 'public' }: { settleMs: number; visibility?: string },
): Promise<string> {
	for (;;) {
		const before = Math.floor(Date.now() / 1000);
		await uploadWithNode(emulator, key, text, { visibility });
		if (Math.floor(Date.now() / 1000) !== before) continue;
		await new Promise((resolve) => setTimeout(resolve, settleMs));
		return new Date(before * 1000).toUTCString();
	}
}
