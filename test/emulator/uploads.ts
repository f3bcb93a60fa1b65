import { randomUUID } from 'node:crypto';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { KeyedMutex, randomHex, readJsonSync, removeQuietly, TempDir, writeJsonAtomic } from './fsutil';
import type { Visibility } from './storage';

/**
 * Multipart uploads on disk, kept apart from objects until complete. Layout:
 *   `<dataDir>/uploads/<uploadId>/upload.json`        what start was told
 *   `<dataDir>/uploads/<uploadId>/part-<n>.json`      part sidecar: ETag, size, data file
 *   `<dataDir>/uploads/<uploadId>/part-<n>.<v>.bin`   part bytes
 * As for objects, a sidecar rename commits a part; unreferenced part files are crash debris.
 * Open uploads survive a restart with the same data dir.
 */

export interface UploadInfo {
	uploadId: string;
	fileId: string;
	bucket: string;
	region: string;
	key: string;
	mimeType: string;
	visibility: Visibility;
	totalParts: number | undefined;
	createdAt: string;
}

export interface PartInfo {
	partNumber: number;
	etag: string;
	size: number;
	file: string;
}

export interface Upload extends UploadInfo {
	parts: Map<number, PartInfo>;
	/** False once complete or cancel has claimed it; late part writes are then refused. */
	open: boolean;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;

export class UploadGoneError extends Error {
	constructor() {
		super('multipart upload no longer exists');
	}
}

export class UploadStore {
	private readonly uploads = new Map<string, Upload>();
	/** One lock per upload: part commits, complete and cancel are short metadata steps. */
	private readonly lock = new KeyedMutex();

	constructor(
		private readonly root: string,
		private readonly tmp: TempDir,
	) {}

	async init(): Promise<void> {
		await fsp.mkdir(this.root, { recursive: true });
		for (const id of await fsp.readdir(this.root)) {
			const dir = path.join(this.root, id);
			const info = UPLOAD_ID.test(id) ? readJsonSync<UploadInfo>(path.join(dir, 'upload.json')) : undefined;
			if (!info || info.uploadId !== id) {
				await removeQuietly(dir);
				continue;
			}
			const upload: Upload = { ...info, parts: new Map(), open: true };
			const names = await fsp.readdir(dir);
			for (const n of names.filter((x) => /^part-\d+\.json$/.test(x))) {
				const part = readJsonSync<PartInfo>(path.join(dir, n));
				if (part && n === `part-${part.partNumber}.json`) upload.parts.set(part.partNumber, part);
			}
			const referenced = new Set([...upload.parts.values()].map((p) => p.file));
			for (const n of names) {
				if (n.endsWith('.bin') && !referenced.has(n)) await removeQuietly(path.join(dir, n));
			}
			this.uploads.set(id, upload);
		}
	}

	get(uploadId: string): Upload | undefined {
		return UPLOAD_ID.test(uploadId) ? this.uploads.get(uploadId) : undefined;
	}

	all(): Upload[] {
		return [...this.uploads.values()];
	}

	get openCount(): number {
		return this.uploads.size;
	}

	async start(info: Omit<UploadInfo, 'uploadId' | 'fileId' | 'createdAt'>): Promise<Upload> {
		const uploadId = randomHex(16);
		const upload: Upload = {
			...info,
			uploadId,
			fileId: randomUUID(),
			createdAt: new Date().toISOString(),
			parts: new Map(),
			open: true,
		};
		const dir = path.join(this.root, uploadId);
		await fsp.mkdir(dir);
		const { parts: _parts, open: _open, ...persisted } = upload;
		await writeJsonAtomic(this.tmp, path.join(dir, 'upload.json'), persisted);
		this.uploads.set(uploadId, upload);
		return upload;
	}

	/** Last write of a part number wins [ours, as S3]. */
	async putPart(upload: Upload, partNumber: number, tempFile: string, etag: string, size: number): Promise<void> {
		await this.lock.run(upload.uploadId, async () => {
			if (!upload.open || this.uploads.get(upload.uploadId) !== upload) {
				await removeQuietly(tempFile);
				throw new UploadGoneError();
			}
			const dir = path.join(this.root, upload.uploadId);
			const file = `part-${partNumber}.${randomHex(6)}.bin`;
			await fsp.rename(tempFile, path.join(dir, file));
			const part: PartInfo = { partNumber, etag, size, file };
			try {
				await writeJsonAtomic(this.tmp, path.join(dir, `part-${partNumber}.json`), part);
			} catch (err) {
				await removeQuietly(path.join(dir, file));
				throw err;
			}
			const previous = upload.parts.get(partNumber);
			upload.parts.set(partNumber, part);
			if (previous) await removeQuietly(path.join(dir, previous.file));
		});
	}

	/**
	 * Runs `validate` and, if it passes, hard-links the chosen part files to `targets` (object
	 * blobs, in order), all under the upload's lock so no part can change in between. No byte is
	 * copied: complete costs O(parts), whatever the size. `finish` commits the object; only then
	 * is the upload removed, so a failed commit leaves the upload intact for a retry, and a crash
	 * in between leaves both (completing again gives the same object). Linking rather than
	 * renaming keeps the parts in place until that point.
	 */
	async complete<T, E>(
		upload: Upload,
		validate: (upload: Upload) => { ok: true; parts: PartInfo[] } | { ok: false; error: E },
		targets: (count: number) => string[],
		finish: (files: string[], size: number) => Promise<T>,
	): Promise<{ ok: true; value: T } | { ok: false; error: E }> {
		return this.lock.run(upload.uploadId, async () => {
			if (!upload.open || this.uploads.get(upload.uploadId) !== upload) throw new UploadGoneError();
			const checked = validate(upload);
			if (!checked.ok) return checked;
			const dir = path.join(this.root, upload.uploadId);
			const files = targets(checked.parts.length);
			let value: T;
			try {
				for (let i = 0; i < files.length; i++) await linkOrCopy(path.join(dir, checked.parts[i].file), files[i]);
				const size = checked.parts.reduce((sum, p) => sum + p.size, 0);
				value = await finish(files, size);
			} catch (err) {
				await Promise.all(files.map((f) => removeQuietly(f)));
				throw err;
			}
			upload.open = false;
			this.uploads.delete(upload.uploadId);
			await removeQuietly(dir);
			return { ok: true as const, value };
		});
	}

	async cancel(upload: Upload): Promise<void> {
		await this.lock.run(upload.uploadId, async () => {
			if (!upload.open || this.uploads.get(upload.uploadId) !== upload) throw new UploadGoneError();
			upload.open = false;
			this.uploads.delete(upload.uploadId);
			await removeQuietly(path.join(this.root, upload.uploadId));
		});
	}
}

/** A hard link (same file system: the data dir); a copy where the file system has none. */
async function linkOrCopy(from: string, to: string): Promise<void> {
	try {
		await fsp.link(from, to);
	} catch (err) {
		const code = (err as NodeJS.ErrnoException).code;
		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV' && code !== 'EMLINK') throw err;
		await fsp.copyFile(from, to, fsConstants.COPYFILE_EXCL);
	}
}
