import type { EmulatorHooks, HistoryEvent } from './history';
/**
 * Public contract of the emulator. The node's tests, the harness, dev scripts and benchmarks
 * import these names, so they change only together with every consumer.
 */

export type Operation =
	'list' | 'upload' | 'start' | 'uploadPart' | 'complete' | 'cancel' | 'delete' | 'signedUrl' | 'purge' | 'cdn';

export const OPERATIONS: readonly Operation[] = [
	'list',
	'upload',
	'start',
	'uploadPart',
	'complete',
	'cancel',
	'delete',
	'signedUrl',
	'purge',
	'cdn',
];

/**
 * Which of the service's two path families the emulator answers. The published reference
 * spells three endpoints `GET /files/list`, `POST /multipart/{id}/upload` and
 * `POST /multipart/{id}/cancel`; the official SDK spells them `GET /files/contents`,
 * `POST /multipart/{id}` and `DELETE /multipart/{id}`. Every other endpoint is the same in both.
 */
export type PathFamilies = 'both' | 'reference' | 'sdk';

export const PATH_FAMILIES: readonly PathFamilies[] = ['both', 'reference', 'sdk'];

export interface FaultRule {
	operation: Operation | '*';
	/** Answer with this status and the spec's error body (429 adds `Retry-After: 1`). */
	status?: 500 | 503 | 429;
	/** Instead: destroy the socket after reading part of the request body. */
	reset?: boolean;
	/** Instead: never answer (until stop). */
	hang?: boolean;
	/** instead: carry the request out, then cut the connection before the answer (a lost response). */
	dropResponse?: boolean;
	/** cdn only, instead: send the full Content-Length but only this many bytes, then destroy the socket. */
	truncate?: number;
	/** cdn only, instead: send the full Content-Length and this many bytes, then nothing (socket left open). */
	stall?: number;
	/**
	 * cdn only, instead: answer without Content-Length and without chunked framing (the end of the
	 * connection ends the body), send this many bytes, then close the connection cleanly.
	 */
	closeDelimited?: number;
	/** cdn only, instead: answer 403 with a plain-text body that repeats the request URL, query and all. */
	echoUrl?: boolean;
	/** cdn only, instead: gzip the body (`Content-Encoding: gzip`) when the request's Accept-Encoding allows it. */
	gzip?: boolean;
	/** cdn only, instead: answer 302 with a Location under `/r/` that serves the same file. */
	redirect?: boolean;
	/**
	 * API operations only, instead: carry the request out, then overwrite these fields of the
	 * answer's `data` (null deletes a field; `{ $asString: true }` turns the field's value into a string).
	 */
	rewrite?: Record<string, unknown>;
	/** 0..1, drawn from a seeded PRNG. */
	probability?: number;
	seed?: number;
	/** 1-based indexes of the requests of that operation (counted since the rule was set). */
	nth?: number[];
	/** Stop after this many injected faults. */
	times?: number;
	/** Only uploadPart requests with these part numbers. */
	partNumbers?: number[];
}

export interface Bucket {
	name: string;
	region: string;
}

export interface EmulatorOptions {
	host?: string;
	port?: number;
	accessKey?: string;
	secretKey?: string;
	accessId?: string;
	buckets?: Bucket[];
	dataDir?: string;
	clockToleranceSeconds?: number;
	minPartSize?: number;
	maxBodyBytes?: number;
	latencyMs?: number;
	/** See NetworkProfile. */
	connectionDelayMs?: number;
	connectionRateMiBps?: number;
	faults?: FaultRule[];
	/**
	 * How part ETags are made: `md5` (default) is `"` + md5 hex of the part + `"`; `random` is
	 * `"` + 32 random hex digits + `"`, with no hash over the bytes (for throughput benchmarks).
	 */
	etags?: EtagMode;
	/** Which path family to answer (default `both`); the other family's paths get a web framework's plain 404. */
	paths?: PathFamilies;
	/**
	 * Seconds the CDN keeps serving the first answer for a public file (spec §3.9), even after the
	 * file was replaced or deleted, until the purge call clears it. 0 (default): no cache.
	 */
	cdnCacheSeconds?: number;
	now?: () => number;
}

