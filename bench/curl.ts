/**
 * The ceiling: the same bytes to the same emulator in one streamed request by curl, which reads
 * the file in small blocks and does no work per byte beyond the socket write.
 */
import { spawn, spawnSync } from 'node:child_process';

import type { EmulatorInfo } from './children';
import { signedHeaders, target } from './signing';

export function curlVersion(): string | undefined {
	const found = spawnSync('curl', ['--version'], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.split('\n')[0] : undefined;
}

export interface CurlRun {
	ms: number;
	status: number;
	body: string;
}

export async function curlUpload(emulator: EmulatorInfo, filePath: string, key: string): Promise<CurlRun> {
	const requestTarget = target('/api/v1/files/upload', [
		['bucket_name', emulator.bucket.name],
		['region', emulator.bucket.region],
		['visibility', 'private'],
		['key', key],
	]);
	const headers = signedHeaders(emulator, 'PUT', requestTarget);
	const args = ['-sS', '-X', 'PUT', '-o', '-', '-w', '\n%{http_code}'];
	for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
	// No `Expect: 100-continue` round trip: the ceiling should be the transfer alone.
	args.push(
		'-H',
		'Expect:',
		'-F',
		`file=@${filePath};type=application/octet-stream`,
		`${emulator.url}${requestTarget}`,
	);

	const started = process.hrtime.bigint();
	const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
	const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const cut = out.lastIndexOf('\n');
	const status = Number(out.slice(cut + 1));
	if (code !== 0 || status !== 200)
		throw new Error(`curl upload failed (exit ${code}, HTTP ${status}): ${out.slice(0, cut)}`);
	return { ms, status, body: out.slice(0, cut) };
}
