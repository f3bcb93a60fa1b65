/**
 * Many small files against a far service: Upload, Download and Delete of N files through the
 * node (version 3 defaults, items in parallel over its request pool), against a minimal client
 * sending the same requests one at a time and 16 at a time on kept connections, in the same
 * rounds. The node cannot keep a connection (findings §6): every request it sends pays the
 * connection delay, the minimal client's only its first on each connection.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';

import type { FarProfile } from './args';
import { runScenario, type EmulatorInfo, type EmulatorProcess } from './children';
import { settleDisk } from './runner';
import { bucketTarget, dataOf, form, send, signedSend, type Answer } from './signing';
import { fmt, medianOf, met, MIB, perRoundRatio, runsOf, type Log } from './stats';
import { tabulate, type Table } from './table';
import { V3_PARALLEL_REQUESTS, V3_UPLOAD_MEMORY_MIB } from './far-threshold';

export type ManyOperation = 'upload' | 'download' | 'delete';
export const MANY_OPERATIONS: ManyOperation[] = ['upload', 'download', 'delete'];
export const OPERATION_LABEL = { upload: 'Upload', download: 'Download', delete: 'Delete' } as const;
export const CLIENT_PARALLEL = 16;

export type SmallFile = { path: string; name: string; key: string; bytes: Buffer };

export interface ManyRun {
	ms: number;
	connections: number;
	requests: number;
	/** Node runs only: RSS growth over the baseline and ArrayBuffer memory held at most (bytes). */
	rssGrowth?: number;
	buffersHeld?: number;
	/** Node runs only: heap and buffers still reachable after the run, after a full collection (bytes). */
	retained?: number;
	/** Node runs only: the node's own execution time from the run data, as real n8n records it. */
	nodeMs?: number;
}

export const MANY_CONFIGS = [
	{ id: 'client-1', label: 'minimal client, one at a time, kept connection' },
	{ id: 'client-16', label: `minimal client, ${CLIENT_PARALLEL} at a time, kept connections` },
	{ id: 'node', label: `this node, version 3 defaults (Parallel Requests ${V3_PARALLEL_REQUESTS})` },
] as const;
type ManyConfigId = (typeof MANY_CONFIGS)[number]['id'];

/** What every run of a round shares. */
export type ManyRig = { emulator: EmulatorProcess; files: SmallFile[]; profile: FarProfile };
export type ManyOptions = { dir: string; count: number; size: number; profile: FarProfile; rounds: number };
export type ManyResult = ManyOptions & { runs: Map<string, ManyRun[]> };

/** The files on disk; `bytesOf` gives each one's bytes (default: random). */
export function makeFiles(
	dir: string,
	count: number,
	size: number,
	bytesOf: (index: number, size: number) => Buffer = (_, n) => randomBytes(n),
): SmallFile[] {
	mkdirSync(dir, { recursive: true });
	return Array.from({ length: count }, (_, i) => {
		const name = `file-${String(i).padStart(5, '0')}.bin`;
		const bytes = bytesOf(i, size);
		writeFileSync(join(dir, name), bytes);
		return { path: join(dir, name), name, key: `many/${name}`, bytes };
	});
}

/** The same requests the node sends for one file, by the minimal client. */
async function clientOne(info: EmulatorInfo, agent: Agent, op: ManyOperation, file: SmallFile): Promise<void> {
	const key: [string, string] = ['key', file.key];
	let answer: Answer;
	if (op === 'upload') {
		const requestTarget = bucketTarget(info, '/api/v1/files/upload', [['visibility', 'private'], key]);
		const { body, contentType } = form(file.name, 'application/octet-stream', file.bytes);
		answer = await signedSend(info, agent, 'PUT', requestTarget, body, contentType);
	} else if (op === 'delete') {
		answer = await signedSend(info, agent, 'DELETE', bucketTarget(info, '/api/v1/files/delete', [key]));
	} else {
		const linkTarget = bucketTarget(info, '/api/v1/files/signed-url', [key, ['expiresIn', '900']]);
		const { url } = dataOf<{ url: string }>(await signedSend(info, agent, 'GET', linkTarget), 'signed-url');
		answer = await send(url, agent, 'GET', { 'Accept-Encoding': 'identity' });
		if (answer.status === 200 && !answer.body.equals(file.bytes))
			throw new Error(`download of ${file.key}: wrong bytes`);
	}
	if (answer.status !== 200) throw new Error(`${op} of ${file.key} answered ${answer.status}`);
}

