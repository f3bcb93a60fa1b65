/**
 * A destructive first send decided on a check made before it (a listing, an existence check) is
 * checked again in its slot of the run's pool when it had to wait for that slot: the check made
 * before the wait is seconds old then. Without a wait it is not asked again (no extra request).
 * The real attempt loop and the real pool; the send only records whether the check ran.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { inPoolSlot, runAttempts, type AttemptPlan } from '../../nodes/FileStorage/transport/attempts';
import { RunPool } from '../../nodes/FileStorage/transport/pool';

const OK: IN8nHttpFullResponse = { statusCode: 200, headers: {}, body: {} };

function planIn(pool: RunPool, checkFirst: AttemptPlan<IN8nHttpFullResponse>['checkFirst'], checks: string[]) {
	const plan: AttemptPlan<IN8nHttpFullResponse> = {
		policy: 'idempotent',
		maxRetries: 0,
		send: async (beforeGoing) =>
			await inPoolSlot(
				pool,
				async (waited) => {
					await beforeGoing?.(waited);
					return OK;
				},
				true,
			),
		networkFailure: () => new Error('network'),
		statusFailure: () => new Error('status'),
		beforeResend: async (facts) => {
			checks.push(`checked before attempt ${facts.attempts + 1}`);
		},
		checkFirst,
	};
	return plan;
}

describe('the check of a destructive first send', () => {
	it('is not asked again when the send took a free slot at once: no extra request', async () => {
		const checks: string[] = [];
		await runAttempts(planIn(new RunPool(2, 1024), 'afterWait', checks));
		expect(checks).toEqual([]);
	});

	it("is asked in the send's slot when the run's pool was paused (another item's 429 or 503)", async () => {
		const pool = new RunPool(2, 1024);
		pool.pause(150);
		const checks: string[] = [];
		await runAttempts(planIn(pool, 'afterWait', checks));
		expect(checks).toEqual(['checked before attempt 1']);
	});

	it('is asked in its slot when every slot was busy and the send queued for one', async () => {
		const pool = new RunPool(1, 1024);
		const busy = await pool.slot();
		const checks: string[] = [];
		const sent = runAttempts(planIn(pool, 'afterWait', checks));
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(checks).toEqual([]);
		busy();
		await sent;
		expect(checks).toEqual(['checked before attempt 1']);
	});

	it("is always asked for an upload in one request ('always'), and never without a check to ask", async () => {
		const checks: string[] = [];
		await runAttempts(planIn(new RunPool(2, 1024), 'always', checks));
		expect(checks).toEqual(['checked before attempt 1']);
		const none: string[] = [];
		await runAttempts(planIn(new RunPool(2, 1024), undefined, none));
		expect(none).toEqual([]);
	});

	it('a pool says whether a slot was had at once, after a pause, or after a queue', async () => {
		const pool = new RunPool(1, 1024);
		const first = await pool.takeSlot();
		expect(first.waited).toBe(false);
		const queued = pool.takeSlot();
		await new Promise((resolve) => setImmediate(resolve));
		first.giveBack();
		const second = await queued;
		expect(second.waited).toBe(true);
		second.giveBack();
		pool.pause(20);
		const third = await pool.takeSlot();
		expect(third.waited).toBe(true);
		third.giveBack();
	});
});
