/**
 * The CDN in front of the emulator, as an adversary: it keeps public answers and may go on serving
 * a kept (older) version for a while after the purge; its clock is off from the storage's; it
 * dates answers with its own clock, the file's, or not at all; it sends or leaves out Age,
 * X-Cache, Last-Modified and ETag; and a proxy in front of it may answer a HEAD, a purge or an
 * existence check (the signed-URL call) with its own 404 or 5xx HTML page. Everything is drawn
 * from the schedule's seed (see schedule.ts).
 */
import { createHash } from 'node:crypto';

import type { Emulator } from '../emulator';
import type { HookAnswer, HookCall } from '../emulator/history';
import { checkSignedUrl } from '../emulator/signed-url';
import type { Random } from './random';

/** Effectively "until the schedule ends" (kept in JSON-printable form). */
export const FOREVER_MS = 1e9;

export interface CdnPolicy {
	/** The CDN's clock minus the storage's, ms (cdnClockSkew: mostly within ±3 s, sometimes up to 15 s ahead). */
	skewMs: number;
	/** What Last-Modified says: the version's own time, the CDN's clock when it fetched it, or nothing. */
	lastModified: 'file' | 'cdnClock' | 'none';
	/** Whether it sends Age with what it kept (RFC 9111 §5.1); never with what it fetched for this request. */
	age: boolean;
	xCache: boolean;
	etag: 'md5' | 'opaque' | 'none';
	/** How long a kept answer is still served after its key was purged. */
	keepAfterPurgeMs: number;
	/** Chance that a proxy answers with its own page instead of the service / CDN. */
	proxyPage: { purge: number; exists: number; head: number };
	pageStatus: 404 | 500 | 502;
	/**
	 * Whether an answer kept through a purge may come without any mark of a cache (no Age above 0, no
	 * X-Cache: HIT). Off in drawn schedules: the node relies on a CDN that keeps an answer after the purge
	 * saying so (docs/api-choices.md, what the node cannot prove); named cases show what such a CDN does.
	 */
	silentAfterPurge?: boolean;
	/** Named cases: keys (their path in the schedule's folder) whose signed-URL call the proxy always answers with its page. */
	pageForKeys?: string[];
}

/**
 * The CDN's clock minus the storage's, from one draw: mostly within ±3 s, sometimes 3–15 s ahead. The
 * spec bounds neither; a clock ahead would make a read in the listed second look settled, were the
 * CDN's Date alone to time a Move's settle wait (the service's Date before the read bounds it).
 */
export function cdnClockSkew(u: number): number {
	return u < 0.7 ? Math.round((u / 0.7) * 6000 - 3000) : Math.round(((u - 0.7) / 0.3) * 12_000 + 3000);
}

export function drawCdnPolicy(random: Random): CdnPolicy {
	const lagged = random.chance(0.5);
	return {
		skewMs: cdnClockSkew(random.next()),
		lastModified: random.pick(['file', 'file', 'cdnClock', 'none'] as const),
		age: random.chance(0.5),
		xCache: random.chance(0.5),
		etag: random.pick(['md5', 'md5', 'opaque', 'none'] as const),
		keepAfterPurgeMs: lagged ? random.pick([random.int(100, 3000), FOREVER_MS]) : 0,
		proxyPage: {
			purge: random.chance(0.25) ? 0.5 : 0,
			exists: random.chance(0.25) ? 0.3 : 0,
			head: random.chance(0.25) ? 0.5 : 0,
		},
		pageStatus: random.pick([404, 404, 500, 502] as const),
	};
}

interface KeptVersion {
	body: Buffer;
	contentType: string;
	/** The version's last_modified (storage clock), ISO. */
	lastModified: string;
	/** The CDN's clock when it fetched the version from the origin. */
	keptAt: number;
	purgedAt?: number;
}

const PAGE_TITLES: Record<number, string> = {
	404: '404 Not Found',
	500: '500 Internal Server Error',
	502: '502 Bad Gateway',
};

export class AdversaryCdn {
	private readonly kept = new Map<string, KeptVersion>();

	constructor(
		private readonly emulator: Emulator,
		readonly policy: CdnPolicy,
		private readonly random: Random,
		/** The storage's clock (the emulator's). */
		private readonly storageNow: () => number,
		/** What the CDN did, for the report of a counterexample. */
		readonly log: string[],
	) {}

	now(): number {
		return this.storageNow() + this.policy.skewMs;
	}

	/** A proxy's own error page, as nginx sends it: HTML, not the API's JSON. */
	page(): HookAnswer {
		const title = PAGE_TITLES[this.policy.pageStatus];
		return {
			status: this.policy.pageStatus,
			headers: { 'Content-Type': 'text/html', Date: new Date(this.now()).toUTCString(), Server: 'nginx' },
			body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
		};
	}

