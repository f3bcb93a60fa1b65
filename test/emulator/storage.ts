import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import { Readable } from 'node:stream';
import * as path from 'node:path';

import { forEachLimited, KeyedMutex, randomHex, readJsonSync, removeQuietly, TempDir, writeJsonAtomic } from './fsutil';
import { hashFiles, History, type Writer } from './history';
import { childrenOf, type ListEntry } from './listing';
import type { Bucket } from './types';

/**
 * Objects on disk. Layout under `<dataDir>/objects/<bucket dir>/`:
 *   `<sha256(key)>.json`                 sidecar: key, size, content type, visibility, blob names
 *   `<sha256(key)>.<version>[-<i>].blob` the bytes: one blob for a single upload, one per part
 *                                        (in order) for a completed multipart upload
 * An object's bytes are its blobs concatenated; a multipart complete therefore links the parts
 * in place instead of copying them. The sidecar rename is the commit point: until it lands the
 * new bytes are unreferenced blobs, and startup deletes unreferenced blobs. Keys never appear
 * in paths, so no key can escape the data dir or collide with a file-system rule.
 */

export type Visibility = 'public' | 'private';

export interface ObjectMeta {
	bucket: string;
	region: string;
	key: string;
	size: number;
	contentType: string;
	visibility: Visibility;
	/** ISO 8601 with milliseconds. */
	lastModified: string;
	/** The object's bytes are these files of the bucket dir, concatenated in this order. */
	blobs: string[];
}

interface BucketState {
	bucket: Bucket;
	dir: string;
	objects: Map<string, ObjectMeta>;
	/** Bumped on every change so cached listings know they are stale. */
	version: number;
	listCache: Map<string, { version: number; children: ListEntry[] }>;
}

const LIST_CACHE_SIZE = 32;

export function bucketId(name: string, region: string): string {
	return `${name}\n${region}`;
}

function bucketDirName(b: Bucket): string {
	const readable = `${b.name}@${b.region}`.replace(/[^A-Za-z0-9._@-]/g, '_').slice(0, 80);
	const hash = createHash('sha256').update(bucketId(b.name, b.region)).digest('hex').slice(0, 12);
	return `${readable}-${hash}`;
}

function keyHash(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest('hex');
}

export class ObjectStore {
	private readonly buckets = new Map<string, BucketState>();
	private readonly lock = new KeyedMutex();
	/**
	 * Open readers per blob path. A replaced or deleted object's blobs are unlinked only once
	 * the last reader is done with them, so a download that opens its blobs one after the other
	 * never finds one gone.
	 */
	private readonly readers = new Map<string, number>();
	private readonly doomed = new Set<string>();

	constructor(
		root: string,
		private readonly tmp: TempDir,
		bucketList: Bucket[],
		/** The emulator's clock: it dates versions (last_modified) as its answers' Date. */
		private readonly now: () => number = Date.now,
		/** Every change, when enabled (in-process tests: see history.ts). */
		readonly history = new History(),
	) {
		for (const b of bucketList) {
			this.buckets.set(bucketId(b.name, b.region), {
				bucket: b,
				dir: path.join(root, bucketDirName(b)),
				objects: new Map(),
				version: 0,
				listCache: new Map(),
			});
		}
	}

	/** Loads sidecars and sweeps blobs that no sidecar references (leftovers of a crash). */
	async init(): Promise<void> {
		for (const state of this.buckets.values()) {
			await fsp.mkdir(state.dir, { recursive: true });
			const names = await fsp.readdir(state.dir);
			const sidecars = names.filter((n) => n.endsWith('.json'));
			const referenced = new Set<string>();
			for (const name of sidecars) {
				const meta = readJsonSync<ObjectMeta>(path.join(state.dir, name));
				if (!meta || typeof meta.key !== 'string' || `${keyHash(meta.key)}.json` !== name) continue;
				if (!Array.isArray(meta.blobs) || meta.blobs.length === 0) continue;
				for (const blob of meta.blobs) referenced.add(blob);
				state.objects.set(meta.key, meta);
			}
			const orphans = names.filter((n) => n.endsWith('.blob') && !referenced.has(n));
			await forEachLimited(orphans, 16, (n) => removeQuietly(path.join(state.dir, n)));
		}
	}

	hasBucket(name: string, region: string): boolean {
		return this.buckets.has(bucketId(name, region));
	}

	get(bucket: string, region: string, key: string): ObjectMeta | undefined {
		return this.buckets.get(bucketId(bucket, region))?.objects.get(key);
	}

	/** [ours] The CDN path carries no bucket: the first configured bucket holding the key wins. */
	findAnywhere(key: string): ObjectMeta | undefined {
		for (const state of this.buckets.values()) {
			const meta = state.objects.get(key);
			if (meta) return meta;
		}
		return undefined;
	}

	blobPaths(meta: ObjectMeta): string[] {
		const state = this.buckets.get(bucketId(meta.bucket, meta.region));
		if (!state) throw new Error('unknown bucket');
		return meta.blobs.map((b) => path.join(state.dir, b));
	}

	/** Synchronous on purpose: called right after the lookup, before any removal can run. */
	acquire(files: string[]): void {
		for (const f of files) this.readers.set(f, (this.readers.get(f) ?? 0) + 1);
	}

	release(files: string[]): void {
		for (const f of files) {
			const n = (this.readers.get(f) ?? 1) - 1;
			if (n > 0) {
				this.readers.set(f, n);
				continue;
			}
			this.readers.delete(f);
			if (this.doomed.delete(f)) void removeQuietly(f);
		}
	}

