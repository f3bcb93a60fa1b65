import type { ServerResponse } from 'node:http';

/**
 * [ours, modelling spec §3.9] A CDN cache of public answers, off unless `cdnCacheSeconds` is set:
 * the first answer for a key is kept (bytes and headers) and served for that many seconds, even
 * after the file is replaced or deleted, until the purge call clears it. Files above
 * MAX_CACHED_BYTES are not kept (the cache holds bytes in memory).
 */
export const MAX_CACHED_BYTES = 64 * 1024 * 1024;

interface CachedAnswer {
	headers: Record<string, string>;
	body: Buffer;
	storedAt: number;
	until: number;
}

export class CdnCache {
	private readonly answers = new Map<string, CachedAnswer>();

	constructor(
		private readonly seconds: number,
		private readonly now: () => number,
	) {}

	get enabled(): boolean {
		return this.seconds > 0;
	}

	/** The cached answer for a key, unless it expired. */
	get(key: string): CachedAnswer | undefined {
		const answer = this.answers.get(key);
		if (answer && this.now() >= answer.until) this.answers.delete(key);
		return this.answers.get(key);
	}

	keep(key: string, headers: Record<string, string>, body: Buffer): void {
		if (!this.enabled || body.length > MAX_CACHED_BYTES) return;
		const now = this.now();
		this.answers.set(key, { headers, body, storedAt: now, until: now + this.seconds * 1000 });
	}

	/** The purge call: the next request for the key reaches the stored file again. */
	purge(key: string): void {
		this.answers.delete(key);
	}
}

/** A cache hit, as a CDN sends it: the kept headers with its age. */
export function sendCached(res: ServerResponse, method: string | undefined, answer: CachedAnswer, now: number): void {
	const age = Math.max(0, Math.floor((now - answer.storedAt) / 1000));
	res.writeHead(200, { ...answer.headers, Age: String(age), 'X-Cache': 'HIT' });
	res.end(method === 'HEAD' ? undefined : answer.body);
}
