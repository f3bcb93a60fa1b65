/**
 * A recording proxy between the node and the emulator that checks both directions against the
 * wire contract:
 *
 * - the request goes first, as a copy, to Prism's mock (request validation: query, path, auth
 *   headers, body). If Prism finds a violation, its answer goes back to the client and the
 *   emulator never sees the request;
 * - otherwise the request goes to the emulator unchanged: the same method, the same request
 *   target byte for byte (the signature covers it), the same headers and body bytes;
 * - the emulator's answer is checked against the document's response schema (ajv, the same
 *   check as the conformance suite) and passed back unchanged.
 *
 * Why not Prism's own proxy mode: it forwards the target and the X-* headers intact, but it
 * re-encodes request bodies as UTF-8 text (random bytes of a file or part arrive changed and
 * larger) and its form parser throws on a filename containing `=` or `;` (Prism then exits).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { contract } from '../emulator/conformance/contract';

export interface ContractProxy {
	url: string;
	/** Requests that reached the emulator. */
	forwarded: number;
	/** Violations seen since the last call, and forgets them. */
	takeViolations(): string[];
	close(): Promise<void>;
}

interface Exchange {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		stream.on('data', (c: Buffer) => chunks.push(c));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.on('error', reject);
	});
}

function send(base: string, method: string, target: string, headers: http.OutgoingHttpHeaders, body: Buffer) {
	const { hostname, port } = new URL(base);
	return new Promise<Exchange>((resolve, reject) => {
		// `path` goes on the wire as given: no re-encoding, no re-ordering.
		const req = http.request({ host: hostname, port, method, path: target, headers, agent: false }, (res) => {
			readAll(res).then((b) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }), reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** The request's headers for a buffered body (framing recomputed; everything else kept). */
function forwardHeaders(req: http.IncomingMessage, body: Buffer): http.OutgoingHttpHeaders {
	const headers: http.OutgoingHttpHeaders = { ...req.headers };
	delete headers['transfer-encoding'];
	delete headers.expect;
	delete headers.connection;
	headers['content-length'] = String(body.length);
	return headers;
}

/**
 * Prism's form parser splits header parameters naively, so a filename with `=` or `;` (and the
 * node's RFC 5987 `filename*=` form) throws inside Prism. The contract says nothing about the
 * filename, so Prism's copy gets a plain one; the emulator gets the original. latin1 maps every
 * byte to one character and back, so the rest of the body stays byte-identical.
 */
function withPlainFilenames(contentType: string | undefined, body: Buffer): Buffer {
	if (!/^multipart\/form-data/i.test(contentType ?? '')) return body;
	const text = body
		.toString('latin1')
		.replace(/^(Content-Disposition:[^\r\n]*?name="[^"\r\n]*");\s*filename[^\r\n]*$/gim, '$1; filename="file.bin"');
	return Buffer.from(text, 'latin1');
}

/**
 * What Prism's mock found wrong with the request itself, or undefined when nothing. It lists
 * violations in its `sl-violations` header (a refused request gets the document's own 400 or
 * 401, or Prism's 422). With --errors it also turns a made-up answer that fails the document's
 * response schema (a pattern its faker ignores) into a 500 listing only `response` locations:
 * that says nothing about the request and does not count.
 */
function requestViolations(checked: Exchange): string | undefined {
	const listed: Array<{ location?: string[] }> = [];
	const header = checked.headers['sl-violations'];
	try {
		if (typeof header === 'string') listed.push(...(JSON.parse(header) as typeof listed));
		const body = JSON.parse(checked.body.toString('utf8')) as { validation?: typeof listed };
		if (checked.status >= 400 && Array.isArray(body.validation)) listed.push(...body.validation);
	} catch {
		// Not JSON: judged by the status alone.
	}
	const aboutRequest = listed.filter((v) => v.location?.[0] !== 'response');
	if (aboutRequest.length > 0) return JSON.stringify(aboutRequest);
	if (checked.status >= 400 && listed.length === 0) return checked.body.toString('utf8');
	return undefined;
}

export async function startContractProxy(o: { upstream: string; prism: string }): Promise<ContractProxy> {
	let violations: string[] = [];
	let forwarded = 0;
	const server = http.createServer((req, res) => {
		void (async () => {
			const method = req.method ?? 'GET';
			const target = req.url ?? '/';
			const body = await readAll(req);
			const headers = forwardHeaders(req, body);
			const copy = withPlainFilenames(req.headers['content-type'], body);
			const checked = await send(o.prism, method, target, { ...headers, 'content-length': String(copy.length) }, copy);
			let answer: Exchange;
			const refused = requestViolations(checked);
			if (refused !== undefined) {
				violations.push(`request ${method} ${target}: Prism ${checked.status} ${refused}`);
				answer = checked;
			} else {
				forwarded++;
				answer = await send(o.upstream, method, target, headers, body);
				for (const problem of contract().problems({ method, target, ...answer })) {
					violations.push(`answer ${method} ${target}: ${problem}`);
				}
			}
			const out = { ...answer.headers };
			delete out['transfer-encoding'];
			delete out.connection;
			res.writeHead(answer.status, { ...out, 'content-length': String(answer.body.length) });
			res.end(answer.body);
		})().catch((err: Error) => {
			violations.push(`proxy error on ${req.method} ${req.url}: ${err.message}`);
			res.destroy();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get forwarded() {
			return forwarded;
		},
		takeViolations: () => {
			const out = violations;
			violations = [];
			return out;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
