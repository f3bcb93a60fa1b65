import { sleep } from 'n8n-workflow';

/** The part of a Node.js readable stream the watch needs (no `stream` import in community nodes). */
interface ReadableBody {
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	pause(): unknown;
	destroy(error?: Error): unknown;
}

/** What a watched response body did so far. */
export interface BodyProgress {
	/**
	 * Bytes of the body its consumer has read. Bytes n8n's HTTP client holds back when a
	 * connection ends early are not counted: they never reach the consumer.
	 */
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

/**
 * Counts the bytes of a response body as its consumer reads them, and ends the body with an
 * error when no byte came for `idleMs`: n8n's request timeout stops counting once the headers
 * arrive, so a body that stalls after them would otherwise hold the run forever.
 *
 * The body is paused first: a `data` listener on a paused stream does not start the flow, so
 * no byte passes before the consumer (n8n's binary store) reads it, and a stream emits `data`
 * for every chunk it hands out however it is read (piped, iterated or read()).
 */
export function watchBody(body: unknown, idleMs: number): BodyProgress {
	const stream = body as ReadableBody;
	let received = 0;
	let stalled = false;
	let stopped = false;
	let lastProgressAt = Date.now();
	stream.pause();
	stream.on('data', (chunk: Buffer) => {
		received += chunk.length;
		lastProgressAt = Date.now();
	});
	const checkEveryMs = Math.min(LONGEST_CHECK_INTERVAL_MS, Math.max(50, Math.floor(idleMs / 5)));
	void (async () => {
		while (!stopped) {
			await sleep(checkEveryMs);
			if (!stopped && Date.now() - lastProgressAt >= idleMs) {
				stalled = true;
				stopped = true;
				stream.destroy(new Error(`no data for ${Math.round(idleMs / 1000)} s`));
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
			return stalled || Date.now() - lastProgressAt >= idleMs - checkEveryMs;
		},
		stop() {
			stopped = true;
		},
	};
}
