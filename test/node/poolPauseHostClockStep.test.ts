/**
 * A 503 with Retry-After: 1 pauses the run's request pool (version 3, transport/pool.ts) for the second the service
 * asked. When the n8n host's wall clock is stepped back meanwhile (NTP correcting a clock that ran fast, a VM resumed),
 * the pause must still end about a second later: a pause kept as a wall-clock instant lasts as long as the step, and
 * the run hangs for it. Through n8n-core's engine over real HTTP to the emulator; the 503 and the step come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const realNow = Date.now;
let stepMs = 0;

beforeEach(() => {
	stepMs = 0;
	Date.now = () => realNow() + stepMs;
});
afterEach(() => {
	Date.now = realNow;
	emulator().adversary.setHooks(undefined);
});

it('ends a pause of the run after the second the service asked for, when the host clock steps back during it', async () => {
	const key = 'pause-clock-step/report.txt';
	let answered503 = false;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op !== 'upload' || call.query.get('key') !== key || answered503) return undefined;
			answered503 = true;
			// Once the node has paused its pool for the second asked, the host clock steps back 10 minutes.
			setTimeout(() => (stepMs -= 600_000), 300).unref();
			return {
				status: 503,
				headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
				body: JSON.stringify({ error: 'Service unavailable' }),
			};
		},
	});
	const started = realNow();
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key },
		{
			items: [fileItem(Buffer.from('quarterly report'), 'report.txt', 'text/plain')],
			typeVersion: 3,
			timeoutMs: 30_000,
		},
	).catch((error: Error) => ({ error, items: undefined }));
	const tookS = Math.round((realNow() - started) / 1000);
	expect(answered503).toBe(true);
	// A pause of 1 s (plus the upload): a run that waits out the clock's step does not end before the harness stops it.
	expect({ error: result.error?.message, within30s: tookS < 30 }).toEqual({ error: undefined, within30s: true });
}, 60_000);
