/**
 * The far-service profile: a delay on each new connection, a per-connection rate cap on request
 * bodies, and the connection counts that show reuse. Timing is checked only as lower bounds the
 * profile guarantees (load can only add time), never as upper bounds.
 */
import * as http from 'node:http';

import { parseArgs } from '../cli';
import { start } from '../index';
import { authHeaders, formBody, rawRequest, sha256, type Response } from './client';
import { eventually, putPart, startEmulator, startUpload, type Running } from './setup';

const MIB = 1024 * 1024;

let r: Running;
beforeAll(async () => {
	r = await startEmulator({ minPartSize: 1 });
});
afterAll(() => r.emu.stop());
beforeEach(() => r.emu.resetStats());
afterEach(() => r.emu.setNetworkProfile({ latencyMs: 0, connectionDelayMs: 0, connectionRateMiBps: 0 }));

const creds = () => ({ accessKey: r.emu.accessKey, secretKey: r.emu.secretKey });

/** A signed request over `agent`, so a test decides whether connections are reused. */
function send(
	agent: http.Agent,
	method: string,
	target: string,
	body?: { data: Buffer; contentType: string },
): Promise<Response & { reusedSocket: boolean }> {
	const { hostname, port } = new URL(r.emu.url);
	return new Promise((resolve, reject) => {
		const req = http.request({
			host: hostname,
			port,
			method,
			path: target,
			agent,
			headers: {
				...authHeaders(creds(), method, target),
				...(body ? { 'Content-Type': body.contentType, 'Content-Length': String(body.data.length) } : {}),
			},
		});
		req.on('error', reject);
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks);
				resolve({
					status: res.statusCode ?? 0,
					headers: res.headers,
					body: text,
					json: JSON.parse(text.toString('utf8')),
					reusedSocket: req.reusedSocket,
				});
			});
		});
		req.end(body?.data);
	});
}

const partBody = (data: Buffer) => {
	const form = formBody([{ name: 'file', filename: 'p.bin', contentType: 'application/octet-stream', data }]);
	return { data: form.body, contentType: form.contentType };
};

describe('connection delay', () => {
	test('is waited once per new connection; a reused connection does not wait again', async () => {
		r.emu.setNetworkProfile({ connectionDelayMs: 150 });
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const started = Date.now();
			const first = await send(agent, 'GET', r.api.listTarget());
			// A lower bound only: the first answer cannot come before the handshake's delay.
			expect(Date.now() - started).toBeGreaterThanOrEqual(150);
			const second = await send(agent, 'GET', r.api.listTarget());
			const third = await send(agent, 'GET', r.api.listTarget());
			expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
			expect([first.reusedSocket, second.reusedSocket, third.reusedSocket]).toEqual([false, true, true]);
			expect(r.emu.stats().connections).toMatchObject({ opened: 1, requests: 3, delayed: 1 });

			// A request on a connection of its own pays the delay again.
			expect((await r.api.list()).status).toBe(200);
			expect(r.emu.stats().connections).toMatchObject({ opened: 2, requests: 4, delayed: 2 });
		} finally {
			agent.destroy();
		}
	});

	test('without a delay, connections and requests are still counted; test hooks are not', async () => {
		await r.api.list();
		await r.api.list();
		await rawRequest(r.emu.url, { method: 'GET', target: '/_emulator/stats' });
		expect(r.emu.stats().connections).toEqual({
			opened: 2,
			requests: 2,
			delayed: 0,
			throttlePauses: 0,
			throttledMs: 0,
		});
	});

	test('a client that leaves during the delay is not answered, and the emulator carries on', async () => {
		r.emu.setNetworkProfile({ connectionDelayMs: 300 });
		const gone = rawRequest(r.emu.url, { method: 'GET', target: r.api.listTarget(), timeoutMs: 50 });
		await expect(gone).rejects.toThrow('client timeout');
		r.emu.setNetworkProfile({ connectionDelayMs: 0 });
		expect((await r.api.list()).status).toBe(200);
	});
});

