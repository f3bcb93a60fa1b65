/**
 * n8n's real filesystem binary store (BinaryDataService in `filesystem` mode under the harness
 * temp folder), so `helpers.getBinaryStream(id, chunkSize)` and `prepareBinaryData` in a node
 * take the same code path as in n8n.
 */
import './env';

import { Container } from '@n8n/di';
import { BinaryDataService, prepareBinaryData } from 'n8n-core';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';

import type { HarnessBinaryInput } from './types';

// The copy of mime-types n8n-core itself resolves, so lookups agree with n8n's.
const mimeTypes = createRequire(require.resolve('n8n-core'))('mime-types') as {
	lookup(path: string): string | false;
};

let service: Promise<BinaryDataService> | undefined;

export async function getBinaryDataService(): Promise<BinaryDataService> {
	service ??= (async () => {
		const binaryDataService = Container.get(BinaryDataService);
		await binaryDataService.init();
		return binaryDataService;
	})();
	return await service;
}

/**
 * Same lookup by extension as n8n, but an unknown type becomes opaque bytes rather than n8n's
 * text/plain fallback for streams, and a Buffer is never sniffed with the ESM-only `file-type`
 * (jest cannot import it without --experimental-vm-modules).
 */
function mimeTypeFor(fileName: string | undefined, mimeType: string | undefined): string {
	return mimeType || (fileName && mimeTypes.lookup(fileName)) || 'application/octet-stream';
}

export interface StoreOptions {
	fileName?: string;
	mimeType?: string;
	/** Where the file goes in the store; runNode uses the run's own workflow and execution. */
	workflowId?: string;
	executionId?: string;
}

/**
 * Stores bytes or a file (streamed, never read whole) the way an upstream node's
 * `prepareBinaryData` does, and returns the item's binary entry (with an `id`).
 */
export async function storeBinary(
	source: Buffer | { filePath: string },
	options: StoreOptions = {},
): Promise<IBinaryData> {
	await getBinaryDataService();
	const fileName = options.fileName ?? (Buffer.isBuffer(source) ? undefined : basename(source.filePath));
	const mimeType = mimeTypeFor(fileName, options.mimeType);
	return await prepareBinaryData(
		Buffer.isBuffer(source) ? source : createReadStream(source.filePath),
		options.executionId ?? 'harness',
		options.workflowId ?? 'harness',
		fileName,
		mimeType,
	);
}

/** Convenience for tests that want a stored binary without running a node. */
export async function storeBinaryFile(filePath: string, options: StoreOptions = {}) {
	return await storeBinary({ filePath }, options);
}

// Tests reuse the same large fixture file across many runs; copying 1 GiB into the store every
// time costs seconds and disk. A stored copy is only ever read by nodes, so share it while the
// file is unchanged.
const storedFiles = new Map<string, Promise<IBinaryData>>();

function fileCacheKey(filePath: string, input: HarnessBinaryInput): string {
	const { size, mtimeMs, ino } = statSync(filePath);
	return JSON.stringify([filePath, size, mtimeMs, ino, input.fileName, input.mimeType]);
}

/** Turns a test's binary description into what an item carries in n8n. */
export async function toItemBinary(
	input: HarnessBinaryInput,
	location: { workflowId: string; executionId: string },
): Promise<IBinaryData> {
	if (input.stored) return { ...input.stored };
	if ((input.data === undefined) === (input.filePath === undefined)) {
		throw new Error('A harness binary needs exactly one of `stored`, `data` or `filePath`');
	}
	const options = { fileName: input.fileName, mimeType: input.mimeType, ...location };

	if (input.base64Inline) {
		const bytes = input.data ?? readFileSync(input.filePath!);
		const fileName = input.fileName ?? (input.filePath && basename(input.filePath));
		const inline: IBinaryData = {
			data: bytes.toString(BINARY_ENCODING),
			mimeType: mimeTypeFor(fileName, input.mimeType),
		};
		if (fileName) inline.fileName = fileName;
		return inline;
	}

	if (input.data) return await storeBinary(input.data, options);

	const filePath = input.filePath!;
	const key = fileCacheKey(filePath, input);
	let stored = storedFiles.get(key);
	if (!stored) {
		stored = storeBinary({ filePath }, options);
		stored.catch(() => storedFiles.delete(key));
		storedFiles.set(key, stored);
	}
	// Each item gets its own object, as after n8n copies items between nodes.
	return { ...(await stored) };
}

function binaryOf(item: INodeExecutionData, field: string): IBinaryData {
	// Combined binary mode (n8n 2.x): n8n-core moves a node's output binaries to json._files.
	const files = (item.json?._files ?? {}) as Record<string, IBinaryData>;
	const binary = item.binary?.[field] ?? files[field];
	if (!binary) {
		const fields = [...Object.keys(item.binary ?? {}), ...Object.keys(files).map((name) => `_files.${name}`)];
		throw new Error(`Item has no binary field "${field}" (has: ${fields.join(', ') || 'none'})`);
	}
	return binary;
}

export async function readBinary(item: INodeExecutionData, field = 'data'): Promise<Buffer> {
	const binary = binaryOf(item, field);
	if (!binary.id) return Buffer.from(binary.data, BINARY_ENCODING);
	return await (await getBinaryDataService()).getAsBuffer(binary);
}

export async function binarySha256(item: INodeExecutionData, field = 'data'): Promise<string> {
	const binary = binaryOf(item, field);
	const hash = createHash('sha256');
	if (!binary.id) {
		hash.update(Buffer.from(binary.data, BINARY_ENCODING));
	} else {
		const stream = await (await getBinaryDataService()).getAsStream(binary.id);
		for await (const chunk of stream) hash.update(chunk as Buffer);
	}
	return hash.digest('hex');
}
