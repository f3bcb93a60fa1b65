import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import type { Item } from '../item';
import { PartBodyPool, type FileForm, type FormEnvelope } from '../transport/formData';
import { FILES_IN_JSON, filesInJson, isBinaryObject, isCombinedBinaryMode } from './binaryMode';

type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** The input file of one item: where its bytes are and how many there are. */
export interface BinarySource {
	field: string;
	fileName?: string;
	mimeType: string;
	size: number;
	/** Set when n8n stores the bytes outside the item (filesystem, database, S3 mode). */
	id?: string;
	/** Set when the bytes travel inline as base64 (e.g. made by a Code node). */
	inline?: Buffer;
}

/**
 * The file 'Input Binary Field' points at, as n8n's own assertBinaryData finds it: a field name
 * (separate mode: `item.binary`), a path into the item's JSON such as `_files.data` or just `data`
 * (combined mode), or a binary object an expression resolved to (either mode). n8n 1.x's
 * assertBinaryData takes only a field name and its messages list nothing, hence our own lookup.
 */
export async function resolveBinarySource(item: Item, parameter: unknown): Promise<BinarySource> {
	const { binary, field } = findBinary(item, item.input(), parameter);
	const mimeType = binary.mimeType || 'application/octet-stream';
	if (binary.id) {
		const { fileSize } = await item.ctx.helpers.getBinaryMetadata(binary.id);
		return { field, fileName: binary.fileName, mimeType, size: fileSize, id: binary.id };
	}
	const inline = Buffer.from(binary.data ?? '', BINARY_ENCODING);
	return { field, fileName: binary.fileName, mimeType, size: inline.length, inline };
}

function findBinary(
	at: Item,
	item: INodeExecutionData | undefined,
	parameter: unknown,
): { binary: IBinaryData; field: string } {
	if (isBinaryObject(parameter)) return { binary: parameter, field: whereIs(item, parameter) };
	if (typeof parameter !== 'string') {
		throw at.fail(
			"The parameter 'Input Binary Field' is neither the name of a binary field nor a file",
			`It is ${describeValue(parameter)}. Enter a field name such as 'data', or an expression that gives the file itself, e.g. {{ $json._files.data }} or {{ $binary.data }}.`,
		);
	}
	const name = parameter.trim();
	if (!name) {
		throw at.fail(
			"The parameter 'Input Binary Field' is empty",
			"Enter the name of the binary field that holds the file, usually 'data'.",
		);
	}
	const combined = isCombinedBinaryMode(at.ctx);
	const binary = combined ? inCombinedItem(item, name) : item?.binary?.[name];
	if (binary) return { binary, field: name };
	const available = combined
		? [...Object.keys(filesInJson(item)).map((f) => `${FILES_IN_JSON}.${f}`), ...Object.keys(item?.binary ?? {})]
		: Object.keys(item?.binary ?? {});
	const where = combined ? ` (this workflow keeps files in the item's JSON under '${FILES_IN_JSON}')` : '';
	throw at.fail(
		`The input item has no binary field '${name}' (parameter 'Input Binary Field')`,
		available.length
			? `Binary fields on this item${where}: ${available.map((f) => `'${f}'`).join(', ')}. Set 'Input Binary Field' to one of them.`
			: `This item carries no binary data at all${where}. Put a node that produces a file (e.g. Read/Write Files from Disk, HTTP Request) before this one.`,
	);
}

/**
 * Combined mode: `data` and `_files.data` both mean the file under `_files`; any other path is
 * read from the item's JSON, as n8n's assertBinaryData does. A binary still on `item.binary`
 * (pinned data skips n8n's conversion) counts too.
 */
function inCombinedItem(item: INodeExecutionData | undefined, name: string): IBinaryData | undefined {
	const files = filesInJson(item);
	const prefix = `${FILES_IN_JSON}.`;
	const candidates = [
		files[name],
		name.startsWith(prefix) ? files[name.slice(prefix.length)] : undefined,
		valueAtPath(item?.json, name),
		item?.binary?.[name],
	];
	return candidates.find(isBinaryObject);
}

