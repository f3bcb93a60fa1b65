/**
 * In-process aids for the seeded adversary (test/adversary): the full history of stored versions
 * and hook points around every request. Neither exists over HTTP or in the CLI: they serve tests
 * that start the emulator themselves.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';

/** Who changed a key: the node's requests over HTTP are 'client'; in-process writes name themselves. */
export type Writer = string;

/** One change of a key (a version stored, or the key deleted), in the order the store made them. */
export interface HistoryEvent {
	seq: number;
	kind: 'put' | 'delete';
	bucket: string;
	region: string;
	key: string;
	writer: Writer;
	/** The emulator's clock (ms) when the change was committed. */
	at: number;
	/** Of the stored bytes (put only). */
	sha256?: string;
	md5?: string;
	size?: number;
	visibility?: 'public' | 'private';
	/** Its content type (put only): the listing shows it, so a same-size file of another type can be told apart. */
	contentType?: string;
	/** The listing's last_modified of the version (put only), ISO with milliseconds. */
	lastModified?: string;
}

/** A request as the hooks see it: routed, not yet authenticated or answered. */
export interface HookCall {
	/** Sequence number shared with the history, so requests and changes can be ordered. */
	seq: number;
	op: string;
	method: string;
	path: string;
	query: Map<string, string>;
	headers: IncomingHttpHeaders;
}

/** An answer a hook gives instead of the emulator (a proxy's page, a cache's kept answer). */
export interface HookAnswer {
	status: number;
	headers: Record<string, string>;
	body?: Buffer | string;
}

export interface EmulatorHooks {
	/** Before the request is handled: may act (another writer) and may answer it instead. */
	before?(call: HookCall): Promise<HookAnswer | undefined>;
	/** After an API request was carried out, before its answer is sent (reply.body may be changed). */
	after?(call: HookCall, reply: { status: number; body: unknown }): Promise<void>;
}

export class History {
	private next = 1;
	readonly events: HistoryEvent[] = [];
	enabled = false;

	/** Sequence numbers for requests and changes alike. */
	tick(): number {
		return this.next++;
	}

	record(event: Omit<HistoryEvent, 'seq'>): void {
		if (this.enabled) this.events.push({ ...event, seq: this.tick() });
	}

	clear(): void {
		this.events.splice(0);
	}
}

/** The sha256 and md5 of blobs concatenated (small files: the adversary's). */
export async function hashFiles(files: string[]): Promise<{ sha256: string; md5: string }> {
	const sha = createHash('sha256');
	const md5 = createHash('md5');
	for (const file of files) {
		const bytes = await fsp.readFile(file);
		sha.update(bytes);
		md5.update(bytes);
	}
	return { sha256: sha.digest('hex'), md5: md5.digest('hex') };
}
