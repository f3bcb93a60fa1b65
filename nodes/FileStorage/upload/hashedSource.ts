import { createHash } from 'node:crypto';

import type { UploadSource } from './uploadSource';

export interface HashedSource extends UploadSource {
	/** Bytes read so far and their MD5 (hex), complete once the parts are read. */
	digest(): { bytes: number; md5: string };
}

/**
 * The source with an MD5 of the bytes as they pass: each part is hashed before it is sent, so
 * the hash is of exactly what was stored, without a second read.
 */
export function hashedSource(source: UploadSource): HashedSource {
	const hash = createHash('md5');
	let bytes = 0;
	let md5: string | undefined;
	return {
		...source,
		parts: async function* (partSize, nextPart) {
			for await (const part of source.parts(partSize, nextPart)) {
				hash.update(part);
				bytes += part.length;
				yield part;
			}
		},
		digest: () => {
			md5 ??= hash.digest('hex');
			return { bytes, md5 };
		},
	};
}

/**
 * Whether an ETag is an MD5 of the whole file: a quoted 32-digit hex ETag is, on S3-like stores,
 * for a file stored in one request. A multipart ETag ("…-3") or any other form says nothing
 * about the bytes, so it is not compared.
 */
export function etagMd5(etag: string | null | undefined): string | undefined {
	const match = /^(?:W\/)?"?([0-9a-f]{32})"?$/i.exec(String(etag ?? '').trim());
	return match && !String(etag).startsWith('W/') ? match[1].toLowerCase() : undefined;
}

/** Reads a source to its end, hashing it through one reused buffer of `chunkBytes` (bounded memory). */
export async function digestWhole(source: UploadSource, chunkBytes: number): Promise<{ bytes: number; md5: string }> {
	const hashed = hashedSource(source);
	const buffer = Buffer.allocUnsafe(chunkBytes);
	for await (const part of hashed.parts(chunkBytes, () => buffer)) void part;
	return hashed.digest();
}
