/** Persistence with a data dir, crash safety (SIGKILL mid-upload) and the CLI as a process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { start } from '../index';
import { ApiClient, authHeaders, formBody, randomData, rawRequest, sha256 } from './client';
import { diskUsage, eventually, sleep } from './setup';

const ROOT = path.resolve(__dirname, '../../..');
const KiB = 1024;
const MiB = 1024 * KiB;

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'emulator-conformance-'));
	tempDirs.push(dir);
	return dir;
}
afterAll(async () => {
	for (const dir of tempDirs) await fsp.rm(dir, { recursive: true, force: true });
});

async function exists(p: string): Promise<boolean> {
	return fsp.access(p).then(
		() => true,
		() => false,
	);
}

describe('in-process restart with a data dir', () => {
	test('objects, metadata and open multipart uploads survive', async () => {
		const dataDir = await tempDir();
		const first = await start({ port: 0, dataDir, minPartSize: 1 });
		const api1 = new ApiClient({ baseUrl: first.url, credentials: first, bucket: 'my-bucket', region: 'us-east-1' });
		const pub = randomData(300 * KiB);
		const priv = Buffer.from('private words');
		expect(
			(await api1.upload('keep/public.bin', pub, { visibility: 'public', contentType: 'image/webp' })).status,
		).toBe(200);
		expect((await api1.upload('keep/private 😀.txt', priv, { contentType: 'text/plain' })).status).toBe(200);
		const uploadId = (await api1.start('keep/multi.bin', { mimeType: 'application/zip' })).json.data.uploadId;
		const p1 = await api1.uploadPart(uploadId, 'keep/multi.bin', 1, Buffer.from('part one, '));
		const listed1 = (await api1.list({ prefix: 'keep/' })).json.data;
		await first.stop();
		expect(await exists(dataDir)).toBe(true);

		const second = await start({ port: 0, dataDir, minPartSize: 1 });
		try {
			const api2 = new ApiClient({
				baseUrl: second.url,
				credentials: second,
				bucket: 'my-bucket',
				region: 'us-east-1',
			});
			expect((await api2.list({ prefix: 'keep/' })).json.data).toEqual(listed1);
			const cdn = await api2.fetchUrl(`${second.url}/f/emulator/keep/public.bin`);
			expect(cdn.headers['content-type']).toBe('image/webp');
			expect(sha256(cdn.body)).toBe(sha256(pub));
			const signed = await api2.signedUrl('keep/private 😀.txt');
			expect((await api2.fetchUrl(signed.json.data.url)).body.equals(priv)).toBe(true);

			expect(second.listOpenUploads()).toEqual([
				{ uploadId, bucket: 'my-bucket', region: 'us-east-1', key: 'keep/multi.bin', parts: [1] },
			]);
			const p2 = await api2.uploadPart(uploadId, 'keep/multi.bin', 2, Buffer.from('part two'));
			const done = await api2.complete(
				uploadId,
				'keep/multi.bin',
				[p1, p2].map((p) => ({ PartNumber: p.json.data.partNumber, ETag: p.json.data.ETag })),
			);
			expect(done.json.data).toMatchObject({ size: 18, content_type: 'application/zip' });
			expect((await second.readObject('my-bucket', 'us-east-1', 'keep/multi.bin'))?.body.toString()).toBe(
				'part one, part two',
			);
		} finally {
			await second.stop();
		}
	});

	test('the default data dir is a fresh temp folder, removed on stop', async () => {
		const emu = await start({ port: 0 });
		expect(emu.dataDir.startsWith(os.tmpdir())).toBe(true);
		expect(await exists(emu.dataDir)).toBe(true);
		await emu.stop();
		expect(await exists(emu.dataDir)).toBe(false);
	});

	test('one emulator per data dir at a time', async () => {
		const dataDir = await tempDir();
		const first = await start({ port: 0, dataDir });
		try {
			await expect(start({ port: 0, dataDir })).rejects.toThrow(/in use/);
		} finally {
			await first.stop();
		}
		const again = await start({ port: 0, dataDir });
		await again.stop();
	});

	test('a non-empty folder that is not an emulator data dir is refused, untouched', async () => {
		const dir = await tempDir();
		await fsp.writeFile(path.join(dir, 'precious.txt'), 'do not sweep me');
		await expect(start({ port: 0, dataDir: dir })).rejects.toThrow(/not empty/);
		expect(await fsp.readdir(dir)).toEqual(['precious.txt']);
	});
});

interface Cli {
	child: ChildProcess;
	url: string;
	output: () => string;
	exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
afterAll(() => {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function runCli(args: string[]): { child: ChildProcess; output: () => string; exit: Cli['exit'] } {
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/emulator/cli.ts', ...args], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	children.add(child);
	let out = '';
	child.stdout?.on('data', (c) => (out += c));
	child.stderr?.on('data', (c) => (out += c));
	const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once('exit', (code, signal) => {
			children.delete(child);
			resolve({ code, signal });
		}),
	);
	return { child, output: () => out, exit };
}

async function startCli(args: string[]): Promise<Cli> {
	const run = runCli(args);
	let exited = false;
	void run.exit.then(() => (exited = true));
	await eventually(
		() => exited || /listening on http:\/\/127\.0\.0\.1:\d+\n/.test(run.output()),
		'the CLI to listen',
		30_000,
	);
	const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output());
	if (!m) throw new Error(`CLI did not start:\n${run.output()}`);
	return { ...run, url: m[1] };
}

async function hookStats(url: string) {
	return (await rawRequest(url, { method: 'GET', target: '/_emulator/stats' })).json;
}

describe('the CLI', () => {
	test('SIGKILL mid-upload: after a restart with --data-dir no partial object is visible', async () => {
		const dataDir = await tempDir();
		const args = [
			'--port',
			'0',
			'--access-key',
			'k',
			'--secret-key',
			's',
			'--access-id',
			'acc',
			'--bucket',
			'b@r',
			'--data-dir',
			dataDir,
			'--min-part-size',
			'1024',
		];
		const credentials = { accessKey: 'k', secretKey: 's' };
		const cli = await startCli(args);
		const api = new ApiClient({ baseUrl: cli.url, credentials, bucket: 'b', region: 'r' });
		const kept = randomData(200 * KiB);
		expect((await api.upload('kept.bin', kept, { visibility: 'public' })).status).toBe(200);
		const uploadId = (await api.start('multi.bin')).json.data.uploadId;
		const part1 = await api.uploadPart(uploadId, 'multi.bin', 1, Buffer.from('the first part'));
		expect(part1.status).toBe(200);

		// Two bodies in flight, each half sent: a single upload and a second part.
		const { port } = new URL(cli.url);
		const sockets: net.Socket[] = [];
		const inflight = async (method: string, target: string, key: string) => {
			const form = formBody([{ name: 'file', filename: key, data: randomData(8 * MiB) }]);
			const headers = {
				...authHeaders(credentials, method, target),
				'Content-Type': form.contentType,
				'Content-Length': String(form.body.length),
				Host: `127.0.0.1:${port}`,
			};
			const socket = net.connect(Number(port), '127.0.0.1');
			socket.on('error', () => undefined);
			sockets.push(socket);
			await new Promise((resolve) => socket.once('connect', resolve));
			socket.write(
				`${method} ${target} HTTP/1.1\r\n${Object.entries(headers)
					.map(([k, v]) => `${k}: ${v}`)
					.join('\r\n')}\r\n\r\n`,
			);
			await new Promise((resolve) => socket.write(form.body.subarray(0, 3 * MiB), resolve));
		};
		await inflight('PUT', api.uploadTarget('partial.bin', 'public'), 'partial.bin');
		await inflight('POST', api.partTarget(uploadId, 'multi.bin', 2), 'multi.bin');
		await eventually(async () => {
			const s = await hookStats(cli.url);
			return s.requests.upload === 2 && s.currentPartUploads === 1;
		}, 'both bodies to be in flight');
		await sleep(200);
		cli.child.kill('SIGKILL');
		expect((await cli.exit).signal).toBe('SIGKILL');
		for (const s of sockets) s.destroy();

		const again = await startCli(args);
		try {
			const api2 = new ApiClient({ baseUrl: again.url, credentials, bucket: 'b', region: 'r' });
			const list = await api2.list();
			expect(list.json.data.contents.children.map((c: { path: string }) => c.path)).toEqual(['kept.bin']);
			expect((await api2.signedUrl('partial.bin')).status).toBe(404);
			expect((await api2.fetchUrl(`${again.url}/f/acc/partial.bin`)).status).toBe(404);
			const kept2 = await api2.fetchUrl(`${again.url}/f/acc/kept.bin`);
			expect(sha256(kept2.body)).toBe(sha256(kept));
			expect((await hookStats(again.url)).openUploads).toEqual([
				{ uploadId, bucket: 'b', region: 'r', key: 'multi.bin', parts: [1] },
			]);
			// The crash debris (3 MiB per body) is swept at startup, not just hidden.
			expect(await diskUsage(dataDir)).toBeLessThan(1 * MiB);
			const done = await api2.complete(uploadId, 'multi.bin', [{ PartNumber: 1, ETag: part1.json.data.ETag }]);
			expect(done.status).toBe(200);
			expect(done.json.data.size).toBe('the first part'.length);
		} finally {
			again.child.kill('SIGTERM');
		}
		const exit = await again.exit;
		expect(exit).toEqual({ code: 0, signal: null });
		expect(await exists(path.join(dataDir))).toBe(true);
	});

	test('flags reach the server; SIGINT exits 0', async () => {
		const cli = await startCli([
			'--host',
			'127.0.0.1',
			'--port',
			'0',
			'--access-key',
			'ak',
			'--secret-key',
			'sk',
			'--bucket',
			'one@eu',
			'--bucket',
			'two@us',
			'--clock-tolerance',
			'5',
			'--min-part-size',
			'10',
			'--max-body-bytes',
			'5000',
			'--latency',
			'1',
			'--fault',
			'list:503:nth=1',
			'--fault',
			'delete:reset:times=1',
		]);
		try {
			expect(cli.output()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
			const api = new ApiClient({
				baseUrl: cli.url,
				credentials: { accessKey: 'ak', secretKey: 'sk' },
				bucket: 'two',
				region: 'us',
			});
			expect((await api.list()).status).toBe(503);
			expect((await api.list()).status).toBe(200);
			await expect(api.delete('x')).rejects.toThrow();
			expect((await api.delete('x')).status).toBe(404);
			const target = api.listTarget();
			const skewed = await rawRequest(cli.url, {
				method: 'GET',
				target,
				headers: authHeaders(api.o.credentials, 'GET', target, {
					timestamp: new Date(Date.now() - 6000).toISOString(),
				}),
			});
			expect(skewed.status).toBe(401);
			expect((await api.upload('big.bin', randomData(6000))).status).toBe(413);
			expect((await api.upload('small.bin', randomData(100))).status).toBe(200);
			const one = new ApiClient({ ...api.o, bucket: 'one', region: 'eu' });
			expect((await one.list()).status).toBe(200);
			expect((await new ApiClient({ ...api.o, bucket: 'my-bucket', region: 'us-east-1' }).list()).status).toBe(404);
		} finally {
			cli.child.kill('SIGINT');
		}
		expect(await cli.exit).toEqual({ code: 0, signal: null });
	});

	test('--help exits 0; a bad flag exits 2 with the usage', async () => {
		const help = runCli(['--help']);
		const bad = runCli(['--fault', 'list:418']);
		expect((await help.exit).code).toBe(0);
		for (const flag of [
			'--host',
			'--port',
			'--access-key',
			'--secret-key',
			'--access-id',
			'--bucket',
			'--data-dir',
			'--clock-tolerance',
			'--min-part-size',
			'--max-body-bytes',
			'--latency',
			'--fault',
		]) {
			expect(help.output()).toContain(flag);
		}
		expect((await bad.exit).code).toBe(2);
		expect(bad.output()).toMatch(/418/);
	});
});
