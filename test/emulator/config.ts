import {
	PATH_FAMILIES,
	type Bucket,
	type EmulatorOptions,
	type EtagMode,
	type FaultRule,
	type PathFamilies,
} from './types';

export const DEFAULTS = {
	host: '127.0.0.1',
	/** The CLI's port; `start()` uses it too when no port is given. */
	port: 9480,
	accessKey: 'emulator-access-key',
	secretKey: 'emulator-secret-key',
	accessId: 'emulator',
	buckets: [{ name: 'my-bucket', region: 'us-east-1' }] as Bucket[],
	clockToleranceSeconds: 300,
	minPartSize: 5 * 1024 * 1024,
	/** One part may be 5 GiB (spec §4); the form around it needs a little more. */
	maxBodyBytes: 5 * 1024 * 1024 * 1024 + 1024 * 1024,
	latencyMs: 0,
	connectionDelayMs: 0,
	connectionRateMiBps: 0,
	etags: 'md5' as EtagMode,
	paths: 'both' as PathFamilies,
	cdnCacheSeconds: 0,
} as const;

/** Spec §4 limits that are not configurable: they are the service's, not ours. */
export const LIMITS = {
	maxPartNumber: 10_000,
	maxKeyBytes: 1024,
	maxListLimit: 1000,
	defaultListLimit: 20,
	defaultExpiresIn: 3600,
	/** [ours] S3 presigned URLs top out at 7 days; so do ours. */
	maxExpiresIn: 7 * 24 * 3600,
	/** A complete body lists at most 10,000 parts of ~60 bytes; 4 MiB leaves ample room. */
	maxJsonBodyBytes: 4 * 1024 * 1024,
} as const;

export interface ResolvedConfig {
	host: string;
	port: number;
	accessKey: string;
	secretKey: string;
	accessId: string;
	buckets: Bucket[];
	dataDir: string | undefined;
	clockToleranceSeconds: number;
	minPartSize: number;
	maxBodyBytes: number;
	latencyMs: number;
	connectionDelayMs: number;
	connectionRateMiBps: number;
	faults: FaultRule[];
	etags: EtagMode;
	paths: PathFamilies;
	cdnCacheSeconds: number;
	now: () => number;
}

export function resolveConfig(options: EmulatorOptions = {}): ResolvedConfig {
	const buckets = options.buckets && options.buckets.length > 0 ? options.buckets : DEFAULTS.buckets;
	for (const b of buckets) {
		if (!b.name || !b.region) throw new Error(`invalid bucket ${JSON.stringify(b)}: name and region are required`);
	}
	const config: ResolvedConfig = {
		host: options.host ?? DEFAULTS.host,
		port: options.port ?? DEFAULTS.port,
		accessKey: options.accessKey ?? DEFAULTS.accessKey,
		secretKey: options.secretKey ?? DEFAULTS.secretKey,
		accessId: options.accessId ?? DEFAULTS.accessId,
		buckets: buckets.map((b) => ({ name: b.name, region: b.region })),
		dataDir: options.dataDir,
		clockToleranceSeconds: options.clockToleranceSeconds ?? DEFAULTS.clockToleranceSeconds,
		minPartSize: options.minPartSize ?? DEFAULTS.minPartSize,
		maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
		latencyMs: options.latencyMs ?? DEFAULTS.latencyMs,
		connectionDelayMs: options.connectionDelayMs ?? DEFAULTS.connectionDelayMs,
		connectionRateMiBps: options.connectionRateMiBps ?? DEFAULTS.connectionRateMiBps,
		faults: options.faults ?? [],
		etags: options.etags ?? DEFAULTS.etags,
		paths: options.paths ?? DEFAULTS.paths,
		cdnCacheSeconds: options.cdnCacheSeconds ?? DEFAULTS.cdnCacheSeconds,
		now: options.now ?? Date.now,
	};
	const nonNegative: Array<keyof ResolvedConfig> = [
		'port',
		'clockToleranceSeconds',
		'minPartSize',
		'latencyMs',
		'connectionDelayMs',
		'connectionRateMiBps',
		'cdnCacheSeconds',
	];
	for (const name of nonNegative) {
		const value = config[name] as number;
		if (!Number.isFinite(value) || value < 0) throw new Error(`invalid ${name}: ${value}`);
	}
	if (!Number.isFinite(config.maxBodyBytes) || config.maxBodyBytes < 1) {
		throw new Error(`invalid maxBodyBytes: ${config.maxBodyBytes}`);
	}
	if (config.etags !== 'md5' && config.etags !== 'random') {
		throw new Error(`invalid etags: ${String(config.etags)} (md5 or random)`);
	}
	if (!PATH_FAMILIES.includes(config.paths)) {
		throw new Error(`invalid paths: ${String(config.paths)} (${PATH_FAMILIES.join(', ')})`);
	}
	if (!config.accessKey || !config.secretKey || !config.accessId) {
		throw new Error('accessKey, secretKey and accessId must not be empty');
	}
	if (config.accessId.includes('/')) throw new Error('accessId must not contain "/"');
	return config;
}
