import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { start, type Emulator, type EmulatorOptions } from '../index';
import { ApiClient, show, type PartRef } from './client';

export interface Running {
	emu: Emulator;
	api: ApiClient;
}

/** Starts an emulator on a free loopback port with a client for its first bucket. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Running> {
	const emu = await start({ host: '127.0.0.1', port: 0, ...options });
	const api = new ApiClient({
		baseUrl: emu.url,
		credentials: { accessKey: emu.accessKey, secretKey: emu.secretKey },
		bucket: emu.buckets[0].name,
		region: emu.buckets[0].region,
		now: options.now,
	});
	return { emu, api };
}

export function expectOk(res: { status: number; json: unknown; body: Buffer }): void {
	if (res.status !== 200)
		throw new Error(`expected 200, got ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns true (no wall-clock assertion: only a generous deadline). */
export async function eventually(
	check: () => boolean | Promise<boolean>,
	what: string,
	deadlineMs = 10_000,
): Promise<void> {
	const until = Date.now() + deadlineMs;
	while (!(await check())) {
		if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
		await sleep(20);
	}
}

/** Bytes on disk under a folder: what a dropped or refused body may leave behind. */
export async function diskUsage(dir: string): Promise<number> {
	let total = 0;
	const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
	for (const entry of entries) {
		const p = path.join(dir, entry.name);
		// Files come and go while the server works; one that vanished takes no space.
		total += entry.isDirectory() ? await diskUsage(p) : ((await fsp.stat(p).catch(() => undefined))?.size ?? 0);
	}
	return total;
}

/** Starts a multipart upload and returns its ID, failing loudly on any other answer. */
export async function startUpload(
	api: ApiClient,
	key: string,
	o: Parameters<ApiClient['start']>[1] = {},
): Promise<string> {
	const res = await api.start(key, o);
	if (res.status !== 200) throw new Error(show(res));
	return res.json.data.uploadId;
}

/** Uploads one part and returns it as the reference Complete takes. */
export async function putPart(
	api: ApiClient,
	uploadId: string,
	key: string,
	n: number,
	data: Buffer,
): Promise<PartRef> {
	const res = await api.uploadPart(uploadId, key, n, data);
	if (res.status !== 200) throw new Error(show(res));
	return { PartNumber: res.json.data.partNumber, ETag: res.json.data.ETag };
}
