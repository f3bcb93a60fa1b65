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
import type { Config } from './runner';
import { bucketTarget, dataOf, form, signedSend } from './signing';
import { MIB } from './stats';

type Query = Array<[string, string]>;

export async function rawMultipartUpload(
	emulator: EmulatorInfo,
	filePath: string,
	key: string,
	{ partSizeMiB, parallel, newConnectionPerRequest }: Extract<Config, { kind: 'raw' }>,
): Promise<{ ms: number; parts: number }> {
	const partSize = partSizeMiB * MIB;
	const agent = new Agent({ keepAlive: !newConnectionPerRequest, maxSockets: parallel });
	const file = await open(filePath, 'r');
	const started = process.hrtime.bigint();
	/** A signed POST to the multipart API naming `key`, and the `data` of its answer. */
	const post = async <T>(path: string, query: Query, what: string, body?: Buffer[], contentType?: string) => {
		const target = bucketTarget(emulator, `/api/v1/files/multipart/${path}`, [['key', key], ...query]);
		return dataOf<T>(await signedSend(emulator, agent, 'POST', target, body, contentType), what);
	};
	try {
		const { size } = await file.stat();
		const totalParts = Math.max(1, Math.ceil(size / partSize));
		const total: Query = [['totalParts', String(totalParts)]];
		const start: Query = [['mimeType', 'application/octet-stream'], ['visibility', 'private'], ...total];
		const { uploadId } = await post<{ uploadId: string }>('start', start, 'start');
		const etags: string[] = [];
		let next = 0;
		const worker = async () => {
			const buffer = Buffer.allocUnsafe(partSize);
			while (next < totalParts) {
				const index = next++;
				const { bytesRead } = await file.read(buffer, 0, partSize, index * partSize);
				const { body, contentType } = form('part', 'application/octet-stream', buffer.subarray(0, bytesRead));
				const part: Query = [['partNumber', String(index + 1)], ...total];
				const what = `part ${index + 1}`;
				etags[index] = (await post<{ ETag: string }>(`${uploadId}/upload`, part, what, body, contentType)).ETag;
			}
		};
		await Promise.all(Array.from({ length: Math.min(parallel, totalParts) }, worker));
		const parts = etags.map((ETag, i) => ({ PartNumber: i + 1, ETag }));
		const body = [Buffer.from(JSON.stringify({ parts }))];
		await post(`${uploadId}/complete`, [], 'complete', body, 'application/json');
		return { ms: Number(process.hrtime.bigint() - started) / 1e6, parts: totalParts };
	} finally {
		await file.close();
		agent.destroy();
	}
}