/** `a.b[0]['c d']` into the item's JSON; undefined where it leads nowhere. */
function valueAtPath(root: unknown, path: string): unknown {
	const segments = [...path.matchAll(/[^.[\]]+|\[(?:'([^']*)'|"([^"]*)"|(\d+))\]/g)].map(
		(match) => match[1] ?? match[2] ?? match[3] ?? match[0],
	);
	let value = root;
	for (const segment of segments) {
		if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, segment)) {
			return undefined;
		}
		value = (value as Record<string, unknown>)[segment];
	}
	return value;
}

/** Names a file an expression handed over by where it sits on the item, for messages. */
function whereIs(item: INodeExecutionData | undefined, binary: IBinaryData): string {
	const same = (other: IBinaryData) =>
		other === binary || (binary.id ? other.id === binary.id : other.data === binary.data);
	const inBinary = Object.entries(item?.binary ?? {}).find(([, other]) => same(other));
	if (inBinary) return inBinary[0];
	const inJson = Object.entries(filesInJson(item)).find(([, other]) => same(other));
	if (inJson) return `${FILES_IN_JSON}.${inJson[0]}`;
	return binary.fileName ? `(expression: ${binary.fileName})` : '(expression)';
}

function describeValue(value: unknown): string {
	if (value === null || value === undefined) return 'empty';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object')
		return `an object with the keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}, not a file`;
	return `a ${typeof value}`;
}

export function assertNotEmpty(item: Item, source: BinarySource): void {
	if (source.size === 0) {
		throw item.fail(
			`The file in binary field '${source.field}' is empty (0 bytes)`,
			'There is nothing to upload. Check the step that produced the file.',
		);
	}
}

/**
 * The whole file as one form body, read straight into it: memory is the file's size
 * once. Only for sizes the caller has bounded (single-request uploads, single parts).
 */
export async function readAsForm(item: Item, source: BinarySource, envelope: FormEnvelope): Promise<FileForm> {
	const body = new PartBodyPool(envelope, source.size, 1);
	let form: FileForm | undefined;
	let parts = 0;
	for await (const bytes of readParts(item.ctx, source, source.size, () => body.take())) {
		parts += 1;
		form = body.form(bytes);
	}
	if (!form || parts !== 1 || form.body.length !== envelope.head.length + source.size + envelope.tail.length) {
		throw item.fail(
			`The file in binary field '${source.field}' is not ${source.size} bytes long as recorded`,
			'The binary data changed or is damaged; nothing was stored.',
		);
	}
	return form;
}

/** Read size from n8n's binary store: small reads keep the stream's own buffering small. */
const READ_CHUNK_SIZE = 1024 * 1024;

/** A file read stream, as n8n's filesystem store returns: every read lands in a new buffer of its own. */
export function isFileReadStream(stream: unknown): boolean {
	const candidate = stream as unknown as { constructor?: { name?: string }; bytesRead?: unknown };
	return candidate.constructor?.name === 'ReadStream' && typeof candidate.bytesRead === 'number';
}

/**
 * Frees a read buffer once its bytes are copied out, instead of when the garbage collector gets
 * to it. V8 counts buffer memory allocated since its last full collection against the heap's
 * limit, and an upload allocates few other objects, so the reads alone started a full
 * collection of n8n's whole heap every 20 MiB or so (25 per 512 MiB, a third of the upload's
 * time: BENCHMARKS.md). Only for buffers that were handed over and that nothing else refers to: a
 * file read stream's reads, the chunks of a response body (see ChunkRules.chunksAreItsOwn). A
 * buffer that does not span all of its memory is a view on something else and is left alone.
 * `transfer` exists from Node.js 21 on (n8n 2.x runs on 24); on older runtimes the collector
 * frees it as before.
 */