	/** Unlinks blobs no longer referenced, or marks them for the last reader to unlink. */
	private async discard(files: string[]): Promise<void> {
		const now: string[] = [];
		for (const f of files) {
			if (this.readers.has(f)) this.doomed.add(f);
			else now.push(f);
		}
		await Promise.all(now.map((f) => removeQuietly(f)));
	}

	children(bucket: string, region: string, prefix: string): ListEntry[] {
		const state = this.mustBucket(bucket, region);
		const cached = state.listCache.get(prefix);
		if (cached && cached.version === state.version) return cached.children;
		const children = childrenOf(state.objects.values(), prefix);
		if (state.listCache.size >= LIST_CACHE_SIZE) state.listCache.delete(state.listCache.keys().next().value as string);
		state.listCache.set(prefix, { version: state.version, children });
		return children;
	}

	/**
	 * Where new bytes for `key` are written. The file lands in its final place directly (saving a
	 * rename per upload); it stays invisible until commit adopts it, and startup sweeps it if no
	 * commit ever does.
	 */
	newBlobFile(bucket: string, region: string, key: string): string {
		return this.newBlobFiles(bucket, region, key, 1)[0];
	}

	/** `count` blob paths for one new version of `key` (the parts of a multipart complete). */
	newBlobFiles(bucket: string, region: string, key: string, count: number): string[] {
		const state = this.mustBucket(bucket, region);
		const base = `${keyHash(key)}.${Date.now().toString(36)}${randomHex(6)}`;
		if (count === 1) return [path.join(state.dir, `${base}.blob`)];
		return Array.from({ length: count }, (_, i) => path.join(state.dir, `${base}-${i}.blob`));
	}

	/**
	 * Makes `blobFiles` (from newBlobFile(s), in order) the object's bytes. Replacing an existing
	 * key is [ours]; the previous blobs are removed after the new sidecar is in place, so readers
	 * never see a missing object. On failure the new blobs are removed.
	 */
	async commit(
		bucket: string,
		region: string,
		key: string,
		blobFiles: string | string[],
		info: { size: number; contentType: string; visibility: Visibility },
		writer: Writer = 'client',
	): Promise<ObjectMeta> {
		const state = this.mustBucket(bucket, region);
		const hash = keyHash(key);
		const files = typeof blobFiles === 'string' ? [blobFiles] : blobFiles;
		const blobs = files.map((f) => path.basename(f));
		if (files.length === 0 || files.some((f, i) => path.dirname(f) !== state.dir || !blobs[i].startsWith(`${hash}.`))) {
			throw new Error('commit needs blob files from newBlobFile(s) for the same key');
		}
		const hashes = this.history.enabled ? await hashFiles(files) : undefined;
		return this.lock.run(`${bucketId(bucket, region)}\n${key}`, async () => {
			const meta: ObjectMeta = {
				bucket,
				region,
				key,
				size: info.size,
				contentType: info.contentType,
				visibility: info.visibility,
				lastModified: new Date(this.now()).toISOString(),
				blobs,
			};
			try {
				await writeJsonAtomic(this.tmp, path.join(state.dir, `${hash}.json`), meta);
			} catch (err) {
				await Promise.all(files.map((f) => removeQuietly(f)));
				throw err;
			}
			const previous = state.objects.get(key);
			state.objects.set(key, meta);
			state.version++;
			const { size, visibility, lastModified, contentType } = meta;
			this.history.record({
				kind: 'put',
				bucket,
				region,
				key,
				writer,
				at: this.now(),
				...hashes,
				size,
				visibility,
				contentType,
				lastModified,
			});
			if (previous) {
				const kept = new Set(blobs);
				await this.discard(previous.blobs.filter((b) => !kept.has(b)).map((b) => path.join(state.dir, b)));
			}
			return meta;
		});
	}

	async delete(bucket: string, region: string, key: string, writer: Writer = 'client'): Promise<boolean> {
		const state = this.mustBucket(bucket, region);
		return this.lock.run(`${bucketId(bucket, region)}\n${key}`, async () => {
			const meta = state.objects.get(key);
			if (!meta) return false;
			await fsp.rm(path.join(state.dir, `${keyHash(key)}.json`), { force: true });
			state.objects.delete(key);
			state.version++;
			this.history.record({ kind: 'delete', bucket, region, key, writer, at: this.now() });
			await this.discard(meta.blobs.map((b) => path.join(state.dir, b)));
			return true;
		});
	}

	private mustBucket(bucket: string, region: string): BucketState {
		const state = this.buckets.get(bucketId(bucket, region));
		if (!state) throw new Error(`unknown bucket ${bucket}@${region}`);
		return state;
	}
}

export interface OpenedObject {
	meta: ObjectMeta;
	/** The object's bytes: its blobs in order, each opened only when its turn comes. */
	stream(): Readable;
	/** Lets go of the blobs without reading them (idempotent; stream() does it when it ends). */
	release(): void;
}

/**
 * Looks the object up and pins its blobs: a concurrent replace or delete leaves them on disk
 * until the reader releases them, so the bytes stay readable while they stream out.
 */
export function openObject(store: ObjectStore, lookup: () => ObjectMeta | undefined): OpenedObject | undefined {
	const meta = lookup();
	if (!meta) return undefined;
	const files = store.blobPaths(meta);
	store.acquire(files);
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		store.release(files);
	};
	async function* chunks(): AsyncGenerator<Buffer> {
		try {
			for (const file of files) {
				for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
			}
		} finally {
			release();
		}
	}
	return { meta, stream: () => Readable.from(chunks(), { objectMode: false }), release };
}
