/**
 * The adversary's runs end: a request the emulator never finishes handling fails the schedule that
 * left it, named by its seed, within a bound, instead of holding the emulator's stop() (and with it
 * the whole suite) for ever.
 */
import { rawRequest } from '../emulator/conformance/client';
import { settled } from './explore';
import { startAdversaryEnv } from './run';

it('a request the emulator still handles after a schedule fails that schedule with its seed and the request, not the whole suite', async () => {
	const env = await startAdversaryEnv();
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let reached!: () => void;
	const arrived = new Promise<void>((resolve) => (reached = resolve));
	// A handler that waits until told (as one waiting for a body whose client already left would, for ever).
	env.emulator.adversary.setHooks({
		before: async () => {
			reached();
			await released;
			return undefined;
		},
	});
	try {
		const target = '/api/v1/files/list?bucket_name=my-bucket&region=us-east-1&prefix=s7-1%2Ffrom%2F';
		const answer = rawRequest(env.emulator.url, { method: 'GET', target, checkContract: false }).catch(() => undefined);
		await arrived;
		await expect(settled(env, 7, 300)).rejects.toThrow(
			/^seed 7: 1 request\(s\) still handled 0\.3 s after the schedule: GET \/api\/v1\/files\/list\?.*prefix=s7-1%2Ffrom%2F/,
		);
		release();
		await answer;
		await expect(settled(env, 7, 5000)).resolves.toBeUndefined();
	} finally {
		release();
		env.emulator.adversary.setHooks(undefined);
		await env.stop();
	}
});
