/**
 * The ceiling: the same bytes to the same emulator in one streamed request by curl, which reads
 * the file in small blocks and does no work per byte beyond the socket write.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { text } from 'node:stream/consumers';

import type { EmulatorInfo } from './children';
import { bucketTarget, signedHeaders } from './signing';

export function curlVersion(): string | undefined {
	const found = spawnSync('curl', ['--version'], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.split('\n')[0] : undefined;
}

export async function curlUpload(emulator: EmulatorInfo, filePath: string, key: string): Promise<{ ms: number }> {
	const requestTarget = bucketTarget(emulator, '/api/v1/files/upload', [
		['visibility', 'private'],
		['key', key],
	]);
	const signed = signedHeaders(emulator, 'PUT', requestTarget);
	// An empty `Expect:`: no 100-continue round trip, the ceiling should be the transfer alone.
	const headers = [...Object.entries(signed).map(([name, value]) => `${name}: ${value}`), 'Expect:'];
	// The answer's body, then its status on a line of its own.
	const output = ['-o', '-', '-w', '\n%{http_code}'];
	const form = ['-F', `file=@${filePath};type=application/octet-stream`];
	const url = emulator.url + requestTarget;
	const args = ['-sS', '-X', 'PUT', ...output, ...headers.flatMap((h) => ['-H', h]), ...form, url];

	const started = process.hrtime.bigint();
	const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const [out, [code]] = await Promise.all([text(child.stdout), once(child, 'close')]);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const cut = out.lastIndexOf('\n');
	const status = Number(out.slice(cut + 1));
	if (code !== 0 || status !== 200)
		throw new Error(`curl upload failed (exit ${code}, HTTP ${status}): ${out.slice(0, cut)}`);
	return { ms };
}
