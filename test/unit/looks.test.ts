/**
 * The window between a look (a listing, an existence check) and the destructive request acting on it
 * holds no wait (transport/looks.ts): every wait of the attempt loop is counted, a first send whose
 * look is older than a wait is checked in its slot, and a check during which anything waited is no
 * proof. The pure decisions, and the real attempt loop and pool counting the waits.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { inPoolSlot, runAttempts, type AttemptPlan } from '../../nodes/FileStorage/transport/attempts';
import { checkVerdict, MOST_CHECKS, mustCheckBeforeSend, WaitCount } from '../../nodes/FileStorage/transport/looks';
import { RunPool } from '../../nodes/FileStorage/transport/pool';

const OK: IN8nHttpFullResponse = { statusCode: 200, headers: {}, body: {} };
const BUSY: IN8nHttpFullResponse = { statusCode: 503, headers: { 'retry-after': '0' }, body: {} };

function plan(
	pool: RunPool | undefined,
	answers: IN8nHttpFullResponse[],
	waits: WaitCount,
	extra: Partial<AttemptPlan<IN8nHttpFullResponse>> = {},
): AttemptPlan<IN8nHttpFullResponse> {
	const going = async (beforeGoing: ((waited: boolean) => Promise<void>) | undefined, waited: boolean) => {
		await beforeGoing?.(waited);
		return answers.shift() ?? OK;
	};
	return {
		policy: 'idempotent',
		maxRetries: 3,
		send: async (beforeGoing) =>
			pool
				? await inPoolSlot(pool, async (waited) => await going(beforeGoing, waited), true)
				: await going(beforeGoing, false),
		networkFailure: () => new Error('network'),
		statusFailure: () => new Error('status'),
		onWait: () => waits.note(),
		...extra,
	};
}

describe('a look and the destructive send acting on it', () => {
	it('a first send is checked only after a wait since its look, a repeat always', () => {
		expect(mustCheckBeforeSend({ attempt: 0, always: false, waitedSinceLook: false })).toBe(false);
		expect(mustCheckBeforeSend({ attempt: 0, always: false, waitedSinceLook: true })).toBe(true);
		expect(mustCheckBeforeSend({ attempt: 0, always: true, waitedSinceLook: false })).toBe(true);
		expect(mustCheckBeforeSend({ attempt: 1, always: false, waitedSinceLook: false })).toBe(true);
	});

	it('a check that found the send safe while something waited is asked again, then unsettled', () => {
		expect(checkVerdict('send', false, 1)).toBe('send');
		expect(checkVerdict('send', true, 1)).toBe('again');
		expect(checkVerdict('send', true, MOST_CHECKS - 1)).toBe('again');
		expect(checkVerdict('send', true, MOST_CHECKS)).toBe('unsettled');
		// Withholding the send is safe whatever waited: it stands.
		expect(checkVerdict('keep', true, 1)).toBe('keep');
		expect(checkVerdict('gone', true, 1)).toBe('gone');
	});

	it('counts a retry after a Retry-After, and none when the answer came at once', async () => {
		const waits = new WaitCount();
		const mark = waits.mark();
		await runAttempts(plan(undefined, [OK], waits));
		expect(waits.since(mark)).toBe(false);
		await runAttempts(plan(undefined, [BUSY, OK], waits));
		expect(waits.since(mark)).toBe(true);
	});

	it('counts a wait for a slot of the run’s pool (paused by another item), and a retry after no answer', async () => {
		const pool = new RunPool(2, 1024);
		const waits = new WaitCount();
		pool.pause(50);
		const mark = waits.mark();
		await runAttempts(plan(pool, [OK], waits));
		expect(waits.since(mark)).toBe(true);
		const later = waits.mark();
		let failed = false;
		const lost = plan(undefined, [], waits, {
			send: async () => {
				if (failed) return OK;
				failed = true;
				throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			},
		});
		await runAttempts(lost);
		expect(waits.since(later)).toBe(true);
	});

	it('checks a first send whose look is older than a wait, though it took its slot at once', async () => {
		const waits = new WaitCount();
		const lookedAt = waits.mark();
		// A request of the look (the destination's listing) waited out a Retry-After after the source was listed.
		await runAttempts(plan(undefined, [BUSY, OK], waits));
		const checks: number[] = [];
		const send = plan(new RunPool(2, 1024), [OK], waits, {
			checkFirst: 'afterWait',
			waitedSinceLook: () => waits.since(lookedAt),
			beforeResend: async (facts) => {
				checks.push(facts.attempts);
			},
		});
		await runAttempts(send);
		expect(checks).toEqual([0]);
		// Nothing waited since a fresh look: no check, no extra request.
		const fresh = waits.mark();
		const none: number[] = [];
		await runAttempts(
			plan(new RunPool(2, 1024), [OK], waits, {
				checkFirst: 'afterWait',
				waitedSinceLook: () => waits.since(fresh),
				beforeResend: async (facts) => {
					none.push(facts.attempts);
				},
			}),
		);
		expect(none).toEqual([]);
	});
});
