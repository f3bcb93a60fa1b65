/**
 * What the suites of transformation-shaped keys (`tr-w_300/…`, spec §3.11) share: storing files that nothing the CDN
 * sends tells apart (one second of the storage's clock), and a run that counts every request the emulator received.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../emulator';
import type { HookCall } from '../emulator/history';
import { HERE, runFileStorage } from './support';

/** Stores the files as another writer would (public), all within one second of the storage's clock. */
export async function storeInOneSecond(emulator: Emulator, files: Array<[string, Buffer]>): Promise<void> {
	for (;;) {
		const seconds = new Set<number>();
		for (const [key, bytes] of files) {
			const { lastModified } = await emulator.adversary.put(HERE, key, bytes, {
				visibility: 'public',
				contentType: 'application/octet-stream',
				writer: 'batch upload',
			});
			seconds.add(Math.floor(Date.parse(lastModified) / 1000));
		}
		if (seconds.size === 1) return;
	}
}

/** Runs the node with Continue On Fail, counting the requests the emulator received (API and CDN alike). */
export async function runCounted(emulator: Emulator, parameters: INodeParameters) {
	const calls: HookCall[] = [];
	emulator.adversary.setHooks({
		before: async (call) => {
			calls.push(call);
			return undefined;
		},
	});
	try {
		return { result: await runFileStorage(emulator, parameters, { continueOnFail: true }), calls };
	} finally {
		emulator.adversary.setHooks(undefined);
	}
}
