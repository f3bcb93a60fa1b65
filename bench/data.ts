/** Input files: random bytes (nothing compresses or dedupes them), with their sha256. */
import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

const CHUNK = 8 * 1024 * 1024;

export function writeRandomFile(path: string, size: number): string {
	const hash = createHash('sha256');
	const chunk = Buffer.allocUnsafe(CHUNK);
	const fd = openSync(path, 'w');
	try {
		for (let written = 0; written < size;) {
			const n = Math.min(CHUNK, size - written);
			const bytes = randomFillSync(chunk, 0, n).subarray(0, n);
			hash.update(bytes);
			writeSync(fd, bytes);
			written += n;
		}
	} finally {
		closeSync(fd);
	}
	return hash.digest('hex');
}
