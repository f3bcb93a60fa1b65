import { randomBytes } from 'node:crypto';
import { promises as fsp, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export function randomHex(bytes = 16): string {
	return randomBytes(bytes).toString('hex');
}

/**
 * Temp files live in one folder inside the data dir: same file system as their destination, so
 * the final rename is atomic, and anything left there by a crash is garbage by definition.
 */
export class TempDir {
	constructor(readonly dir: string) {}

	file(suffix = ''): string {
		return path.join(this.dir, `${Date.now().toString(36)}-${randomHex(8)}${suffix}`);
	}

	async reset(): Promise<void> {
		await fsp.rm(this.dir, { recursive: true, force: true });
		await fsp.mkdir(this.dir, { recursive: true });
	}
}

/**
 * Readers see the old file or the new one, never a half-written one. The write itself is
 * synchronous on purpose: sidecars are a few hundred bytes, and measured per file the async
 * open-write-close round trip through the thread pool costs several times the CPU of doing it
 * inline — it was the largest cost of a small upload.
 */
export async function writeJsonAtomic(tmp: TempDir, target: string, value: unknown): Promise<void> {
	const file = tmp.file('.json');
	try {
		writeFileSync(file, JSON.stringify(value), { flag: 'wx' });
		await fsp.rename(file, target);
	} catch (err) {
		await fsp.rm(file, { force: true });
		throw err;
	}
}

export async function readJson<T>(file: string): Promise<T | undefined> {
	try {
		return JSON.parse(await fsp.readFile(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** For startup only, before any request is served: thousands of tiny sidecars load far faster inline. */
export function readJsonSync<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

export async function removeQuietly(file: string): Promise<void> {
	await fsp.rm(file, { force: true, recursive: true }).catch(() => undefined);
}

/**
 * Serialises the short metadata steps (rename + sidecar + index update) per key, so two
 * concurrent writers of one key cannot interleave and orphan or delete each other's bytes.
 * Streaming the body happens outside the lock.
 */
export class KeyedMutex {
	private readonly tails = new Map<string, Promise<unknown>>();

	async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const result = previous.then(fn, fn);
		const tail = result.catch(() => undefined);
		this.tails.set(key, tail);
		try {
			return await result;
		} finally {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		}
	}
}

/** Runs fn over items with at most `limit` in flight; startup reads thousands of sidecars. */
export async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
	let next = 0;
	const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
		while (next < items.length) await fn(items[next++]);
	});
	await Promise.all(workers);
}
