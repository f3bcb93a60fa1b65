import { sleep } from 'n8n-workflow';
import { steadyMs } from './clock';

/** The part of a Node.js readable stream the watch needs (no `stream` import in community nodes). */
interface ReadableBody {
	push(chunk: unknown, encoding?: string): boolean;
	destroy(error?: Error): unknown;
}

/** What a watched response body did so far. */
export interface BodyProgress {
	/** Bytes of the body that arrived from the network so far. */
	readonly received: number;
	/** True once this watch ended the body for sending nothing for the idle time. */
	readonly stalled: boolean;
	/**
	 * Whether the body had been silent for about the idle time: when it failed, the cause was a
	 * stall even if n8n's HTTP client gave up on it first (n8n 2.x times out a silent body too).
	 */
	readonly silentForIdleTime: boolean;
	/** Ends the watch; call it when the consumer is done, however it ended. */
	stop(): void;
}

const LONGEST_CHECK_INTERVAL_MS = 1000;

function sizeOf(chunk: unknown): number {
	if (typeof chunk === 'string') return Buffer.byteLength(chunk);
	return (chunk as { byteLength?: number } | null)?.byteLength ?? 0;
}

/**
 * Counts the bytes of a response body as they arrive, and ends the body with an error when no
 * byte came for `idleMs`: n8n's request timeout stops counting once the headers arrive, so a
 * body that stalls after them would otherwise hold the run forever. `closeConnection` aborts the
 * request as well, when the body's destroy alone does not reach its socket.
 *
 * It counts what the HTTP client pushes into the stream rather than listening for `data`: a
 * listener (and the pause it would need so that no chunk passes before n8n reads) changes how
 * the stream flows, and n8n's database binary store, which reads with a `data` listener of its
 * own, would then never see a byte.
 */
export function watchBody(body: unknown, idleMs: number, closeConnection?: () => void): BodyProgress {
	const stream = body as ReadableBody;
	let received = 0;
	let stalled = false;
	let stopped = false;
	let lastProgressAt = steadyMs();
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: string) => {
		received += sizeOf(chunk);
		lastProgressAt = steadyMs();
		return push(chunk, encoding);
	};
	const checkEveryMs = Math.min(LONGEST_CHECK_INTERVAL_MS, Math.max(50, Math.floor(idleMs / 5)));
	void (async () => {
		while (!stopped) {
			await sleep(checkEveryMs);
			if (!stopped && steadyMs() - lastProgressAt >= idleMs) {
				stalled = true;
				stopped = true;
				stream.destroy(new Error(`no data for ${Math.round(idleMs / 1000)} s`));
				// A wrapped body's destroy waits for the read pending on the stalled socket: the request's abort ends it.
				closeConnection?.();
			}
		}
	})();
	return {
		get received() {
			return received;
		},
		get stalled() {
			return stalled;
		},
		get silentForIdleTime() {
			return stalled || steadyMs() - lastProgressAt >= idleMs - checkEveryMs;
		},
		stop() {
			stopped = true;
		},
	};
}
