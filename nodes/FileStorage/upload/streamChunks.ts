import { sleep } from 'n8n-workflow';

import { isFileReadStream, releaseReadBuffer } from './binaryInput';
import { steadyMs } from '../transport/clock';

/** What went wrong with a source stream, in words the caller turns into its own error. */
export type StreamProblem =
	| { kind: 'broke'; received: number; expected?: number; reason: string }
	| { kind: 'stalled'; received: number; expected?: number; idleSeconds: number }
	| { kind: 'short'; received: number; expected: number }
	| { kind: 'long'; expected: number };

export interface ChunkRules {
	/** The announced length: reading past it, or ending short of it, fails. */
	expected?: number;
	/** More than announced is fine: an HTTP client unpacks a body the server compressed anyway. */
	longerIsFine?: boolean;
	/** Fail when the source sends nothing for this long while the reader waits for it. */
	idleMs?: number;
	fail: (problem: StreamProblem) => Error;
	/**
	 * The reader copies each chunk before it asks for the next, so a file read's buffer may be
	 * freed then (see releaseReadBuffer). Not for a reader that hands chunks on, e.g. to a file
	 * write that may still be queued.
	 */
	copiedBeforeNext?: boolean;
	/**
	 * Every chunk is a buffer that nothing else refers to once it is handed over, so it may be
	 * freed once copied (with copiedBeforeNext): a response body from n8n's HTTP client, whose
	 * chunks are the HTTP parser's copies. A file read stream's chunks are freed without it.
	 */
	chunksAreItsOwn?: boolean;
	/**
	 * Lets go of a source that stalled. Destroying the stream (the default) is not enough for a
	 * response body of n8n's HTTP client: its wrapper waits for the pending read before it closes.
	 */
	stop?: (error: Error) => void;
}

const LONGEST_CHECK_INTERVAL_MS = 1000;

interface Destroyable {
	destroy?(error?: Error): unknown;
}

/**
 * Error codes in words. n8n replaces the whole message of a node error that contains a code it
 * knows (ECONNRESET, ENOENT, …) with a generic sentence, so codes never go into messages.
 */
const CODE_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'the connection was aborted',
	EPIPE: 'the connection was closed',
	ETIMEDOUT: 'the connection timed out',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
	ENOENT: 'no such file or folder',
	EISDIR: 'it is a folder',
	ENOTDIR: 'a part of the path is not a folder',
	EACCES: 'permission denied',
	EPERM: 'operation not permitted',
	ENOSPC: 'no space left on the disk',
	EIO: 'input/output error',
	ERR_STREAM_PREMATURE_CLOSE: 'the connection closed early',
};

/** A short reason for a failed read, in words, without a URL's query or user info. */
export function readFailureReason(error: unknown): string {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	const known = typeof code === 'string' ? CODE_WORDS[code] : undefined;
	if (known) return known;
	const text = String(message ?? 'unknown error')
		// A URL in a message may carry a password or a signed query: never repeat them.
		.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#'"@]*@/gi, '$1')
		.replace(/(https?:\/\/[^\s?#'"]*)[?#][^\s'"]*/gi, '$1')
		.replace(/\b(E[A-Z_]{3,})\b/g, (word) => CODE_WORDS[word] ?? word.toLowerCase().replace(/_/g, ' '));
	return text.slice(0, 200);
}

/**
 * The chunks of a source stream, checked against its announced length, with a watchdog that
 * counts only the time the reader waits for data: while parts are being sent the reader does not
 * ask, the stream holds back (back-pressure reaches the sender), and that wait is not a stall.
 */
export async function* checkedChunks(stream: unknown, rules: ChunkRules): AsyncGenerator<Buffer> {
	const iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
	const ownsItsReads = rules.copiedBeforeNext === true && (rules.chunksAreItsOwn === true || isFileReadStream(stream));
	let received = 0;
	let waitingSince: number | undefined;
	let stalled = false;
	let finished = false;
	const { idleMs } = rules;
	const checkEveryMs = Math.min(LONGEST_CHECK_INTERVAL_MS, Math.max(50, Math.floor((idleMs ?? 0) / 5)));
	// n8n 2.x's HTTP client also ends a body that is silent for its timeout, a moment before the
	// watchdog may: a failure after that long a wait is the stall too.
	const silentForIdleTime = () =>
		stalled ||
		(idleMs !== undefined && waitingSince !== undefined && steadyMs() - waitingSince >= idleMs - checkEveryMs);
	if (idleMs !== undefined) {
		void (async () => {
			while (!finished) {
				await sleep(checkEveryMs);
				if (!finished && waitingSince !== undefined && steadyMs() - waitingSince >= idleMs) {
					stalled = true;
					if (rules.stop) rules.stop(new Error('no data'));
					else (stream as Destroyable).destroy?.(new Error('no data'));
					return;
				}
			}
		})();
	}
	try {
		for (;;) {
			waitingSince = steadyMs();
			let step: IteratorResult<Buffer>;
			try {
				step = await iterator.next();
			} catch (error) {
				throw rules.fail(
					silentForIdleTime()
						? { kind: 'stalled', received, expected: rules.expected, idleSeconds: Math.round((idleMs ?? 0) / 1000) }
						: { kind: 'broke', received, expected: rules.expected, reason: readFailureReason(error) },
				);
			}
			waitingSince = undefined;
			if (step.done) break;
			const chunk = step.value;
			received += chunk.length;
			if (rules.expected !== undefined && received > rules.expected && !rules.longerIsFine) {
				throw rules.fail({ kind: 'long', expected: rules.expected });
			}
			yield chunk;
			// Resumed only when the next chunk is asked for: this one is copied by then.
			if (ownsItsReads) releaseReadBuffer(chunk, chunk.length);
		}
		if (stalled)
			throw rules.fail({
				kind: 'stalled',
				received,
				expected: rules.expected,
				idleSeconds: Math.round((idleMs ?? 0) / 1000),
			});
		if (rules.expected !== undefined && received < rules.expected) {
			throw rules.fail({ kind: 'short', received, expected: rules.expected });
		}
	} finally {
		finished = true;
		(stream as Destroyable).destroy?.();
	}
}
