import { randomBytes } from 'crypto';

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
		const body = this.owner(bytes);
		const { head, tail, contentType } = this.envelope;
		tail.copy(body, head.length + bytes.length);
		return { body: body.subarray(0, head.length + bytes.length + tail.length), contentType };
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