describe('per-connection rate cap', () => {
	test('throttles a body without losing a byte; the time is at least what the cap allows', async () => {
		const rate = 8;
		r.emu.setNetworkProfile({ connectionRateMiBps: rate });
		const key = 'far/capped.bin';
		const data = Buffer.alloc(3 * MIB, 7);
		data.write('start', 0);
		data.write('end', data.length - 3);
		const started = Date.now();
		const res = await r.api.upload(key, data);
		const elapsedMs = Date.now() - started;
		expect(res.status).toBe(200);
		const stored = await r.emu.readObject(r.emu.buckets[0].name, r.emu.buckets[0].region, key);
		expect(stored?.body.length).toBe(data.length);
		expect(sha256(stored!.body)).toBe(sha256(data));

		const { connections } = r.emu.stats();
		expect(connections.throttlePauses).toBeGreaterThan(0);
		expect(connections.throttledMs).toBeGreaterThan(0);
		// A body starts with 25 ms of the rate in hand; past that the reads never get ahead of the rate
		// (but for the chunk that tipped the bucket over).
		const headStart = rate * MIB * 0.025 + 64 * 1024;
		expect(elapsedMs).toBeGreaterThanOrEqual(((data.length - headStart) / (rate * MIB)) * 1000);
	});

	test('the connection delay is no credit for the body: its pacing starts after the delay', async () => {
		const rate = 8;
		const delayMs = 300;
		r.emu.setNetworkProfile({ connectionRateMiBps: rate, connectionDelayMs: delayMs });
		const data = Buffer.alloc(3 * MIB, 9);
		const started = Date.now();
		expect((await r.api.upload('far/delayed-and-capped.bin', data)).status).toBe(200);
		const headStart = rate * MIB * 0.025 + 64 * 1024;
		expect(Date.now() - started).toBeGreaterThanOrEqual(delayMs + ((data.length - headStart) / (rate * MIB)) * 1000);
		expect(r.emu.stats().connections).toMatchObject({ opened: 1, delayed: 1 });
	});

	test('a kept-alive connection carries capped bodies one after another', async () => {
		r.emu.setNetworkProfile({ connectionRateMiBps: 16 });
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const key = 'far/kept-alive.bin';
		try {
			const uploadId = await startUpload(r.api, key);
			const parts = [Buffer.alloc(2 * MIB, 1), Buffer.alloc(2 * MIB, 2), Buffer.alloc(MIB, 3)];
			const refs = [];
			for (const [i, part] of parts.entries()) {
				const res = await send(agent, 'POST', r.api.partTarget(uploadId, key, i + 1), partBody(part));
				expect(res.status).toBe(200);
				refs.push({ PartNumber: i + 1, ETag: res.json.data.ETag as string });
			}
			expect((await r.api.complete(uploadId, key, refs)).status).toBe(200);
			const stored = await r.emu.objectSha256(r.emu.buckets[0].name, r.emu.buckets[0].region, key);
			expect(stored).toBe(sha256(Buffer.concat(parts)));
			// The three parts shared one connection; start and complete came on their own.
			expect(r.emu.stats().connections).toMatchObject({ opened: 3, requests: 5 });
		} finally {
			agent.destroy();
		}
	});

	test('a capped connection pushes back on the client instead of buffering its body', async () => {
		r.emu.setNetworkProfile({ connectionRateMiBps: 2 });
		const key = 'far/backpressure.bin';
		const uploadId = await startUpload(r.api, key);
		await putPart(r.api, uploadId, key, 1, Buffer.from('warm-up part'));
		const total = 64 * MIB;
		const boundary = 'farBoundary';
		const head = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.bin"\r\n` +
				'Content-Type: application/octet-stream\r\n\r\n',
		);
		const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
		const target = r.api.partTarget(uploadId, key, 2);
		const { hostname, port } = new URL(r.emu.url);
		const req = http.request({
			host: hostname,
			port,
			method: 'POST',
			path: target,
			agent: false,
			headers: {
				...authHeaders(creds(), 'POST', target),
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
				'Content-Length': String(head.length + total + tail.length),
			},
		});
		req.on('error', () => undefined);
		let flushed = 0;
		const chunk = Buffer.alloc(256 * 1024);
		req.write(head);
		// Write as fast as the connection takes it; stop when it stops taking.
		const pump = () => {
			while (flushed < total) {
				flushed += chunk.length;
				if (!req.write(chunk)) return void req.once('drain', pump);
			}
		};
		pump();
		try {
			// Ten pauses take a few hundred ms at this rate; unthrottled, loopback takes the whole body in that time.
			await eventually(() => r.emu.stats().connections.throttlePauses >= 10, 'the cap to pause the connection');
			// What the client got rid of is the emulator's burst, what the cap let through and the
			// socket buffers between them: far from the whole body.
			expect(flushed).toBeLessThan(total / 2);
		} finally {
			req.destroy();
		}
		await r.api.cancel(uploadId, key);
	});
});

describe('setNetworkProfile, the flags and the /_emulator/network hook', () => {
	test('--connection-delay and --connection-rate', async () => {
		expect(parseArgs(['--connection-delay', '80', '--connection-rate=16', '--latency', '40'])).toEqual({
			connectionDelayMs: 80,
			connectionRateMiBps: 16,
			latencyMs: 40,
		});
		expect(parseArgs(['--connection-rate', '2.5'])).toEqual({ connectionRateMiBps: 2.5 });
		expect(() => parseArgs(['--connection-rate', 'fast'])).toThrow(/--connection-rate/);
		expect(() => parseArgs(['--connection-delay', '-1'])).toThrow(/--connection-delay/);
		await expect(start({ port: 0, connectionRateMiBps: -1 })).rejects.toThrow(/connectionRateMiBps/);
	});

	test('a bad value is refused and changes nothing', async () => {
		r.emu.setNetworkProfile({ connectionDelayMs: 10 });
		expect(() => r.emu.setNetworkProfile({ connectionDelayMs: 5, connectionRateMiBps: -1 })).toThrow(
			'connectionRateMiBps',
		);
		expect(() => r.emu.setNetworkProfile({ latencyMs: Number.NaN, connectionDelayMs: 5 })).toThrow('latencyMs');
		await r.api.list();
		expect(r.emu.stats().connections.delayed).toBe(1);
	});

	test('the hook sets the profile over HTTP and refuses a bad one', async () => {
		const post = (body: unknown) =>
			rawRequest(r.emu.url, {
				method: 'POST',
				target: '/_emulator/network',
				headers: { 'Content-Type': 'application/json' },
				body: Buffer.from(JSON.stringify(body)),
			});
		expect((await post({ connectionDelayMs: 20, connectionRateMiBps: 64, latencyMs: 0 })).status).toBe(200);
		await r.api.list();
		expect(r.emu.stats().connections).toMatchObject({ opened: 1, delayed: 1 });
		const bad = await post({ connectionRateMiBps: 'fast' });
		expect(bad.status).toBe(400);
		expect(bad.json.message).toContain('connectionRateMiBps');
		expect((await post([1])).status).toBe(400);
	});
});
