import busboy from 'busboy';
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { removeQuietly } from './fsutil';
import { bodyGone, ClientAbortError } from './http';

/**
 * Streams the single `file` part of a multipart/form-data body to a temp file. Nothing is held
 * in memory beyond stream buffers; the caller commits the temp file only after the whole form
 * was parsed, so a dropped connection never yields an object.
 */

export interface ReceivedFile {
	tempFile: string;
	size: number;
	/** Lower-case hex, when asked for. */
	md5: string | undefined;
	/** The part's Content-Type as sent; application/octet-stream when the part has none. */
	contentType: string;
	filename: string | undefined;
}

export class FormError extends Error {}

export class BodyTooLargeError extends Error {
	constructor(readonly limit: number) {
		super(`Request body exceeds the limit of ${limit} bytes`);
	}
}

const HWM = 1 << 20;
/** Form headers of a sane client sit in the first few KiB; we look at most this far. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Counts request bytes against the body limit, and keeps the start of the body: busboy
 * reports a part without Content-Type as `text/plain` (RFC 7578's default), but the contract
 * wants `application/octet-stream` then, so we read the part headers ourselves.
 */
class BodyGate extends Transform {
	total = 0;
	private head: Buffer[] = [];
	private headBytes = 0;

	constructor(private readonly limit: number) {
		super({ highWaterMark: HWM });
	}

	_transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
		this.total += chunk.length;
		if (this.total > this.limit) return done(new BodyTooLargeError(this.limit));
		if (this.headBytes < SNIFF_BYTES) {
			this.head.push(chunk);
			this.headBytes += chunk.length;
		}
		done(null, chunk);
	}

	get start(): Buffer {
		return Buffer.concat(this.head).subarray(0, SNIFF_BYTES);
	}
}

class Measure extends Transform {
	size = 0;
	constructor(private readonly hash: Hash | undefined) {
		super({ highWaterMark: HWM });
	}
	_transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
		this.size += chunk.length;
		this.hash?.update(chunk);
		done(null, chunk);
	}
}

function boundaryOf(contentType: string): string | undefined {
	const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * The raw Content-Type header of the form part named `file`: a string, null when that part has
 * none, undefined when its headers are not within the sniffed bytes.
 */
export function filePartContentType(start: Buffer, boundary: string): string | null | undefined {
	const text = start.toString('latin1');
	const delimiter = `--${boundary}`;
	let at = text.indexOf(delimiter);
	while (at !== -1) {
		const headStart = at + delimiter.length + 2;
		const headEnd = text.indexOf('\r\n\r\n', headStart);
		if (headEnd === -1) return undefined;
		const head = text.slice(headStart, headEnd);
		if (/^content-disposition:[^\r\n]*;\s*name=("file"|file)\s*(;|\r|$)/im.test(head)) {
			const ct = /^content-type:[ \t]*([^\r\n]*?)[ \t]*$/im.exec(head);
			return ct && ct[1] !== '' ? ct[1] : null;
		}
		at = text.indexOf(delimiter, headEnd);
	}
	return undefined;
}

export async function receiveFile(
	req: IncomingMessage,
	options: { tempFile: string; maxBodyBytes: number; md5: boolean },
): Promise<ReceivedFile> {
	const contentType = req.headers['content-type'] ?? '';
	if (!/^multipart\/form-data\s*;/i.test(contentType) || !boundaryOf(contentType)) {
		throw new FormError('Request body must be multipart/form-data (with a boundary) holding a part named "file"');
	}
	const boundary = boundaryOf(contentType) as string;
	if (bodyGone(req)) throw new ClientAbortError('client closed the connection before its body was read');
	let parser: busboy.Busboy;
	try {
		parser = busboy({
			headers: req.headers,
			highWaterMark: HWM,
			fileHwm: HWM,
			preservePath: true,
			limits: { fieldSize: 64 * 1024, fields: 100, parts: 100 },
		});
	} catch (err) {
		throw new FormError(`Malformed multipart/form-data request: ${(err as Error).message}`);
	}

	const gate = new BodyGate(options.maxBodyBytes);
	let problem: string | undefined;
	let fileWrite: Promise<void> | undefined;
	let measure: Measure | undefined;
	let hash: Hash | undefined;
	let info: { filename?: string; mimeType: string } | undefined;
	let headerContentType: string | null | undefined;
	let writeError: Error | undefined;

	parser.on('file', (name, stream, details) => {
		if (name !== 'file' || fileWrite) {
			problem ??=
				name === 'file'
					? 'Exactly one part named "file" is allowed'
					: `Unexpected file part "${name}"; the file goes in a part named "file"`;
			stream.resume();
			return;
		}
		info = { filename: details.filename, mimeType: details.mimeType };
		headerContentType = filePartContentType(gate.start, boundary);
		hash = options.md5 ? createHash('md5') : undefined;
		measure = new Measure(hash);
		const out = createWriteStream(options.tempFile, { flags: 'wx', highWaterMark: HWM });
		// Only the file system's own errors (they carry a syscall); pipeline also destroys `out`
		// with upstream errors such as a malformed form, and those are the client's fault.
		out.on('error', (err: NodeJS.ErrnoException) => {
			if (err.syscall) writeError ??= err;
		});
		fileWrite = pipeline(stream, measure, out);
		// A failed disk write must stop the parser too, or busboy waits forever for the part's end.
		fileWrite.catch((err: Error) => gate.destroy(err));
	});
	parser.on('field', (name) => {
		if (name === 'file') problem ??= 'The part named "file" must be a file part (with a filename)';
	});

	// Not pipeline(req, ...): on a parse error or an oversized body that would destroy the
	// request and with it the socket, leaving no way to send the 400 or 413. Unpiped, the
	// request simply stops being read.
	let aborted = false;
	const onGone = () => {
		if (req.complete) return;
		aborted = true;
		gate.destroy(new ClientAbortError('client closed the connection mid-body'));
	};
	req.once('close', onGone);
	req.once('error', onGone);
	const parsed = pipeline(gate, parser);
	req.pipe(gate);
	try {
		await parsed;
		await fileWrite;
	} catch (err) {
		req.unpipe(gate);
		// Let the file pipeline settle before deleting what it wrote.
		await fileWrite?.catch(() => undefined);
		await removeQuietly(options.tempFile);
		if (aborted) throw new ClientAbortError('client closed the connection mid-body');
		if (err instanceof BodyTooLargeError) throw err;
		if (writeError) throw writeError;
		throw new FormError(`Malformed multipart/form-data body: ${(err as Error).message}`);
	} finally {
		req.off('close', onGone);
		req.off('error', onGone);
	}
	if (problem || !fileWrite || !measure || !info) {
		await removeQuietly(options.tempFile);
		throw new FormError(problem ?? 'The form has no file part named "file"');
	}
	return {
		tempFile: options.tempFile,
		size: measure.size,
		md5: hash?.digest('hex'),
		contentType: headerContentType === null ? 'application/octet-stream' : (headerContentType ?? info.mimeType),
		filename: info.filename,
	};
}
