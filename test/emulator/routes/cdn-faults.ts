/**
 * How the CDN misbehaves under a cdn fault rule: the failures a download client meets on real
 * networks and CDNs (a cut or stalled body, a compressed body, a redirect). Each writes the answer
 * itself; the caller has already checked the file and the signature.
 */
import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import type { RouteRequest, ServerContext } from '../context';
import type { FaultAction } from '../faults';
import { removeQuietly } from '../fsutil';

export type CdnFault = Extract<
	FaultAction,
	{ kind: 'truncate' | 'stall' | 'closeDelimited' | 'echoUrl' | 'gzip' | 'redirect' }
>;

const CDN_FAULT_KINDS: ReadonlyArray<FaultAction['kind']> = [
	'truncate',
	'stall',
	'closeDelimited',
	'echoUrl',
	'gzip',
	'redirect',
];

export function isCdnFault(fault: FaultAction | undefined): fault is CdnFault {
	return fault !== undefined && CDN_FAULT_KINDS.includes(fault.kind);
}

/**
 * 403 whose plain-text body repeats the request URL, query and all, as some CDNs and storage
 * errors do (S3 echoes the string it signed): a signed link's signature lands in the body.
 */
export function echoUrl(ctx: ServerContext, r: RouteRequest): void {
	const { path, rawQuery } = r.target;
	const body = `Access denied for ${ctx.baseUrl}${path}${rawQuery === undefined ? '' : `?${rawQuery}`}\n`;
	r.res.writeHead(403, { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(body)) });
	r.res.end(body);
}

/**
 * 200 with neither Content-Length nor chunked framing: the body ends when the connection does
 * (HTTP/1.1 allows it when the server closes). The first `bytes` bytes of the file are sent and
 * the connection is then closed cleanly, so the client sees a complete-looking, short body.
 */
export async function sendCloseDelimited(
	r: RouteRequest,
	source: Readable,
	headers: OutgoingHttpHeaders,
	bytes: number,
): Promise<void> {
	const socket = r.res.socket;
	if (!socket || socket.destroyed) {
		source.destroy();
		return;
	}
	// Written on the socket itself: Node's response would add chunked framing to a body of unknown length.
	const { 'Content-Length': _length, ...rest } = headers;
	const head = Object.entries(rest)
		.map(([name, value]) => `${name}: ${String(value)}\r\n`)
		.join('');
	await new Promise<void>((resolve) =>
		socket.write(`HTTP/1.1 200 OK\r\n${head}Connection: close\r\n\r\n`, () => resolve()),
	);
	let left = bytes;
	if (left > 0) {
		for await (const chunk of source as AsyncIterable<Buffer>) {
			const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
			left -= piece.length;
			await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
			if (left === 0) break;
		}
	} else source.destroy();
	await new Promise<void>((resolve) => socket.end(() => resolve()));
}

/** `/f/…` and `/r/…` serve the same files; a redirect points from the one to the other. */
export const REDIRECT_PREFIX = '/r/';

/**
 * 302 to the same file under `/r/`, query byte for byte (a signed URL stays valid). Sent before
 * the file is looked up, as an edge that redirects by path would.
 */
export function redirect(ctx: ServerContext, r: RouteRequest): void {
	const { path, rawQuery } = r.target;
	const location = `${ctx.baseUrl}${REDIRECT_PREFIX}${path.slice(REDIRECT_PREFIX.length)}${rawQuery === undefined ? '' : `?${rawQuery}`}`;
	r.res.writeHead(302, { Location: location, 'Content-Length': '0' });
	r.res.end();
}

/**
 * Whether an Accept-Encoding header allows gzip (RFC 9110 §12.5.3): listed with q > 0, or
 * covered by `*` with q > 0 and not refused by name. No header means identity only, as CDNs treat it.
 */
export function acceptsGzip(header: string | undefined): boolean {
	if (!header) return false;
	const q = new Map<string, number>();
	for (const item of header.split(',')) {
		const [coding, ...params] = item.trim().toLowerCase().split(';');
		if (!coding) continue;
		const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
		q.set(coding.trim(), weight ? Number(weight.slice(2)) : 1);
	}
	const gzip = q.get('gzip') ?? q.get('x-gzip');
	if (gzip !== undefined) return gzip > 0;
	return (q.get('*') ?? 0) > 0;
}

/** The body compressed into a temp file first, so the answer can carry its real Content-Length. */
export async function sendGzip(
	ctx: ServerContext,
	r: RouteRequest,
	source: Readable,
	headers: OutgoingHttpHeaders,
): Promise<void> {
	const file = ctx.tmp.file('.gz');
	try {
		await pipeline(source, createGzip(), createWriteStream(file));
		const { size } = await fsp.stat(file);
		r.res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': String(size) });
		await pipeline(createReadStream(file), r.res).catch(() => undefined);
	} finally {
		await removeQuietly(file);
	}
}

/**
 * Headers with the full Content-Length, then only the first `fault.bytes` bytes. truncate then
 * destroys the socket (a cut connection); stall leaves it open and silent, until the client
 * gives up or stop() destroys every socket.
 */
export async function sendPrefix(
	r: RouteRequest,
	source: Readable,
	headers: OutgoingHttpHeaders,
	fault: Extract<CdnFault, { kind: 'truncate' | 'stall' }>,
): Promise<void> {
	r.res.writeHead(200, headers);
	r.res.flushHeaders();
	let left = fault.bytes;
	if (left > 0) {
		// Breaking out of for-await destroys the source, which releases the file's blobs.
		for await (const chunk of source as AsyncIterable<Buffer>) {
			const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
			left -= piece.length;
			await new Promise<void>((resolve) => r.res.write(piece, () => resolve()));
			if (left === 0) break;
		}
	} else source.destroy();
	const socket = r.res.socket;
	if (!socket || socket.destroyed) return;
	// destroy() drops writes still queued; an empty write completes only after all earlier ones.
	await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
	if (fault.kind === 'truncate') socket.destroy();
}
