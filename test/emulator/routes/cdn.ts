import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import type { RouteRequest, ServerContext } from '../context';
import { HttpError, notFound } from '../http';
import { decodeKeyPath, keyProblem } from '../keys';
import { openObject } from '../storage';
import { checkSignedUrl } from '../signed-url';
import { acceptsGzip, echoUrl, redirect, sendCloseDelimited, sendGzip, sendPrefix, type CdnFault } from './cdn-faults';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The key named by `/f/<access id>/<key>`, or undefined when the path names none. */
function keyFromPath(rawPath: string, accessId: string): string | undefined {
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
	const key = decodeKeyPath(rest.slice(slash + 1));
	return key !== undefined && keyProblem(key) === undefined ? key : undefined;
}

/** §3.9: public bytes as they are; private bytes only through a valid signed URL [ours]. */
export async function cdn(ctx: ServerContext, r: RouteRequest, fault?: CdnFault): Promise<void> {
	if (fault?.kind === 'redirect') return redirect(ctx, r);
	if (fault?.kind === 'echoUrl') return echoUrl(ctx, r);
	const key = keyFromPath(r.target.path, ctx.config.accessId);
	if (key === undefined) throw notFound('File not found');
	const opened = openObject(ctx.objects, () => ctx.objects.findAnywhere(key));
	if (!opened) throw notFound('File not found');
	const { meta } = opened;
	try {
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
		// A CDN that compresses says the answer depends on the request's Accept-Encoding.
		if (fault?.kind === 'gzip') headers.Vary = 'Accept-Encoding';
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
