/**
 * The emulator in a process of its own, so its CPU and memory never mix with the node's.
 * The parent talks to it over the IPC channel: each message `{ id, cmd, ... }` gets one
 * reply `{ id, ok, value | error }`.
 */
import type { Emulator, NetworkProfile } from '../test/emulator';

type Message = { id: number; cmd: string } & Record<string, unknown>;

/** What each command does; the reply carries what it returns. */
function commands(emulator: Emulator): Record<string, (m: Message) => unknown> {
	return {
		// CPU seconds spent by the emulator so far: the parent takes differences around a run.
		cpu: () => {
			const { user, system } = process.cpuUsage();
			return (user + system) / 1e6;
		},
		stats: () => emulator.stats(),
		resetStats: () => emulator.resetStats(),
		setLatency: (m) => emulator.setLatency(m.ms as number),
		setNetworkProfile: (m) => emulator.setNetworkProfile(m.profile as NetworkProfile),
		sha256: (m) => emulator.objectSha256(m.bucket as string, m.region as string, m.key as string),
		stop: async () => {
			await emulator.stop();
			setImmediate(() => process.exit(0));
		},
	};
}

async function main(): Promise<void> {
	// Random ETags by default: the real service hashes parts on its own machines, not on the
	// client's two cores, and curl's single upload (the ceiling) is not hashed either.
	const etags = process.env.BENCH_ETAGS === 'md5' ? 'md5' : 'random';
	// BENCH_EMULATOR_DIR: another copy of the emulator, to measure a fix to it before it lands.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { start } = require(process.env.BENCH_EMULATOR_DIR ?? '../test/emulator') as typeof import('../test/emulator');
	const emulator = await start({ port: 0, etags });
	const handlers = commands(emulator);
	process.on('message', async (message: Message) => {
		try {
			const value = await handlers[message.cmd](message);
			process.send?.({ id: message.id, ok: true, value: value ?? true });
		} catch (error) {
			process.send?.({ id: message.id, ok: false, error: (error as Error).message });
		}
	});
	// An orphaned emulator would hold the port and its temp data forever.
	process.on('disconnect', () => void emulator.stop().finally(() => process.exit(0)));
	const { url, accessKey, secretKey, buckets } = emulator;
	process.send?.({ ready: true, url, accessKey, secretKey, bucket: buckets[0] });
}

main().catch((error: Error) => {
	process.stderr.write(`bench emulator: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
