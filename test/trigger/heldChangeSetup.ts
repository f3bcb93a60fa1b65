/**
 * What the held-change suites share: one emulator for the file, its API, and a CDN that refuses every download until
 * opened, so that a poll's downloads fail and their changes are held back.
 */
import type { HookCall } from '../emulator/history';
import { apiFor, useEmulator } from './support';

export function useHeldChangeSetup() {
	const emulator = useEmulator();
	const api = () => apiFor(emulator());

	beforeEach(() => emulator().adversary.setHooks(undefined));

	/** The CDN refuses every download until `open()` is called. */
	function refusingCdn(): { open: () => void } {
		let refusing = true;
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				refusing && call.op === 'cdn'
					? { status: 403, headers: { 'Content-Type': 'text/plain' }, body: 'Forbidden' }
					: undefined,
		});
		return { open: () => (refusing = false) };
	}

	return { emulator, api, refusingCdn };
}
