import type { IncomingMessage, ServerResponse } from 'node:http';

import type { ResolvedConfig } from './config';
import type { FaultInjector } from './faults';
import type { EmulatorHooks } from './history';
import type { TempDir } from './fsutil';
import type { Network } from './network';
import type { CdnCache } from './routes/cdn-cache';
import type { ParsedTarget } from './query';
import type { StatsRecorder } from './stats';
import type { ObjectStore } from './storage';
import type { UploadStore } from './uploads';

/** Everything a route needs; one per running emulator. */
export interface ServerContext {
	config: ResolvedConfig;
	/** Known once listening: `http://host:port`, also the CDN origin. */
	baseUrl: string;
	objects: ObjectStore;
	uploads: UploadStore;
	tmp: TempDir;
	stats: StatsRecorder;
	faults: FaultInjector;
	latencyMs: number;
	network: Network;
	/** Public CDN answers kept for `cdnCacheSeconds` (off at 0); purge clears a key. */
	cdnCache: CdnCache;
	/** In-process hook points around every request (history.ts); none by default. */
	hooks?: EmulatorHooks;
}

export interface RouteRequest {
	req: IncomingMessage;
	res: ServerResponse;
	target: ParsedTarget;
	/** Path parameter of the multipart routes, as received. */
	uploadId?: string;
}
