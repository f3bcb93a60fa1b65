import { randomBytes } from 'crypto';

import type { RunPool } from './pool';

/**
 * multipart/form-data bodies with one file field `file`, as the service's SDK sends
 * them, built as single Buffers: a Buffer (unlike a stream) can be re-sent on retry and
 * has a known length.
 */
export interface FileForm {
	body: Buffer;
	contentType: string;
}

/** What goes before and after the file bytes; one per upload. */
export interface FormEnvelope {
	head: Buffer;
	tail: Buffer;
	contentType: string;
}

function asciiFallback(fileName: string): string {
	// Quotes, backslashes and line breaks would end the header parameter early.
	return fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

/** RFC 5987 value: encodeURIComponent leaves ' ( ) * ! alone, but ' delimits the charset. */
function extendedValue(fileName: string): string {
	return encodeURIComponent(fileName).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function formEnvelope(fileName: string, fileContentType: string): FormEnvelope {
	const boundary = `----n8nFileStorage${randomBytes(12).toString('hex')}`;
	const safeType = fileContentType.replace(/[\r\n]/g, '') || 'application/octet-stream';
	const head = Buffer.from(
		`--${boundary}\r\n` +
			`Content-Disposition: form-data; name="file"; filename="${asciiFallback(fileName)}"; filename*=UTF-8''${extendedValue(fileName)}\r\n` +
			`Content-Type: ${safeType}\r\n\r\n`,
		'utf8',
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
	return { head, tail, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Request bodies for the parts of one upload, reused from a fixed pool: each buffer is
 * head + partSize + tail bytes with the head written once, the part is read straight
 * into the middle, and the tail goes right after it. No part-sized buffer is allocated
 * per part, so memory stays at `size` buffers and the garbage collector has nothing big
 * to chase.
 */
export class PartBodyPool {
	private readonly free: Buffer[] = [];
	private readonly byMemory = new Map<ArrayBufferLike, Buffer>();

	constructor(
		private readonly envelope: FormEnvelope,
		private readonly partSize: number,
		private readonly size: number,
	) {}

	/** Space for the next part's bytes: a view into a pooled body, right after its head. */
	take(): Buffer {
		let body = this.free.pop();
		if (!body) {
			if (this.byMemory.size >= this.size) throw new Error('part body pool exhausted');
			const { head, tail } = this.envelope;
			body = Buffer.allocUnsafeSlow(head.length + this.partSize + tail.length);
			head.copy(body, 0);
			this.byMemory.set(body.buffer, body);
		}
		return body.subarray(this.envelope.head.length, this.envelope.head.length + this.partSize);
	}

	/** The request body for `bytes`, a view that `take` handed out (possibly shortened). */
	form(bytes: Buffer): FileForm {
		return closeForm(this.owner(bytes), bytes.length, this.envelope);
	}

	/** Returns the body of `bytes` to the pool once its request has settled. */
	release(bytes: Buffer): void {
		this.free.push(this.owner(bytes));
	}

	private owner(bytes: Buffer): Buffer {
		const body = this.byMemory.get(bytes.buffer);
		if (!body) throw new Error('buffer does not belong to this pool');
		return body;
	}
}

/** Room for a form's head and tail in a shared body buffer; a longer envelope gets a buffer of its own size. */
const ENVELOPE_ROOM = 4096;

/**
 * The part bodies of one upload in a node run that shares one memory budget (version 3): each
 * body is reserved from the run's pool right before its part is read (`ready`), taken while the
 * part is read (`take`), and given back once its request settled, for the next part of any upload.
 * The budget counts the part bytes; each body has up to 4 KiB of form envelope on top.
 */
export class SharedPartBodies {
	private readonly out = new Map<ArrayBufferLike, Buffer>();
	private readyCount = 0;
	private readonly capacity: number;

	constructor(
		private readonly pool: RunPool,
		private readonly envelope: FormEnvelope,
		private readonly partSize: number,
	) {
		const room = envelope.head.length + envelope.tail.length;
		this.capacity = partSize + (room <= ENVELOPE_ROOM ? ENVELOPE_ROOM : room);
	}

	/** Waits until the budget has room for one more body. */
	async ready(): Promise<void> {
		await this.pool.reserve(this.partSize, true);
		this.readyCount += 1;
	}

	/** A reservation `ready` made that no part used (the source ended). */
	unused(): void {
		while (this.readyCount > 0) {
			this.readyCount -= 1;
			this.pool.unreserve(this.partSize);
		}
	}

	/** At the end of the upload: every body and reservation still held goes back, whatever failed. */
	close(): void {
		this.unused();
		for (const body of this.out.values()) this.pool.returnBody(body, this.partSize);
		this.out.clear();
	}

	take(): Buffer {
		if (this.readyCount === 0) throw new Error('part body taken without a reservation');
		this.readyCount -= 1;
		const body = this.pool.bodyBuffer(this.capacity);
		this.envelope.head.copy(body, 0);
		this.out.set(body.buffer, body);
		return body.subarray(this.envelope.head.length, this.envelope.head.length + this.partSize);
	}

	form(bytes: Buffer): FileForm {
		return closeForm(this.owner(bytes), bytes.length, this.envelope);
	}

	release(bytes: Buffer): void {
		const body = this.owner(bytes);
		this.out.delete(body.buffer);
		this.pool.returnBody(body, this.partSize);
	}

	private owner(bytes: Buffer): Buffer {
		const body = this.out.get(bytes.buffer);
		if (!body) throw new Error('buffer does not belong to this upload');
		return body;
	}
}

/** Writes the envelope's tail after `length` bytes of a pooled body: the body, ready to send. */
function closeForm(body: Buffer, length: number, envelope: FormEnvelope): FileForm {
	const { head, tail, contentType } = envelope;
	tail.copy(body, head.length + length);
	return { body: body.subarray(0, head.length + length + tail.length), contentType };
}
