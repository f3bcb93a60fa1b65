import { createHash } from 'node:crypto';
import { promises as fsp, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { resolveConfig, type ResolvedConfig } from './config';
import type { ServerContext } from './context';
import { FaultInjector } from './faults';
import type { EmulatorHooks } from './history';
import { readJson, TempDir } from './fsutil';
import { Network, setNetworkProfile } from './network';
import { CdnCache } from './routes/cdn-cache';
import { openUploads } from './routes/hooks';
import { createRequestHandler } from './server';
import { StatsRecorder } from './stats';
import { ObjectStore, openObject } from './storage';
import { UploadStore } from './uploads';
import { PATH_FAMILIES, type Emulator, type EmulatorOptions } from './types';

export * from './types';
export { DEFAULTS } from './config';

/** Marks a folder as ours, so we never adopt (and sweep) a folder holding someone's files. */
const MARKER = '.file-storage-emulator.json';
const LOCK = '.lock';
/** 2: an object's sidecar lists its blobs (`blobs: string[]`) instead of one `blob`. */
const FORMAT = 2;

async function prepareDataDir(dir: string | undefined): Promise<{ dir: string; owned: boolean }> {
	if (dir === undefined) {
		return { dir: await fsp.mkdtemp(path.join(os.tmpdir(), 'file-storage-emulator-')), owned: true };
	}
	const resolved = path.resolve(dir);
	await fsp.mkdir(resolved, { recursive: true });
	const entries = await fsp.readdir(resolved);
	if (entries.includes(MARKER)) {
		const marker = await readJson<{ format?: number }>(path.join(resolved, MARKER));
		if (marker?.format !== FORMAT) throw new Error(`data dir ${resolved} has an unknown format; use a fresh folder`);
	} else if (entries.length > 0) {
		throw new Error(`data dir ${resolved} is not empty and was not created by the emulator; refusing to use it`);
	} else {
		await fsp.writeFile(path.join(resolved, MARKER), JSON.stringify({ format: FORMAT }));
	}
	return { dir: resolved, owned: false };
}

/**
 * One emulator per data dir: startup sweeps the temp folder, which would destroy a running
 * emulator's in-flight uploads. A lock naming a dead process (a crash, SIGKILL) is taken over.
 */
function lockDataDir(dir: string): () => void {
	const lock = path.join(dir, LOCK);
	try {
		writeFileSync(lock, String(process.pid), { flag: 'wx' });
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
		const holder = Number(readFileSync(lock, 'utf8'));
		if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
			throw new Error(`data dir ${dir} is in use by another emulator (pid ${holder})`);
		}
		writeFileSync(lock, String(process.pid));
	}
	return () => rmSync(lock, { force: true });
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function urlHost(host: string): string {
	if (host === '0.0.0.0' || host === '') return '127.0.0.1';
	if (host === '::') return '[::1]';
	return host.includes(':') ? `[${host}]` : host;
}

export async function start(options: EmulatorOptions = {}): Promise<Emulator> {
	const config = resolveConfig(options);
	const data = await prepareDataDir(config.dataDir);
	let unlock: (() => void) | undefined;
	const cleanupData = async () => {
		unlock?.();
		if (data.owned) await fsp.rm(data.dir, { recursive: true, force: true });
	};
	try {
		unlock = lockDataDir(data.dir);
		return await run(config, data.dir, cleanupData);
	} catch (err) {
		await cleanupData();
		throw err;
	}
}

async function run(config: ResolvedConfig, dataDir: string, cleanupData: () => Promise<void>): Promise<Emulator> {
	const tmp = new TempDir(path.join(dataDir, 'tmp'));
	// Whatever a crash left in tmp is by definition uncommitted.
	await tmp.reset();
	const objects = new ObjectStore(path.join(dataDir, 'objects'), tmp, config.buckets, config.now);
	const uploads = new UploadStore(path.join(dataDir, 'uploads'), tmp);
	await objects.init();
	await uploads.init();

	const faults = new FaultInjector();
	faults.set(config.faults);
	const stats = new StatsRecorder();
	const network = new Network(
		{ connectionDelayMs: config.connectionDelayMs, connectionRateMiBps: config.connectionRateMiBps },
		stats,
	);
	const ctx: ServerContext = {
		config,
		baseUrl: '',
		objects,
		uploads,
		tmp,
		stats,
		faults,
		latencyMs: config.latencyMs,
		network,
		cdnCache: new CdnCache(config.cdnCacheSeconds, config.now),
	};

	// Each handler still running, with the request it handles (method and target).
	const inFlight = new Map<Promise<void>, string>();
	const track = (work: Promise<void>, request: string) => {
		inFlight.set(work, request);
		void work.finally(() => inFlight.delete(work));
	};
	const handler = createRequestHandler(ctx, track);
	const server = http.createServer({
		// Uploads of several GiB take longer than Node's default 5-minute request timeout.
		requestTimeout: 0,
		highWaterMark: 1 << 20,
	});
	server.on('request', handler);
	// Answer `Expect: 100-continue` only once a handler wants the body (see continueBody), so a
	// request refused by auth, validation or size never sends it.
	server.on('checkContinue', handler);
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(config.port, config.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const url = `http://${urlHost(config.host)}:${port}`;
	ctx.baseUrl = url;

	let stopping: Promise<void> | undefined;
	const stop = () =>
		(stopping ??= (async () => {
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			for (const socket of sockets) socket.destroy();
			await Promise.allSettled([...inFlight.keys()]);
			await closed;
			await cleanupData();
		})());

	return {
		url,
		cdnUrl: url,
		accessKey: config.accessKey,
		secretKey: config.secretKey,
		accessId: config.accessId,
		buckets: config.buckets.map((b) => ({ ...b })),
		dataDir,
		stats: () => ctx.stats.snapshot(uploads.openCount),
		resetStats: () => ctx.stats.reset(),
		setFaults: (rules) => faults.set(rules),
		setLatency: (ms) => setNetworkProfile(ctx, { latencyMs: ms }),
		setPaths: (paths) => {
			if (!PATH_FAMILIES.includes(paths)) throw new Error(`invalid paths: ${String(paths)}`);
			ctx.config.paths = paths;
		},
		setNetworkProfile: (profile) => setNetworkProfile(ctx, profile),
		listOpenUploads: () => openUploads(ctx),
		readObject: async (bucket, region, key) => {
			if (!objects.hasBucket(bucket, region)) return undefined;
			const opened = openObject(objects, () => objects.get(bucket, region, key));
			if (!opened) return undefined;
			try {
				const chunks: Buffer[] = [];
				for await (const chunk of opened.stream()) chunks.push(chunk as Buffer);
				return {
					body: Buffer.concat(chunks),
					contentType: opened.meta.contentType,
					visibility: opened.meta.visibility,
					lastModified: opened.meta.lastModified,
				};
			} finally {
				opened.release();
			}
		},
		objectSha256: async (bucket, region, key) => {
			if (!objects.hasBucket(bucket, region)) return undefined;
			const opened = openObject(objects, () => objects.get(bucket, region, key));
			if (!opened) return undefined;
			try {
				const hash = createHash('sha256');
				for await (const chunk of opened.stream()) hash.update(chunk as Buffer);
				return hash.digest('hex');
			} finally {
				opened.release();
			}
		},
		adversary: {
			setHooks: (hooks?: EmulatorHooks) => {
				ctx.hooks = hooks;
			},
			openRequests: () => [...inFlight.values()],
			recordHistory: (on) => {
				objects.history.enabled = on;
			},
			history: () => objects.history.events,
			tick: () => objects.history.tick(),
			clearHistory: () => objects.history.clear(),
			put: async (where, key, body, { visibility, contentType = 'application/octet-stream', writer }) => {
				const file = objects.newBlobFile(where.name, where.region, key);
				await fsp.writeFile(file, body);
				const meta = await objects.commit(
					where.name,
					where.region,
					key,
					file,
					{ size: body.length, contentType, visibility },
					writer,
				);
				return { lastModified: meta.lastModified };
			},
			remove: async (where, key, writer) => await objects.delete(where.name, where.region, key, writer),
			current: async (key) => {
				const opened = openObject(objects, () => objects.findAnywhere(key));
				if (!opened) return undefined;
				const chunks: Buffer[] = [];
				for await (const chunk of opened.stream()) chunks.push(chunk as Buffer);
				const { size, contentType, visibility, lastModified } = opened.meta;
				return { size, contentType, visibility, lastModified, body: Buffer.concat(chunks) };
			},
		},
		stop,
	};
}
