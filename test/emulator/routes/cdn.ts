import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import type { RouteRequest, ServerContext } from '../context';
import { HttpError, notFound } from '../http';
import { decodeKeyPath, keyProblem } from '../keys';
import { openObject } from '../storage';
import { checkSignedUrl } from '../signed-url';
import { checkTransformation, printable } from '../transformations';
import { sendCached } from './cdn-cache';
import { acceptsGzip, echoUrl, redirect, sendCloseDelimited, sendGzip, sendPrefix, type CdnFault } from './cdn-faults';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface CdnTarget {
	key: string;
	/** The transformation segment (§3.11), decoded, when the path has one. */
	transformation?: string;
}

/**
 * What `/f/<access id>/[<transformation>/]<key>` names; undefined when it names no key. The first
 * segment after the access id is a transformation only when it has a transformation's shape and
 * a key follows it; otherwise it is the key's first segment (see transformations.ts).
 */
function targetOfPath(rawPath: string, accessId: string): CdnTarget | undefined {
	let path: string;
	try {
		// Node gives us latin1; a client may have sent raw UTF-8 bytes rather than escapes.
		path = utf8.decode(Buffer.from(rawPath, 'latin1'));
	} catch {
		return undefined;
	}
	// `/f/` or, after a redirect fault, `/r/`: both prefixes are three characters.
	const rest = path.slice('/f/'.length);
	const slash = rest.indexOf('/');
	if (slash === -1) return undefined;
	if (decodeKeyPath(rest.slice(0, slash)) !== accessId) return undefined;
	const keyPath = rest.slice(slash + 1);
	const next = keyPath.indexOf('/');
	const first = next === -1 ? undefined : decodeKeyPath(keyPath.slice(0, next));
	const check = first === undefined || next === keyPath.length - 1 ? undefined : checkTransformation(first);
	if (check && !check.ok) {
		throw new HttpError(400, {
			error: 'Validation failed',
			details: [{ field: 'transformation', message: check.message }],
		});
	}
	const key = decodeKeyPath(check ? keyPath.slice(next + 1) : keyPath);
	if (key === undefined || keyProblem(key) !== undefined) return undefined;
	return check ? { key, transformation: check.segment } : { key };
}

/** §3.9: public bytes as they are; private bytes only through a valid signed URL [ours]. */
export async function cdn(ctx: ServerContext, r: RouteRequest, fault?: CdnFault): Promise<void> {
	if (fault?.kind === 'redirect') return redirect(ctx, r);
	if (fault?.kind === 'echoUrl') return echoUrl(ctx, r);
	const named = targetOfPath(r.target.path, ctx.config.accessId);
	if (named === undefined) throw notFound('File not found');
	const { key, transformation } = named;
	// A cached answer is served without looking at the store: that is what makes it stale. Only
	// plain locations are cached [ours]: a transformed answer is made afresh every time.
	const cacheable = !fault && transformation === undefined;
	const cached = cacheable ? ctx.cdnCache.get(key) : undefined;
	if (cached) return sendCached(r.res, r.req.method, cached, ctx.config.now());
	const opened = openObject(ctx.objects, () => ctx.objects.findAnywhere(key));
	if (!opened) throw notFound('File not found');
	const { meta } = opened;
	try {
		if (meta.visibility === 'private' && transformation !== undefined) {
			// [ours] The service does not publish whether a signed link allows a transformation.
			throw new HttpError(403, {
				error: 'Forbidden',
				message: 'Transformations are served for public files only; a private file is served as stored',
			});
		}
		if (meta.visibility === 'private') {
			const q = r.target.query;
			const check = checkSignedUrl(
				ctx.config.secretKey,
				ctx.config.accessId,
				key,
				q.values.get('expires'),
				q.values.get('signature'),
				ctx.config.now(),
			);
			if (!check.ok) throw new HttpError(403, { error: 'Forbidden', message: check.message });
		}
		if (ctx.latencyMs > 0) await sleep(ctx.latencyMs);
		const headers: Record<string, string> = {
			'Content-Type': meta.contentType,
			'Content-Length': String(meta.size),
			'Last-Modified': new Date(meta.lastModified).toUTCString(),
			'Cache-Control': meta.visibility === 'public' ? 'public, max-age=60' : 'private, no-store',
		};
		if (transformation !== undefined) headers['X-Emulator-Transformation'] = printable(transformation);
		// A CDN that compresses says the answer depends on the request's Accept-Encoding.
		if (fault?.kind === 'gzip') headers.Vary = 'Accept-Encoding';
		if (meta.visibility === 'public' && ctx.cdnCache.enabled && cacheable) {
			return await sendAndKeep(ctx, r, key, opened.stream(), headers);
		}
		if (r.req.method === 'HEAD') {
			r.res.writeHead(200, headers);
			r.res.end();
			return;
		}
		if (fault?.kind === 'truncate' || fault?.kind === 'stall')
			return await sendPrefix(r, opened.stream(), headers, fault);
		if (fault?.kind === 'closeDelimited') return await sendCloseDelimited(r, opened.stream(), headers, fault.bytes);
		if (fault?.kind === 'gzip' && acceptsGzip(r.req.headers['accept-encoding'])) {
			return await sendGzip(ctx, r, opened.stream(), headers);
		}
		r.res.writeHead(200, headers);
		// A client leaving mid-download is its business; the blobs are released either way.
		await pipeline(opened.stream(), r.res).catch(() => undefined);
	} finally {
		opened.release();
	}
}

/** A public answer the cache keeps: read whole (the cache holds bytes), kept, then sent. */
async function sendAndKeep(
	ctx: ServerContext,
	r: RouteRequest,
	key: string,
	stream: NodeJS.ReadableStream,
	headers: Record<string, string>,
): Promise<void> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	const body = Buffer.concat(chunks);
	ctx.cdnCache.keep(key, headers, body);
	r.res.writeHead(200, { ...headers, 'X-Cache': 'MISS' });
	r.res.end(r.req.method === 'HEAD' ? undefined : body);
}