export async function runClient(info: EmulatorInfo, op: ManyOperation, files: SmallFile[], parallel: number) {
	const agent = new Agent({ keepAlive: true, maxSockets: parallel });
	const started = process.hrtime.bigint();
	let next = 0;
	const worker = async () => {
		while (next < files.length) await clientOne(info, agent, op, files[next++]);
	};
	try {
		await Promise.all(Array.from({ length: parallel }, worker));
		return Number(process.hrtime.bigint() - started) / 1e6;
	} finally {
		agent.destroy();
	}
}

/** The node's parameters for `op` at version 3 defaults (Parallel Requests and Upload Memory left out). */
export function nodeParameters(op: ManyOperation) {
	return op === 'upload'
		? { resource: 'file', operation: 'upload', key: '={{ "many/" + $binary.data.fileName }}' }
		: { resource: 'file', operation: op, fileKey: '={{ $json.key }}' };
}

async function runNodeOnce(emulator: EmulatorProcess, op: ManyOperation, files: SmallFile[]) {
	const run = await runScenario(
		{
			parameters: nodeParameters(op),
			...(op === 'upload'
				? { files: files.map((f) => ({ path: f.path, name: f.name, mimeType: 'application/octet-stream' })) }
				: { jsonItems: files.map((f) => ({ key: f.key })) }),
			typeVersion: 3,
		},
		emulator,
	);
	if (run.error) throw new Error(`many files, ${op}: the node failed: ${run.error}`);
	if (run.items !== files.length || run.failedItems)
		throw new Error(`many files, ${op}: ${run.items} items, ${run.failedItems ?? 0} failed`);
	return {
		ms: run.ms,
		rssGrowth: run.peakRss - run.baselineRss,
		buffersHeld: run.buffersHeld,
		retained: run.retained,
		nodeMs: run.nodeExecutionMs,
	};
}

/**
 * One run of a configuration on `op` at the far profile, with the emulator's counts: the files
 * stored first where it needs them, and every stored file read back and compared after an upload.
 */
export async function manyRun(rig: ManyRig, op: ManyOperation, config: ManyConfigId): Promise<ManyRun> {
	const { emulator, files, profile } = rig;
	await emulator.setProfile();
	if (op !== 'upload') await runClient(emulator.info, 'upload', files, CLIENT_PARALLEL);
	settleDisk();
	await emulator.setProfile(profile);
	await emulator.call('resetStats');
	const measured = await (
		config === 'node'
			? runNodeOnce(emulator, op, files)
			: runClient(emulator.info, op, files, config === 'client-1' ? 1 : CLIENT_PARALLEL).then((ms) => ({ ms }))
	).finally(() => emulator.setProfile());
	const { connections } = await emulator.stats();
	if (op === 'upload') await runClient(emulator.info, 'download', files, CLIENT_PARALLEL);
	return { ...measured, connections: connections.opened, requests: connections.requests };
}

export async function runManyFiles(emulator: EmulatorProcess, o: ManyOptions, log: Log): Promise<ManyResult> {
	const rig = { emulator, files: makeFiles(o.dir, o.count, o.size), profile: o.profile };
	const runs = new Map<string, ManyRun[]>();
	for (let round = 1; round <= o.rounds; round++) {
		for (const op of MANY_OPERATIONS) {
			for (const config of MANY_CONFIGS) {
				const run = await manyRun(rig, op, config.id);
				const id = `${op}:${config.id}`;
				runs.set(id, [...(runs.get(id) ?? []), run]);
				log(
					`  [${round}/${o.rounds}] ${op}, ${config.label}: ${fmt.seconds(run.ms)}, ${run.requests} requests over ${run.connections} connections`,
				);
			}
		}
	}
	return { ...o, runs };
}

/** Median over rounds of the node's time ÷ the 16-at-a-time client's, per round. */
export function nodeVsClient(result: ManyResult, op: ManyOperation): number {
	return perRoundRatio(result.runs.get(`${op}:client-16`) ?? [], result.runs.get(`${op}:node`) ?? []);
}