export function releaseReadBuffer(chunk: Buffer, readSize: number): void {
	const memory = chunk.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
	if (typeof memory.transfer !== 'function') return;
	if (chunk.byteOffset !== 0 || chunk.byteLength !== memory.byteLength || chunk.byteLength > readSize) return;
	memory.transfer(0);
}

/**
 * Copies a stream of chunks into parts of exactly `partSize` bytes (the last one shorter), each
 * written into the buffer `nextPart()` hands out. The next chunk is asked for only once the last
 * one is copied, so a source may reuse or free a chunk as soon as it is asked for the next.
 */
export async function* splitIntoParts(
	chunks: AsyncIterable<Buffer>,
	partSize: number,
	nextPart: () => Buffer,
): AsyncGenerator<Buffer> {
	// Either would copy nothing and never fill a part: a loop that never ends, not an error.
	if (!Number.isInteger(partSize) || partSize <= 0) {
		throw new Error(`splitIntoParts: the part size must be a whole number of bytes above 0 (got ${partSize})`);
	}
	let target: Buffer | undefined;
	let filled = 0;
	for await (const chunk of chunks) {
		let offset = 0;
		while (offset < chunk.length) {
			target ??= nextPart();
			const copied = chunk.copy(target, filled, offset, Math.min(chunk.length, offset + partSize - filled));
			// A buffer shorter than a part is fine for a source that fits in it (a small file gets
			// a body of its own size); more bytes than it holds would copy nothing, for ever.
			if (copied === 0) {
				throw new Error(
					`splitIntoParts: a part buffer of ${target.length} bytes cannot hold a part of ${partSize} bytes`,
				);
			}
			filled += copied;
			offset += copied;
			if (filled === partSize) {
				const part = target;
				target = undefined;
				filled = 0;
				yield part;
			}
		}
	}
	if (target && filled > 0) yield target.subarray(0, filled);
}

/** The chunks of a stored binary, failing once they run past its recorded size or end short of it. */
async function* storedChunks(
	ctx: IExecuteFunctions,
	source: BinarySource,
	stream: BinaryStream,
	readSize: number,
): AsyncGenerator<Buffer> {
	const ownsItsReads = isFileReadStream(stream);
	let total = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		total += chunk.length;
		if (total > source.size) {
			// Reading on would send parts past the count announced at Start.
			throw new NodeOperationError(
				ctx.getNode(),
				`The file in binary field '${source.field}' is longer than its recorded ${source.size} bytes`,
				{ description: 'The binary data changed while it was read.' },
			);
		}
		yield chunk;
		// Resumed only when the next chunk is asked for: this one is copied by then.
		if (ownsItsReads) releaseReadBuffer(chunk, readSize);
	}
	if (total < source.size) {
		// Completing would store a file cut short of what the item says it holds.
		throw new NodeOperationError(
			ctx.getNode(),
			`The file in binary field '${source.field}' is shorter than its recorded ${source.size} bytes: it ended after ${total} bytes`,
			{ description: 'The binary data changed or is damaged.' },
		);
	}
}

/**
 * Yields the file as parts of exactly `partSize` bytes (the last one shorter), each
 * written into the buffer `nextPart()` hands out, reading no more than one chunk
 * ahead. Stored binaries stream from n8n's binary store.
 */
export async function* readParts(
	ctx: IExecuteFunctions,
	source: BinarySource,
	partSize: number,
	nextPart: () => Buffer,
): AsyncGenerator<Buffer> {
	if (source.inline) {
		for (let offset = 0; offset < source.inline.length; offset += partSize) {
			const target = nextPart();
			const copied = source.inline.copy(target, 0, offset, Math.min(offset + partSize, source.inline.length));
			yield target.subarray(0, copied);
		}
		return;
	}
	const readSize = Math.min(partSize, READ_CHUNK_SIZE);
	const stream: BinaryStream = await ctx.helpers.getBinaryStream(source.id as string, readSize);
	try {
		yield* splitIntoParts(storedChunks(ctx, source, stream, readSize), partSize, nextPart);
	} finally {
		stream.destroy();
	}
}
