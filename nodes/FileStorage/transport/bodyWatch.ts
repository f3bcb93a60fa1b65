import { sleep } from 'n8n-workflow';

/** The part of a Node.js readable stream the watch needs (no `stream` import in community nodes). */
interface ReadableBody {
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	pause(): unknown;
	destroy(error?: Error): unknown;
}

/** What a watched response body did so far. */
export interface BodyProgress {
	/** Bytes of the body its consumer has read. */
	readonly received: number;
	/** True once the body was ended for sending nothing for the idle time. */
	readonly stalled: boolean;
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
		stop() {
			stopped = true;
		},
	};
}
