import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { forEachLimited, KeyedMutex, randomHex, readJsonSync, removeQuietly, TempDir, writeJsonAtomic } from './fsutil';
import { childrenOf, type ListEntry } from './listing';
import type { Bucket } from './types';

/**
 * Objects on disk. Layout under `<dataDir>/objects/<bucket dir>/`:
 *   `<sha256(key)>.json`            sidecar: key, size, content type, visibility, blob name
 *   `<sha256(key)>.<version>.blob`  the bytes
 * The sidecar rename is the commit point: until it lands the new bytes are an unreferenced blob,
 * and startup deletes unreferenced blobs. Keys never appear in paths, so no key can escape the
 * data dir or collide with a file-system rule.
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
	blob: string;
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

	constructor(
		root: string,
		private readonly tmp: TempDir,
		bucketList: Bucket[],
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
				referenced.add(meta.blob);
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

	blobPath(meta: ObjectMeta): string {
		const state = this.buckets.get(bucketId(meta.bucket, meta.region));
		if (!state) throw new Error('unknown bucket');
		return path.join(state.dir, meta.blob);
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
		const state = this.mustBucket(bucket, region);
		return path.join(state.dir, `${keyHash(key)}.${Date.now().toString(36)}${randomHex(6)}.blob`);
	}

	/**
	 * Makes `blobFile` (from newBlobFile) the object's bytes. Replacing an existing key is [ours];
	 * the previous blob is removed after the new sidecar is in place, so readers never see a
	 * missing object. On failure the new blob is removed.
	 */
	async commit(
		bucket: string,
		region: string,
		key: string,
		blobFile: string,
		info: { size: number; contentType: string; visibility: Visibility },
	): Promise<ObjectMeta> {
		const state = this.mustBucket(bucket, region);
		const hash = keyHash(key);
		const blob = path.basename(blobFile);
		if (path.dirname(blobFile) !== state.dir || !blob.startsWith(`${hash}.`)) {
			throw new Error('commit needs a blob file from newBlobFile for the same key');
		}
		return this.lock.run(`${bucketId(bucket, region)}\n${key}`, async () => {
			const meta: ObjectMeta = {
				bucket,
				region,
				key,
				size: info.size,
				contentType: info.contentType,
				visibility: info.visibility,
				lastModified: new Date().toISOString(),
				blob,
			};
			try {
				await writeJsonAtomic(this.tmp, path.join(state.dir, `${hash}.json`), meta);
			} catch (err) {
				await removeQuietly(blobFile);
				throw err;
			}
			const previous = state.objects.get(key);
			state.objects.set(key, meta);
			state.version++;
			if (previous && previous.blob !== blob) await removeQuietly(path.join(state.dir, previous.blob));
			return meta;
		});
	}

	async delete(bucket: string, region: string, key: string): Promise<boolean> {
		const state = this.mustBucket(bucket, region);
		return this.lock.run(`${bucketId(bucket, region)}\n${key}`, async () => {
			const meta = state.objects.get(key);
			if (!meta) return false;
			await fsp.rm(path.join(state.dir, `${keyHash(key)}.json`), { force: true });
			state.objects.delete(key);
			state.version++;
			await removeQuietly(path.join(state.dir, meta.blob));
			return true;
		});
	}

	private mustBucket(bucket: string, region: string): BucketState {
		const state = this.buckets.get(bucketId(bucket, region));
		if (!state) throw new Error(`unknown bucket ${bucket}@${region}`);
		return state;
	}
}

/**
 * Opens the object's current blob. A concurrent replace may unlink the blob between lookup and
 * open; looking up again then finds the new one. An open handle keeps its bytes readable even
 * if the object is replaced or deleted while they stream out.
 */
export async function openObject(
	store: ObjectStore,
	lookup: () => ObjectMeta | undefined,
): Promise<{ meta: ObjectMeta; handle: fsp.FileHandle } | undefined> {
	for (let attempt = 0; attempt < 5; attempt++) {
		const meta = lookup();
		if (!meta) return undefined;
		try {
			return { meta, handle: await fsp.open(store.blobPath(meta), 'r') };
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
		}
	}
	return undefined;
}