/**
 * The bound on the node's RSS growth, bytes, as the large-file tables: what the README bounds its
 * body memory by (Upload Memory, or the items' bodies if fewer) plus 64 MiB for n8n-core's own work.
 */
export function manyGrowthBound(result: Pick<ManyResult, 'size'>, op: ManyOperation): number {
	const bodies =
		op === 'upload'
			? Math.min(V3_UPLOAD_MEMORY_MIB * MIB, V3_PARALLEL_REQUESTS * 2 * result.size)
			: V3_PARALLEL_REQUESTS * 2 * 64 * 1024;
	return bodies + 64 * MIB;
}

export function manyFilesTable(result: ManyResult): Table {
	const { profile } = result;
	const rows = MANY_OPERATIONS.flatMap((op) =>
		MANY_CONFIGS.map(({ id, label }) => {
			const list = result.runs.get(`${op}:${id}`) ?? [];
			const max = (key: 'rssGrowth' | 'buffersHeld' | 'retained') => Math.max(...list.map((r) => r[key] ?? 0));
			const ratio = perRoundRatio(result.runs.get(`${op}:client-16`) ?? [], list);
			return { op, id, label, list, max, ratio, ms: medianOf(list, 'ms'), bound: manyGrowthBound(result, op) };
		}),
	);
	/** Empty in the minimal client's rows. */
	const ifNode = (r: (typeof rows)[number], cell: string) => (r.id === 'node' ? cell : '');
	return {
		title: `Many files: ${result.count} files of ${result.size / 1024} KiB against a far service`,
		note:
			`Emulator far profile: ${profile.latencyMs} ms before every answer, ${profile.connectionDelayMs} ms before the first request of each new connection, ` +
			`${profile.connectionRateMiBps} MiB/s per connection. The node at version 3 defaults (Parallel Requests ${V3_PARALLEL_REQUESTS}, Upload Memory ${V3_UPLOAD_MEMORY_MIB} MiB), ` +
			"items from n8n's filesystem binary store (Upload) or keys (Download, Delete), in a fresh process per run; the minimal client sends the same requests " +
			'(Download: the signed link, then the file) on kept connections. Time ÷ 16-at-a-time is the median of per-round ratios; goal ≤ 2×. ' +
			`Requests and connections are the emulator's counts; ${runsOf(result.rounds)}. Buffers held: the node's peak ArrayBuffer memory over its level before the run, ` +
			'Growth bound: the README bound on body memory (Upload: min(Upload Memory, 2 × Parallel Requests × file size); Download and Delete hold no bodies: 2 × Parallel Requests × 64 KiB of stream buffers) ' +
			'plus 64 MiB, as the large-file tables. Retained: JavaScript heap and buffers still reachable after the run with its output items held, after a full ' +
			"collection, over the same before it: what the run keeps. RSS growth above it is garbage V8 had not collected yet (n8n's per-item work), findings §9. " +
			'Stored bytes were read back and compared after every upload run.',
		...tabulate(rows, [
			['Operation', (r) => OPERATION_LABEL[r.op]],
			['Configuration', (r) => r.label],
			['Time', (r) => fmt.seconds(r.ms)],
			['Files/s', (r) => (result.count / (r.ms / 1000)).toFixed(0)],
			['Time ÷ 16 at a time', (r) => `${r.ratio.toFixed(2)}×`],
			['Goal ≤ 2×', (r) => ifNode(r, met(r.ratio <= 2))],
			['Requests', (r) => String(medianOf(r.list, 'requests'))],
			['Connections opened', (r) => String(medianOf(r.list, 'connections'))],
			['RSS growth (max)', (r) => ifNode(r, fmt.mib(r.max('rssGrowth')))],
			['Buffers held (max)', (r) => ifNode(r, fmt.mib(r.max('buffersHeld')))],
			['Retained after the run', (r) => ifNode(r, fmt.mib(r.max('retained')))],
			['Growth bound', (r) => ifNode(r, `${fmt.mib(r.bound)} ${met(r.max('rssGrowth') <= r.bound)}`)],
		]),
	};
}
