import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorProcess } from './children';
import { runRounds, type Config } from './runner';
import { writeRandomFile } from './data';
import { mibPerSecond } from './stats';
import { FAR_DEFAULT } from './args';
import { restartOnCurrentNode } from './runtime';

const GIB = 1024 ** 3;
const v3 = (part: number, memory: number, extra: Record<string, unknown> = {}): Config => ({
	id: `v3-${part}-${memory}`,
	label: `node v3 ${part} MiB, memory ${memory}`,
	kind: 'node',
	typeVersion: 3,
	parameters: {
		resource: 'file',
		operation: 'multipartUpload',
		partSize: part,
		options: { uploadMemory: memory, ...extra },
	},
});
const configs: Config[] = [
	{ id: 'curl', label: 'curl', kind: 'curl' },
	{
		id: 'raw16x6n',
		label: 'raw 16x6 new conn',
		kind: 'raw',
		partSizeMiB: 16,
		parallel: 6,
		newConnectionPerRequest: true,
	},
	{
		id: 'raw32x4n',
		label: 'raw 32x4 new conn',
		kind: 'raw',
		partSizeMiB: 32,
		parallel: 4,
		newConnectionPerRequest: true,
	},
	v3(16, 96),
	v3(32, 128),
	v3(32, 192),
	v3(24, 96),
	v3(16, 128),
];
const only = process.env.PROBE_ONLY?.split(',');
async function main() {
	const code = await restartOnCurrentNode(console.log);
	if (code !== undefined) process.exit(code);
	const dir = mkdtempSync(join(tmpdir(), 'probe-'));
	const path = join(dir, 'f.bin');
	const size = Number(process.env.PROBE_SIZE ?? GIB);
	const sha256 = writeRandomFile(path, size);
	const emulator = await EmulatorProcess.start();
	try {
		const chosen = configs.filter((c) => !only || only.includes(c.id));
		const runs = await runRounds(
			chosen,
			{ path, name: 'f.bin', size, sha256 },
			emulator,
			Number(process.env.ROUNDS ?? 1),
			console.log,
			async (c) => {
				await emulator.call('setNetworkProfile', {
					profile: c.kind === 'curl' ? { latencyMs: 0, connectionDelayMs: 0, connectionRateMiBps: 0 } : FAR_DEFAULT,
				});
			},
		);
		for (const c of chosen)
			for (const r of runs.get(c.id)!) {
				const par =
					c.kind === 'raw'
						? c.parallel
						: c.kind === 'node'
							? Math.floor(Number((c.parameters.options as any).uploadMemory) / Number(c.parameters.partSize))
							: 0;
				const rate = mibPerSecond(size, r.ms);
				console.log(
					`${c.label}: ${rate.toFixed(1)} MiB/s, x limit ${(rate / (par * 16)).toFixed(3)}, conns ${r.connections?.opened}, req ${r.connections?.requests}${r.node ? `, rss +${((r.node.peakRss - r.node.baselineRss) / 1048576).toFixed(0)}` : ''}`,
				);
			}
	} finally {
		await emulator.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}
main().catch((e) => {
	console.error(e);
	process.exit(1);
});
