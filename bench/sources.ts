/** `--only sources` (bench/README.md): one file uploaded from a binary and from a URL, with and without Content-Length. */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { EmulatorProcess } from './children';
import { runRounds, type Config, type InputFile } from './runner';
import { fmt, runsOf } from './stats';
import type { Table } from './table';
import { DEFAULTS, memoryBound, summarize } from './throughput';

const multipartAtDefaults = { resource: 'file', operation: 'multipartUpload' };

export function sourceConfigs(url: string, file: InputFile): Config[] {
	const common = { kind: 'node' as const, partSizeMiB: DEFAULTS.partSizeMiB, parallel: DEFAULTS.parallel };
	return [
		{
			...common,
			id: 'src-binary',
			label: 'Binary Field (a binary in n8n’s filesystem store)',
			parameters: multipartAtDefaults,
		},
		{
			...common,
			id: 'src-url',
			label: 'URL, with Content-Length',
			parameters: { ...multipartAtDefaults, source: 'url', sourceUrl: `${url}/${file.name}?signature=x` },
		},
		{
			...common,
			id: 'src-url-chunked',
			label: 'URL, without Content-Length (chunked)',
			parameters: { ...multipartAtDefaults, source: 'url', sourceUrl: `${url}/${file.name}?chunked=1` },
		},
	];
}

/** Serves the one input file, streamed from disk, with Content-Length unless `?chunked=1`. */
async function serveFile(file: InputFile): Promise<{ url: string; stop: () => Promise<void> }> {
	const sockets = new Set<Socket>();
	const server: Server = createServer((req, res) => {
		const chunked = (req.url ?? '').includes('chunked=1');
		res.writeHead(200, {
			'Content-Type': 'application/octet-stream',
			...(chunked ? {} : { 'Content-Length': statSync(file.path).size }),
		});
		createReadStream(file.path, { highWaterMark: 1024 * 1024 }).pipe(res);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

export async function sourcesTable(
	file: InputFile,
	emulator: EmulatorProcess,
	runs: number,
	log: (line: string) => void,
): Promise<Table> {
	const server = await serveFile(file);
	try {
		const configs = sourceConfigs(server.url, file);
		log(`\nsources, ${fmt.size(file.size)}: ${configs.length} configurations × ${runs} rounds`);
		const summaries = summarize(await runRounds(configs, file, emulator, runs, log), file.size);
		const bound = memoryBound(DEFAULTS.partSizeMiB, DEFAULTS.parallel);
		return {
			title: `Multipart Upload of ${fmt.size(file.size)} by source (defaults, ${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel})`,
			note:
				`The same random file each time; one fresh process per run; ${runsOf(runs)}. The URL is served from the file by a ` +
				'web server in the bench process, on the same 2 cores. RSS growth is over the idle baseline (n8n-core loaded, the ' +
				'binary stored even where the source does not use it); the README bound is Part Size × (Parallel Uploads + 1) + 1 MiB, ' +
				'the growth bound here that plus 64 MiB of runtime slack as in the tables above.',
			head: ['Source', 'Time', 'Throughput', 'RSS growth (max)', 'Buffers held (max)', 'Growth bound', 'Client CPU'],
			rows: configs.map((config) => {
				const s = summaries.get(config.id)!;
				return [
					config.label,
					fmt.seconds(s.ms),
					fmt.rate(s.rate),
					fmt.mib(s.maxGrowth),
					fmt.mib(s.maxBuffersHeld),
					`${fmt.mib(bound)} ${s.maxGrowth <= bound ? 'met' : '**not met**'}`,
					fmt.cpu(s.clientCpu),
				];
			}),
		};
	} finally {
		await server.stop();
	}
}
