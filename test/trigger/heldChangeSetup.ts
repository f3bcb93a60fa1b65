/**
 * What the held-change suites share: one emulator for the file, its API, and a CDN that refuses every download until
 * opened, so that a poll's downloads fail and their changes are held back; and changes held back that way.
 */
import type { HookCall } from '../emulator/history';
import { apiFor, Poller, put, useEmulator } from './support';

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

	/**
	 * A trigger on `folder` (File Created and Updated, Download File) whose update of a.txt and creation of b.txt are
	 * both held back by one poll (1 of 3) while the CDN refuses them.
	 */
	async function heldUpdateAndCreation(folder: string) {
		const [updated, created] = [`${folder}/a.txt`, `${folder}/b.txt`];
		const parameters = { folder, watchFor: ['created', 'updated'], options: { downloadFile: true } };
		const trigger = new Poller(emulator, parameters as never);
		await put(api(), updated, 'first');
		expect((await trigger.poll()).returnedNull).toBe(true);
		const cdn = refusingCdn();
		await put(api(), updated, 'second version');
		await put(api(), created, 'new file');
		// Both downloads fail: held back (1 of 3 polls).
		expect((await trigger.poll()).returnedNull).toBe(true);
		return { trigger, cdn, updated, created };
	}

	return { emulator, api, refusingCdn, heldUpdateAndCreation };
}
