import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CdnHeaders } from '../files/proof';
import type { Item } from '../item';
import { PartBodyPool, type FileForm, type FormEnvelope } from '../transport/formData';
import { readParts, type BinarySource } from './binaryInput';

export type SourceKind = 'binary' | 'url' | 'text';

/** Where the bytes of an upload come from, read once, part by part. */
export interface UploadSource {
	kind: SourceKind;
	/** The source in error messages, e.g. "binary field 'data'", "the source URL 'https://…/a.mp4'". */
	label: string;
	fileName?: string;
	mimeType: string;
	/** Undefined when it is only known once read (a URL without Content-Length). */
	size?: number;
	/** A URL source's answer headers that say which version it is (Copy and Move judge them: files/proof.ts). */
	cdnHeaders?: CdnHeaders;
	/** The bytes as parts of exactly `partSize` (the last one shorter), in buffers `nextPart` hands out. */
	parts(partSize: number, nextPart: () => Buffer): AsyncGenerator<Buffer>;
	/** Lets go of a source that will not be read (a check failed after it was opened). */
	discard(): void;
	/** What the output says about the source: `source`, and `url` for a URL. */
	output: IDataObject;
}

export function binaryUploadSource(ctx: IExecuteFunctions, source: BinarySource): UploadSource {
	return {
		kind: 'binary',
		label: `binary field '${source.field}'`,
		fileName: source.fileName,
		mimeType: source.mimeType,
		size: source.size,
		parts: (partSize, nextPart) => readParts(ctx, source, partSize, nextPart),
		discard: () => {},
		output: { source: 'binary' },
	};
}

/**
 * Text typed in the node (or the item's JSON) as a source: its UTF-8 bytes go through the same
 * part reader, threshold and memory bound as an inline binary field.
 */
export function textUploadSource(
	ctx: IExecuteFunctions,
	text: { content: string; label: string; fileName?: string; mimeType: string; itemJson: boolean },
): UploadSource {
	const inline = Buffer.from(text.content, 'utf8');
	const source = { field: text.label, fileName: text.fileName, mimeType: text.mimeType, size: inline.length, inline };
	return {
		kind: 'text',
		label: text.label,
		fileName: text.fileName,
		mimeType: text.mimeType,
		size: inline.length,
		parts: (partSize, nextPart) => readParts(ctx, source, partSize, nextPart),
		discard: () => {},
		output: { source: text.itemJson ? 'itemJson' : 'text' },
	};
}

/**
 * A source of known size as one form body, read straight into it: memory is its size once.
 * Only for sizes the caller has bounded (single-request uploads).
 */
export async function readWholeAsForm(
	item: Item,
	source: UploadSource & { size: number },
	envelope: FormEnvelope,
): Promise<FileForm> {
	const body = new PartBodyPool(envelope, source.size, 1);
	let form: FileForm | undefined;
	let parts = 0;
	// An empty file (a copy of one, a folder marker) has no part to read: its body is the envelope.
	const spare = Buffer.alloc(1);
	for await (const bytes of source.parts(Math.max(source.size, 1), () => (source.size ? body.take() : spare))) {
		parts += 1;
		form = source.size ? body.form(bytes) : undefined;
	}
	if (source.size === 0 && parts === 0) form = body.form(body.take());
	else if (parts !== 1) form = undefined;
	if (!form || form.body.length !== envelope.head.length + source.size + envelope.tail.length) {
		throw item.fail(
			`${atStart(source)} is not ${source.size} bytes long as recorded`,
			'The data changed or is damaged; nothing was stored.',
		);
	}
	return form;
}

/** The source's label at the start of a message. */
export function atStart(source: UploadSource): string {
	return source.label.charAt(0).toUpperCase() + source.label.slice(1);
}
