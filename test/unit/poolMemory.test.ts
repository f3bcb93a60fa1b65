/**
 * Version 3's memory bound, README "Memory bound of Multipart Upload":
 *   max(Upload Memory, the largest single body) + 4 KiB per body in flight.
 * A part body given back while a same-sized reservation waits is "handed" to that reservation
 * (RunPool.handIdle). Only SharedPartBodies ever takes the handed body (bodyBuffer); a small file
 * sent in one request (storeSource → withBodyMemory + readWholeAsForm) and a step-by-step Upload
 * Part (withBodyMemory) allocate a body of their own, while the pool keeps the handed one
 * referenced in `handed` until the reservation ends. Both count as one reservation, so such a
 * reservation must never be handed an idle body.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { RunPool, withBodyMemory } from '../../nodes/FileStorage/transport/pool';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const MIB = 1024 * 1024;
const ENVELOPE_ROOM = 4096;
const settled = async () => await new Promise((resolve) => setImmediate(resolve));

describe('Upload Memory while a small file waits for a part body', () => {
	it.each([
		['exactly Part Size', 0],
		['one byte more than Part Size (control: the idle body is let go of)', 1],
	])(
		'a small file of %s sent in one request keeps the held bytes within Upload Memory + 4 KiB per body',
		async (_label, extra) => {
			const part = 8 * MIB;
			const capacity = part + ENVELOPE_ROOM;
			// Upload Memory = one part: a large file's part is in flight.
			const pool = new RunPool(8, part);
			await pool.reserve(part);
			let partBody: Buffer | undefined = pool.bodyBuffer(capacity);
			partBody.fill(1);
			const partRef = new WeakRef(partBody);

			// A small file (below the threshold) asks for its body memory, as storeSource does;
			// readWholeAsForm then allocates a body of its own.
			let answer: () => void = () => {};
			const answered = new Promise<void>((resolve) => (answer = resolve));
			let ownBody: Buffer | undefined;
			const small = withBodyMemory(pool, part + extra, async () => {
				ownBody = Buffer.alloc(part + extra + 300, 2);
				await answered;
			});
			await settled();
			// The large file's part settled: its body goes back to the pool.
			pool.returnBody(partBody, part);
			partBody = undefined;
			await settled();
			expect(ownBody).toBeDefined();

			// While the small file's request is in flight: what is still held?
			await settled();
			gc();
			await settled();
			gc();
			const partBodyStillHeld = partRef.deref() !== undefined;
			const held = (ownBody?.length ?? 0) + (partBodyStillHeld ? capacity : 0);
			answer();
			await small;
			expect(partBodyStillHeld).toBe(false);
			expect(held).toBeLessThanOrEqual(part + extra + 2 * ENVELOPE_ROOM);
		},
	);
});
