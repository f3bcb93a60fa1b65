/**
 * Public contract of the emulator. The node's tests, the harness, dev scripts and benchmarks
 * import these names, so they change only together with every consumer.
 */

export type Operation =
	'list' | 'upload' | 'start' | 'uploadPart' | 'complete' | 'cancel' | 'delete' | 'signedUrl' | 'cdn';

export const OPERATIONS: readonly Operation[] = [
	'list',
	'upload',
	'start',
	'uploadPart',
	'complete',
	'cancel',
	'delete',
	'signedUrl',
	'cdn',
];

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
	faults?: FaultRule[];
	/**
	 * How part ETags are made: `md5` (default) is `"` + md5 hex of the part + `"`; `random` is
	 * `"` + 32 random hex digits + `"`, with no hash over the bytes (for throughput benchmarks).
	 */
	etags?: EtagMode;
	now?: () => number;
}

export type EtagMode = 'md5' | 'random';

export interface EmulatorStats {
	requests: Record<Operation, number>;
	responses: Record<string, number>;
	faultsInjected: number;
	currentPartUploads: number;
	maxConcurrentPartUploads: number;
	openMultipartUploads: number;
	authFailures: number;
	/** The Accept-Encoding header of the last CDN request; null when it had none (or none came yet). */
	lastCdnAcceptEncoding: string | null;
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
	listOpenUploads(): OpenUploadInfo[];
	readObject(bucket: string, region: string, key: string): Promise<StoredObject | undefined>;
	objectSha256(bucket: string, region: string, key: string): Promise<string | undefined>;
	stop(): Promise<void>;
}
