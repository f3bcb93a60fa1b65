/**
 * The emulator in a process of its own, so its CPU and memory never mix with the node's.
 * The parent talks to it over the IPC channel: each message `{ id, cmd, ... }` gets one
 * reply `{ id, ok, value | error }`.
 */
import type { Emulator, EmulatorOptions, NetworkProfile } from '../test/emulator';

import { procStatus } from './memory';

type Command =
	| { id: number; cmd: 'cpu' }
	| { id: number; cmd: 'stats' }
	| { id: number; cmd: 'resetStats' }
	| { id: number; cmd: 'setLatency'; ms: number }
	| { id: number; cmd: 'setNetworkProfile'; profile: NetworkProfile }
	| { id: number; cmd: 'sha256'; bucket: string; region: string; key: string }
	| { id: number; cmd: 'stop' };

async function handle(emulator: Emulator, message: Command): Promise<unknown> {
	switch (message.cmd) {
		case 'cpu': {
			// CPU seconds spent by the emulator so far: the parent takes differences around a run.
			const { user, system } = process.cpuUsage();
			return { cpuSeconds: (user + system) / 1e6, rss: procStatus().rss };
		}
		case 'stats':
			return emulator.stats();
		case 'resetStats':
			emulator.resetStats();
			return true;
		case 'setLatency':
			emulator.setLatency(message.ms);
			return true;
		case 'setNetworkProfile':
			emulator.setNetworkProfile(message.profile);
			return true;
		case 'sha256':
			return await emulator.objectSha256(message.bucket, message.region, message.key);
		case 'stop':
			await emulator.stop();
			setImmediate(() => process.exit(0));
			return true;
	}
}

/**
 * BENCH_EMULATOR_DIR points at another copy of the emulator, to measure a fix to it before it
 * lands; normally the project's own.
 */
function loadEmulator(): { start(options: EmulatorOptions): Promise<Emulator> } {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(process.env.BENCH_EMULATOR_DIR ?? '../test/emulator');
}

async function main(): Promise<void> {
	// Random ETags by default: the real service hashes parts on its own machines, not on the
	// client's two cores, and curl's single upload (the ceiling) is not hashed either.
	const etags = process.env.BENCH_ETAGS === 'md5' ? 'md5' : 'random';
	const emulator = await loadEmulator().start({ port: 0, etags });
	process.on('message', (message: Command) => {
		handle(emulator, message).then(
			(value) => process.send?.({ id: message.id, ok: true, value }),
			(error: Error) => process.send?.({ id: message.id, ok: false, error: error.message }),
		);
	});
	// An orphaned emulator would hold the port and its temp data forever.
	process.on('disconnect', () => void emulator.stop().finally(() => process.exit(0)));
	process.send?.({
		ready: true,
		url: emulator.url,
		accessKey: emulator.accessKey,
		secretKey: emulator.secretKey,
		bucket: emulator.buckets[0],
	});
}

main().catch((error: Error) => {
	process.stderr.write(`bench emulator: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
