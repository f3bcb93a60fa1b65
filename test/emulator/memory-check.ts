/**
 * Memory check (a script, not a test): runs the emulator CLI as a child process, streams a 1 GiB
 * single upload, a 1 GiB multipart upload (8 × 128 MiB parts + complete) and a 1 GiB CDN download
 * through it, and samples the child's RSS. Bodies are generated on the fly, never held whole.
 *
 *   node -r ts-node/register/transpile-only test/emulator/memory-check.ts [sizeMiB]
 */
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

const MiB = 1024 * 1024;
const TOTAL = Number(process.argv[2] ?? 1024) * MiB;
const CREDS = { accessKey: 'mem-key', secretKey: 'mem-secret' };

function rssMiB(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function headers(method: string, target: string): Record<string, string> {
	const ts = new Date().toISOString();
	const sig = createHmac('sha256', CREDS.secretKey).update(`${method}\n${target}\n${ts}`).digest('hex');
	return { 'X-Access-Key': CREDS.accessKey, 'X-Timestamp': ts, 'X-Signature': sig };
}

/** POSTs/PUTs a form whose file part is `size` pseudo-random bytes made chunk by chunk. */
function sendForm(
	port: number,
	method: string,
	target: string,
	size: number,
): Promise<{ status: number; body: string; sha256: string }> {
	const boundary = `mem${randomBytes(8).toString('hex')}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const hash = createHash('sha256');
	const block = randomBytes(MiB);
	return new Promise((resolve, reject) => {
		const req = http.request({
			host: '127.0.0.1',
			port,
			method,
			path: target,
			agent: false,
			headers: {
				...headers(method, target),
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
				'Content-Length': String(head.length + size + tail.length),
			},
		});
		req.on('error', reject);
		req.on('response', (res) => {
			let body = '';
			res.on('data', (c) => (body += c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sha256: hash.digest('hex') }));
		});
		req.write(head);
		let sent = 0;
		let n = 0;
		const pump = () => {
			while (sent < size) {
				// Vary each MiB so no two parts are alike, without allocating per chunk.
				block.writeUInt32LE(n++, 0);
				const chunk = block.subarray(0, Math.min(MiB, size - sent));
				sent += chunk.length;
				hash.update(chunk);
				if (!req.write(chunk)) return void req.once('drain', pump);
			}
			req.end(tail);
		};
		pump();
	});
}

function download(port: number, target: string): Promise<{ status: number; bytes: number; sha256: string }> {
	return new Promise((resolve, reject) => {
		http
			.get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
				const hash = createHash('sha256');
				let bytes = 0;
				res.on('data', (c: Buffer) => {
					bytes += c.length;
					hash.update(c);
				});
				res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha256: hash.digest('hex') }));
				res.on('error', reject);
			})
			.on('error', reject);
	});
}

async function main(): Promise<void> {
	const root = path.resolve(__dirname, '../..');
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			'test/emulator/cli.ts',
			'--port',
			'0',
			'--access-key',
			CREDS.accessKey,
			'--secret-key',
			CREDS.secretKey,
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const port = await new Promise<number>((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (c) => {
			out += c;
			const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
			if (m) resolve(Number(m[1]));
		});
		child.once('exit', () => reject(new Error(`emulator exited:\n${out}`)));
	});
	const pid = child.pid as number;
	await new Promise((r) => setTimeout(r, 500));
	const baseline = rssMiB(pid);
	let peak = baseline;
	const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
	const phase = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
		peak = rssMiB(pid);
		const t0 = Date.now();
		const result = await fn();
		const seconds = (Date.now() - t0) / 1000;
		console.log(
			`${name.padEnd(28)} ${(TOTAL / MiB / seconds).toFixed(0).padStart(5)} MiB/s   peak RSS ${peak.toFixed(1)} MiB`,
		);
		return result;
	};
	const q = (params: Record<string, string>) =>
		new URLSearchParams({ bucket_name: 'my-bucket', region: 'us-east-1', ...params }).toString();
	try {
		console.log(`emulator pid ${pid}; ${TOTAL / MiB} MiB per phase; baseline RSS ${baseline.toFixed(1)} MiB`);
		const single = await phase('single upload', () =>
			sendForm(port, 'PUT', `/api/v1/files/upload?${q({ visibility: 'public', key: 'big/single.bin' })}`, TOTAL),
		);
		if (single.status !== 200) throw new Error(`upload: ${single.status} ${single.body}`);

		const dl = await phase('CDN download', () => download(port, '/f/emulator/big/single.bin'));
		if (dl.status !== 200 || dl.bytes !== TOTAL || dl.sha256 !== single.sha256)
			throw new Error('download differs from upload');

		const key = 'big/multipart.bin';
		const start = await new Promise<string>((resolve, reject) => {
			const target = `/api/v1/files/multipart/start?${q({ key, mimeType: 'application/octet-stream', visibility: 'public', totalParts: '8' })}`;
			const req = http.request(
				{ host: '127.0.0.1', port, method: 'POST', path: target, headers: headers('POST', target), agent: false },
				(res) => {
					let body = '';
					res.on('data', (c) => (body += c));
					res.on('end', () => resolve(JSON.parse(body).data.uploadId));
				},
			);
			req.on('error', reject);
			req.end();
		});
		const partSize = TOTAL / 8;
		const parts = await phase('multipart parts (2 at once)', async () => {
			const out: Array<{ PartNumber: number; ETag: string }> = [];
			for (let n = 1; n <= 8; n += 2) {
				const pair = await Promise.all(
					[n, n + 1].map((p) =>
						sendForm(
							port,
							'POST',
							`/api/v1/files/multipart/${start}/upload?${q({ partNumber: String(p), key, totalParts: '8' })}`,
							partSize,
						),
					),
				);
				pair.forEach((res, i) => out.push({ PartNumber: n + i, ETag: JSON.parse(res.body).data.ETag }));
			}
			return out;
		});
		const completed = await phase(
			'complete (concatenate)',
			() =>
				new Promise<string>((resolve, reject) => {
					const target = `/api/v1/files/multipart/${start}/complete?${q({ key })}`;
					const body = JSON.stringify({ parts });
					const req = http.request(
						{
							host: '127.0.0.1',
							port,
							method: 'POST',
							path: target,
							agent: false,
							headers: { ...headers('POST', target), 'Content-Type': 'application/json' },
						},
						(res) => {
							let text = '';
							res.on('data', (c) => (text += c));
							res.on('end', () => resolve(text));
						},
					);
					req.on('error', reject);
					req.end(body);
				}),
		);
		if (JSON.parse(completed).data?.size !== TOTAL) throw new Error(`complete: ${completed}`);
		clearInterval(sampler);
		console.log(`baseline RSS ${baseline.toFixed(1)} MiB; final RSS ${rssMiB(pid).toFixed(1)} MiB`);
	} finally {
		clearInterval(sampler);
		child.kill('SIGTERM');
	}
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
