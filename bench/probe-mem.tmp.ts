import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorProcess, runScenario } from './children';
import { restartOnCurrentNode } from './runtime';
import { makeFiles, seed } from './many-files';

async function main() {
	const code = await restartOnCurrentNode(console.log);
	if (code !== undefined) process.exit(code);
	const emulator = await EmulatorProcess.start();
	const { info } = emulator;
	try {
		for (const n of (process.env.NS ?? '200,1000,3000').split(',').map(Number)) {
			for (const op of (process.env.OPS ?? 'delete').split(',')) {
				const files = makeFiles(mkdtempSync(join(tmpdir(), 'pm-')), n, 65536);
				await seed(info, files);
				const run = await runScenario(
					{
						parameters: {
							bucketName: info.bucket.name,
							region: info.bucket.region,
							resource: 'file',
							operation: op,
							fileKey: '={{ $json.key }}',
						},
						credentials: { accessKey: info.accessKey, secretKey: info.secretKey, baseUrl: info.url },
						jsonItems: files.map((f) => ({ key: f.key })),
						typeVersion: 3,
						label: `mem-${op}-${n}`,
					},
					emulator,
				);
				console.log(
					op,
					n,
					'ms',
					run.ms.toFixed(0),
					'rss growth MiB',
					((run.peakRss - run.baselineRss) / 1048576).toFixed(0),
					'buffers',
					(run.buffersHeld / 1048576).toFixed(0),
					'retained',
					(run.retained / 1048576).toFixed(1),
					'items',
					run.items,
					'gc',
					JSON.stringify(run.gc),
					run.error ?? '',
				);
			}
		}
	} finally {
		await emulator.stop();
	}
}
main().catch((e) => {
	console.error(e);
	process.exit(1);
});