export type EtagMode = 'md5' | 'random';

export interface EmulatorStats {
	requests: Record<Operation, number>;
	responses: Record<string, number>;
	faultsInjected: number;
	currentPartUploads: number;
	maxConcurrentPartUploads: number;
	/** CDN requests (file bodies) in flight at most, from routing to the end of the exchange. */
	maxConcurrentCdnRequests: number;
	openMultipartUploads: number;
	authFailures: number;
	/** The Accept-Encoding header of the last CDN request; null when it had none (or none came yet). */
	lastCdnAcceptEncoding: string | null;
	connections: ConnectionStats;
}

/** TCP connections as the far-service profile sees them; test hooks aside. */
export interface ConnectionStats {
	/** Connections that carried at least one API or CDN request. */
	opened: number;
	/** API and CDN requests over them: `requests / opened` is the reuse a client achieved. */
	requests: number;
	/** Connections that waited the connection delay (each new one, while a delay is set). */
	delayed: number;
	/** Times the rate cap paused a connection's reading, and the pauses' scheduled total in ms. */
	throttlePauses: number;
	throttledMs: number;
}

/** The far-service profile, changeable while running. */
export interface NetworkProfile {
	/** Delay before every API and CDN answer. */
	latencyMs?: number;
	/** Delay before the first request of each new TCP connection is read (a handshake). */
	connectionDelayMs?: number;
	/** Cap on the rate one connection's request bodies are read at, MiB/s; 0 is no cap. */
	connectionRateMiBps?: number;
}

export interface OpenUploadInfo {
	uploadId: string;
	bucket: string;
	region: string;
	key: string;
	parts: number[];
}

export interface StoredObject {
	body: Buffer;
	contentType: string;
	visibility: 'public' | 'private';
	/** ISO 8601, as the listing dates the file. */
	lastModified: string;
}

export interface Emulator {
	url: string;
	cdnUrl: string;
	accessKey: string;
	secretKey: string;
	accessId: string;
	buckets: Bucket[];
	dataDir: string;
	stats(): EmulatorStats;
	resetStats(): void;
	setFaults(rules: FaultRule[]): void;
	setLatency(ms: number): void;
	/** Switch the path families answered from now on (a service that changed its paths). */
	setPaths(paths: PathFamilies): void;
	/** Change any of latency, connection delay and rate cap; the others stay. */
	setNetworkProfile(profile: NetworkProfile): void;
	listOpenUploads(): OpenUploadInfo[];
	readObject(bucket: string, region: string, key: string): Promise<StoredObject | undefined>;
	/** In-process aids for the seeded adversary (history.ts): not over HTTP, not in the CLI. */
	adversary: AdversaryAccess;
	objectSha256(bucket: string, region: string, key: string): Promise<string | undefined>;
	stop(): Promise<void>;
}

/** A version as the store holds it now, read whole (small files only). */
export interface CurrentVersion {
	size: number;
	contentType: string;
	visibility: 'public' | 'private';
	lastModified: string;
	body: Buffer;
}

export interface AdversaryAccess {
	setHooks(hooks?: EmulatorHooks): void;
	/** The requests (method and target) whose handlers still run: stop() waits for them. */
	openRequests(): string[];
	/** Off by default: hashing every stored version costs what benchmarks measure. */
	recordHistory(on: boolean): void;
	history(): HistoryEvent[];
	/** The next number of the sequence the history's changes are numbered in (orders requests with them). */
	tick(): number;
	clearHistory(): void;
	/** Another writer: stores `body` under `key` as an upload would, recorded as `writer`. */
	put(
		where: Bucket,
		key: string,
		body: Buffer,
		options: { visibility: 'public' | 'private'; contentType?: string; writer: string },
	): Promise<{ lastModified: string }>;
	remove(where: Bucket, key: string, writer: string): Promise<boolean>;
	/** What the CDN's origin holds for `key` now (the first bucket holding it, as the CDN looks it up). */
	current(key: string): Promise<CurrentVersion | undefined>;
}
