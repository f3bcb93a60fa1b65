/**
 * A minimal multipart client: plain node:http with keep-alive, parts read with fs.read into
 * buffers that are reused, the form head and tail written around the part instead of copied
 * into one body. What the emulator's multipart path can take when the client costs ~nothing,
 * so a gap between this and the node is the node's, and a gap between this and curl is the
 * emulator's multipart path (MD5 ETags, assembling the parts on complete).
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Agent, request } from 'node:http';

import type { EmulatorInfo } from './children';
import { signedHeaders, target } from './signing';

interface Sent {
	status: number;
	body: string;
}

function send(
	agent: Agent,
	emulator: EmulatorInfo,
	method: string,
	requestTarget: string,
	body: Buffer[],
	contentType?: string,
): Promise<Sent> {
	const headers: Record<string, string | number> = {
		...signedHeaders(emulator, method, requestTarget),
		'Content-Length': body.reduce((n, b) => n + b.length, 0),
	};
	if (contentType) headers['Content-Type'] = contentType;
	return new Promise((resolve, reject) => {
		const req = request(`${emulator.url}${requestTarget}`, { method, headers, agent }, (res) => {
			let text = '';
			res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
		});
		req.on('error', reject);
		for (const chunk of body) req.write(chunk);
		req.end();
	});
}

function data<T>(sent: Sent, what: string): T {
	if (sent.status !== 200) throw new Error(`${what}: HTTP ${sent.status} ${sent.body}`);
	return (JSON.parse(sent.body) as { data: T }).data;
}

export async function rawMultipartUpload(
	emulator: EmulatorInfo,
	filePath: string,
	key: string,
	partSize: number,
	parallel: number,
	/** false: a new connection per request, as n8n's request helpers make (bench/connections.ts). */
	reuseConnections = true,
): Promise<{ ms: number; parts: number; completeMs: number }> {
	const agent = new Agent({ keepAlive: reuseConnections, maxSockets: parallel });
	const file = await open(filePath, 'r');
	const started = process.hrtime.bigint();
	try {
		const { size } = await file.stat();
		const totalParts = Math.max(1, Math.ceil(size / partSize));
		const where: Array<[string, string]> = [
			['bucket_name', emulator.bucket.name],
			['region', emulator.bucket.region],
		];
		const startTarget = target('/api/v1/files/multipart/start', [
			...where,
			['key', key],
			['mimeType', 'application/octet-stream'],
			['visibility', 'private'],
			['totalParts', String(totalParts)],
		]);
		const { uploadId } = data<{ uploadId: string }>(await send(agent, emulator, 'POST', startTarget, []), 'start');
		const boundary = `raw${randomBytes(8).toString('hex')}`;
		const head = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part"\r\nContent-Type: application/octet-stream\r\n\r\n`,
		);
		const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
		const etags: string[] = [];
		let next = 0;
		const worker = async () => {
			const buffer = Buffer.allocUnsafe(partSize);
			while (next < totalParts) {
				const index = next++;
				const { bytesRead } = await file.read(buffer, 0, partSize, index * partSize);
				const partTarget = target(`/api/v1/files/multipart/${uploadId}/upload`, [
					...where,
					['partNumber', String(index + 1)],
					['key', key],
					['totalParts', String(totalParts)],
				]);
				const sent = await send(
					agent,
					emulator,
					'POST',
					partTarget,
					[head, buffer.subarray(0, bytesRead), tail],
					`multipart/form-data; boundary=${boundary}`,
				);
				etags[index] = data<{ ETag: string }>(sent, `part ${index + 1}`).ETag;
			}
		};
		await Promise.all(Array.from({ length: Math.min(parallel, totalParts) }, worker));
		const completeTarget = target(`/api/v1/files/multipart/${uploadId}/complete`, [...where, ['key', key]]);
		const parts = etags.map((ETag, i) => ({ PartNumber: i + 1, ETag }));
		const completing = process.hrtime.bigint();
		data(
			await send(agent, emulator, 'POST', completeTarget, [Buffer.from(JSON.stringify({ parts }))], 'application/json'),
			'complete',
		);
		const done = process.hrtime.bigint();
		return { ms: Number(done - started) / 1e6, parts: totalParts, completeMs: Number(done - completing) / 1e6 };
	} finally {
		await file.close();
		agent.destroy();
	}
}
