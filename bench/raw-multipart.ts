/**
 * A minimal multipart client: plain node:http with keep-alive, parts read with fs.read into
 * buffers that are reused, the form head and tail written around the part instead of copied
 * into one body. What the emulator's multipart path can take when the client costs ~nothing,
 * so a gap between this and the node is the node's, and a gap between this and curl is the
 * emulator's multipart path (MD5 ETags, assembling the parts on complete).
 */
import { open } from 'node:fs/promises';
import { Agent } from 'node:http';

import type { EmulatorInfo } from './children';
import { bucketTarget, dataOf, form, signedSend } from './signing';

export async function rawMultipartUpload(
	emulator: EmulatorInfo,
	filePath: string,
	key: string,
	partSize: number,
	parallel: number,
	/** false: a new connection per request, as n8n's request helpers make (bench/connections.ts). */
	reuseConnections = true,
): Promise<{ ms: number; parts: number }> {
	const agent = new Agent({ keepAlive: reuseConnections, maxSockets: parallel });
	const file = await open(filePath, 'r');
	const started = process.hrtime.bigint();
	try {
		const { size } = await file.stat();
		const totalParts = Math.max(1, Math.ceil(size / partSize));
		const startTarget = bucketTarget(emulator, '/api/v1/files/multipart/start', [
			['key', key],
			['mimeType', 'application/octet-stream'],
			['visibility', 'private'],
			['totalParts', String(totalParts)],
		]);
		const answer = await signedSend(emulator, agent, 'POST', startTarget);
		const { uploadId } = dataOf<{ uploadId: string }>(answer, 'start');
		const etags: string[] = [];
		let next = 0;
		const worker = async () => {
			const buffer = Buffer.allocUnsafe(partSize);
			while (next < totalParts) {
				const index = next++;
				const { bytesRead } = await file.read(buffer, 0, partSize, index * partSize);
				const partTarget = bucketTarget(emulator, `/api/v1/files/multipart/${uploadId}/upload`, [
					['partNumber', String(index + 1)],
					['key', key],
					['totalParts', String(totalParts)],
				]);
				const { body, contentType } = form('part', 'application/octet-stream', buffer.subarray(0, bytesRead));
				const sent = await signedSend(emulator, agent, 'POST', partTarget, body, contentType);
				etags[index] = dataOf<{ ETag: string }>(sent, `part ${index + 1}`).ETag;
			}
		};
		await Promise.all(Array.from({ length: Math.min(parallel, totalParts) }, worker));
		const completeTarget = bucketTarget(emulator, `/api/v1/files/multipart/${uploadId}/complete`, [['key', key]]);
		const parts = etags.map((ETag, i) => ({ PartNumber: i + 1, ETag }));
		const body = [Buffer.from(JSON.stringify({ parts }))];
		dataOf(await signedSend(emulator, agent, 'POST', completeTarget, body, 'application/json'), 'complete');
		return { ms: Number(process.hrtime.bigint() - started) / 1e6, parts: totalParts };
	} finally {
		await file.close();
		agent.destroy();
	}
}
