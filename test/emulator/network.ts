import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import type { ServerContext } from './context';
import type { StatsRecorder } from './stats';
import type { NetworkProfile } from './types';

/**
 * The far-service profile's connection side: a delay before the first request of each new TCP
 * connection (standing in for the TCP and TLS handshakes a far service costs) and a cap on the
 * rate at which one connection's request bodies are read (a window-limited stream over a long
 * round trip). Latency before each answer stays in `sendJson`.
 */

export interface NetworkSettings {
	connectionDelayMs: number;
	/** MiB/s per connection for request bodies; 0 is no cap. */
	connectionRateMiBps: number;
}

const MIB = 1024 * 1024;
/**
 * The bucket holds at most 100 ms of the rate (at least 64 KiB): a pause lasts until a quarter of
 * that is back, so the cap is kept with a few timers per second, and a timer that fires late under
 * load is made up from the bucket instead of lowering the rate. Each body starts with that quarter
 * (25 ms of the rate), not a full bucket: a new or idle TCP connection never opens with a burst,
 * and reads then follow the rate from the body's first byte, on average neither ahead nor behind.
 */
const BURST_SECONDS = 0.1;
const MIN_BURST = 64 * 1024;
const RESUME_AT = 1 / 4;

interface Connection {
	delayed: boolean;
	tokens: number;
	/** performance.now() of the last refill; undefined until the current body's first bytes. */
	refilledAt: number | undefined;
	paused: boolean;
	timer: NodeJS.Timeout | undefined;
	/** Resumes reading for the request now on the connection, if it asked for data meanwhile. */
	resume: (() => void) | undefined;
}

export class Network {
	private readonly connections = new WeakMap<Socket, Connection>();

	constructor(
		private readonly settings: NetworkSettings,
		private readonly stats: StatsRecorder,
	) {}

	set(changes: Partial<NetworkSettings>): void {
		const next = {
			connectionDelayMs: changes.connectionDelayMs ?? this.settings.connectionDelayMs,
			connectionRateMiBps: changes.connectionRateMiBps ?? this.settings.connectionRateMiBps,
		};
		validateNetworkSettings(next);
		Object.assign(this.settings, next);
	}

	/**
	 * Called once per API or CDN request, before anything else reads it: counts it, waits the
	 * connection delay on a connection's first request, and puts the request body under the
	 * connection's rate cap. Resolves false when the client left during the delay.
	 */
	async admit(req: IncomingMessage): Promise<boolean> {
		const socket = req.socket;
		let conn = this.connections.get(socket);
		if (!conn) {
			conn = { delayed: false, tokens: 0, refilledAt: undefined, paused: false, timer: undefined, resume: undefined };
			this.connections.set(socket, conn);
			this.stats.connectionOpened();
			const c = conn;
			socket.once('close', () => clearTimeout(c.timer));
		}
		this.stats.requestServed();
		if (!conn.delayed && this.settings.connectionDelayMs > 0) {
			conn.delayed = true;
			this.stats.connectionDelayed();
			// Nothing is read during the handshake: a body cannot arrive before the connection is up.
			socket.pause();
			await sleep(this.settings.connectionDelayMs);
			if (socket.destroyed || req.destroyed) return false;
			socket.resume();
		}
		// Without a cap the request is left exactly as Node made it (the loopback figures stay comparable).
		if (this.settings.connectionRateMiBps > 0) this.throttle(req, conn);
		conn.delayed = true;
		return true;
	}

	/**
	 * A token bucket on the body bytes as the HTTP parser hands them over. Over budget, the socket
	 * stops reading (the kernel buffers fill and TCP pushes back on the client), so nothing piles up
	 * in memory; the request's own read requests are held until the pause ends.
	 */
	private throttle(req: IncomingMessage, conn: Connection): void {
		const push = req.push.bind(req);
		const read = req._read.bind(req);
		let wantsData = false;
		conn.refilledAt = undefined;
		conn.resume = () => {
			// Between requests the socket must read again, or the next request's head never arrives.
			if (req.complete) return void req.socket.resume();
			if (wantsData || req.readableLength < req.readableHighWaterMark) {
				wantsData = false;
				if (!req.complete && !req.destroyed) read(req.readableHighWaterMark);
			}
		};
		req._read = (size: number) => {
			if (conn.paused) wantsData = true;
			else read(size);
		};
		req.push = (chunk: unknown, encoding?: BufferEncoding) => {
			const more = push(chunk, encoding);
			if (chunk && (chunk as Buffer).length > 0) this.take(req.socket, conn, (chunk as Buffer).length);
			return more;
		};
	}

	private take(socket: Socket, conn: Connection, bytes: number): void {
		const rate = this.settings.connectionRateMiBps * MIB;
		if (rate <= 0) return;
		const burst = Math.max(MIN_BURST, rate * BURST_SECONDS);
		const now = performance.now();
		conn.tokens =
			conn.refilledAt === undefined
				? burst * RESUME_AT
				: Math.min(burst, conn.tokens + ((now - conn.refilledAt) / 1000) * rate);
		conn.refilledAt = now;
		conn.tokens -= bytes;
		if (conn.tokens >= 0 || conn.paused) return;
		const waitMs = Math.ceil(((burst * RESUME_AT - conn.tokens) / rate) * 1000);
		conn.paused = true;
		this.stats.throttled(waitMs);
		socket.pause();
		conn.timer = setTimeout(() => {
			conn.paused = false;
			conn.timer = undefined;
			if (socket.destroyed) return;
			conn.resume?.();
		}, waitMs);
	}
}

/** Checks every value first, so a bad one changes nothing. */
export function setNetworkProfile(ctx: ServerContext, profile: NetworkProfile): void {
	const { latencyMs, ...rest } = profile;
	if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
		throw new Error(`invalid latencyMs: ${latencyMs} (a number of ms >= 0)`);
	}
	ctx.network.set(rest);
	if (latencyMs !== undefined) ctx.latencyMs = latencyMs;
}

export function validateNetworkSettings(s: NetworkSettings): void {
	if (!(Number.isFinite(s.connectionDelayMs) && s.connectionDelayMs >= 0)) {
		throw new Error(`invalid connectionDelayMs: ${s.connectionDelayMs} (a number of ms >= 0)`);
	}
	if (!(Number.isFinite(s.connectionRateMiBps) && s.connectionRateMiBps >= 0)) {
		throw new Error(`invalid connectionRateMiBps: ${s.connectionRateMiBps} (MiB/s >= 0; 0 is no cap)`);
	}
}