	/** The purge call: a proxy page (nothing purged), or the key marked purged (kept answers may linger). */
	purge(key: string): HookAnswer | undefined {
		if (this.random.chance(this.policy.proxyPage.purge)) {
			this.log.push(`purge ${key}: proxy page ${this.policy.pageStatus}`);
			return this.page();
		}
		const kept = this.kept.get(key);
		if (kept) kept.purgedAt = this.now();
		this.log.push(`purge ${key}: done${kept ? ` (kept answer lingers ${this.policy.keepAfterPurgeMs} ms)` : ''}`);
		return undefined;
	}

	/** The existence check and the source's link (the signed-URL call): a proxy page, or the API. */
	signedUrl(key: string): HookAnswer | undefined {
		const drawn = this.random.chance(this.policy.proxyPage.exists);
		if (!drawn && !this.policy.pageForKeys?.some((path) => key.endsWith(`/${path}`))) return undefined;
		this.log.push(`signed-url ${key}: proxy page ${this.policy.pageStatus}`);
		return this.page();
	}

	/** A GET or HEAD at the CDN; undefined leaves the request to the emulator (its 404 or 403). */
	async serve(call: HookCall, key: string): Promise<HookAnswer | undefined> {
		if (call.method === 'HEAD' && this.random.chance(this.policy.proxyPage.head)) {
			this.log.push(`HEAD ${key}: proxy page ${this.policy.pageStatus}`);
			return this.page();
		}
		const now = this.now();
		// Cached by URL: a signed link (a query) is not the plain location a kept answer is for.
		const plain = !call.query.has('signature');
		const kept = plain ? this.kept.get(key) : undefined;
		if (kept && (kept.purgedAt === undefined || now < kept.purgedAt + this.policy.keepAfterPurgeMs)) {
			this.log.push(`${call.method} ${key}: HIT of the version of ${kept.lastModified}`);
			return this.answer(kept, true, now, kept.purgedAt !== undefined && this.policy.silentAfterPurge !== true);
		}
		const current = await this.emulator.adversary.current(key);
		if (!current) {
			this.kept.delete(key);
			return undefined;
		}
		if (current.visibility === 'private') {
			const q = call.query;
			const { secretKey, accessId } = this.emulator;
			const ok = checkSignedUrl(secretKey, accessId, key, q.get('expires'), q.get('signature'), this.storageNow());
			if (!ok.ok) return undefined;
		}
		const version: KeptVersion = { ...current, keptAt: now };
		if (current.visibility === 'public' && plain) this.kept.set(key, version);
		this.log.push(`${call.method} ${key}: MISS, the version of ${current.lastModified}`);
		return this.answer(version, false, now);
	}

	/** Someone else reads a public file (the CDN keeps what it fetched). */
	async view(key: string): Promise<void> {
		const current = await this.emulator.adversary.current(key);
		if (current?.visibility !== 'public') return;
		this.kept.set(key, { ...current, keptAt: this.now() });
		this.log.push(`view ${key}: kept the version of ${current.lastModified}`);
	}

	/** `marked`: a hit through a purge carries at least X-Cache: HIT when the policy's headers would not mark it. */
	private answer(version: KeptVersion, hit: boolean, now: number, marked = false): HookAnswer {
		const { policy } = this;
		const headers: Record<string, string> = {
			'Content-Type': version.contentType,
			Date: new Date(now).toUTCString(),
			'Cache-Control': 'public, max-age=60',
		};
		if (policy.lastModified === 'file') headers['Last-Modified'] = new Date(version.lastModified).toUTCString();
		if (policy.lastModified === 'cdnClock') headers['Last-Modified'] = new Date(version.keptAt).toUTCString();
		// Age on what it kept only: a CDN that also sends `Age: 0` on what it fetched now marks every answer, which the
		// node refuses every time (files/proof.ts), so such schedules would test nothing but that refusal.
		if (policy.age && hit) headers.Age = String(Math.max(0, Math.floor((now - version.keptAt) / 1000)));
		if (policy.xCache) headers['X-Cache'] = hit ? 'HIT' : 'MISS';
		if (marked && !policy.xCache && !(Number(headers.Age) > 0)) headers['X-Cache'] = 'HIT';
		const md5 = createHash('md5').update(version.body).digest('hex');
		if (policy.etag === 'md5') headers.ETag = `"${md5}"`;
		if (policy.etag === 'opaque') headers.ETag = `"${md5.slice(0, 16)}-1"`;
		return { status: 200, headers, body: version.body };
	}
}

/** The CDN of a run again: keeps nothing after a purge, no proxy in front. */
export const QUIET_CDN: CdnPolicy = {
	skewMs: 0,
	lastModified: 'file',
	age: false,
	xCache: false,
	etag: 'md5',
	keepAfterPurgeMs: 0,
	proxyPage: { purge: 0, exists: 0, head: 0 },
	pageStatus: 404,
};
