/** `--only sources` (bench/README.md): one file uploaded from a binary and from a URL, with and without Content-Length. */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { InputFile, Rig } from './runner';
import { fmt, runsOf } from './stats';
import { tabulate, type Table } from './table';
import { AT_DEFAULTS, columns, MULTIPART_AT_DEFAULTS, nodeAtDefaults, measure, rowsOf } from './throughput';

export async function sourcesTable(rig: Rig, file: InputFile): Promise<Table> {
	// Serves the one input file, streamed from disk, with Content-Length unless `?chunked=1`.
	const server = createServer((req, res) => {
		const length = req.url?.includes('chunked=1') ? {} : { 'Content-Length': file.size };
		res.writeHead(200, { 'Content-Type': 'application/octet-stream', ...length });
		createReadStream(file.path, { highWaterMark: 1024 * 1024 }).pipe(res);
	});
	await once(server.listen(0, '127.0.0.1'), 'listening');
	try {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${file.name}`;
		const fromUrl = (query: string) => ({ ...MULTIPART_AT_DEFAULTS, source: 'url', sourceUrl: `${url}?${query}` });
		const configs = [
			nodeAtDefaults('src-binary', 'Binary Field (a binary in n8n’s filesystem store)'),
			nodeAtDefaults('src-url', 'URL, with Content-Length', fromUrl('signature=x')),
			nodeAtDefaults('src-url-chunked', 'URL, without Content-Length (chunked)', fromUrl('chunked=1')),
		];
		const { summaries } = await measure(rig, 'sources,', configs, file);
		return {
			title: `Multipart Upload of ${fmt.size(file.size)} by source (defaults, ${AT_DEFAULTS})`,
			note:
				`The same random file each time; one fresh process per run; ${runsOf(rig.o.runs)}. The URL is served from the file by a ` +
				'web server in the bench process, on the same 2 cores. RSS growth is over the idle baseline (n8n-core loaded, the ' +
				'binary stored even where the source does not use it); the README bound is Part Size × (Parallel Uploads + 1) + 1 MiB, ' +
				'the growth bound here that plus 64 MiB of runtime slack as in the tables above.',
			...tabulate(rowsOf(configs, summaries), [
				['Source', (r) => r.config.label],
				...columns('time', 'throughput', 'growth', 'buffers', 'bound', 'clientCpu'),
			]),
		};
	} finally {
		server.closeAllConnections();
		await once(server.close(), 'close');
	}
}
