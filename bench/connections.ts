/**
 * What a new connection per request costs against a far service. n8n's request helpers build a
 * new HTTP agent for every request (bench/findings.md, "A new connection per request"), so every
 * part of this node's uploads opens a connection and pays its handshake. The emulator's far
 * profile delays the first request of each new connection; the minimal client measures the same
 * upload with its connections kept (what reuse would give) and with a new one per request (what
 * n8n allows), and the node runs with and without the delay. The emulator counts connections.
 */
import type { FarProfile } from './args';
import type { EmulatorProcess } from './children';
import { runOnce, settleDisk, type Config, type InputFile } from './runner';
import { fmt, median, mibPerSecond, perRoundRatio, runsOf } from './stats';
import type { Table } from './table';
import { DEFAULTS } from './throughput';

interface ConnectionConfig {
	config: Config;
	/** Run without the connection delay (the rest of the profile stays). */
	noDelay?: boolean;
}

interface ConnectionRun {
	ms: number;
	opened: number;
	requests: number;
}

export interface ConnectionResult {
	config: ConnectionConfig;
	runs: ConnectionRun[];
}

const { partSizeMiB, parallel } = DEFAULTS;

export function connectionConfigs(): ConnectionConfig[] {
	const node: Config = {
		id: 'node-defaults',
		label: `this node, defaults (${partSizeMiB} MiB × ${parallel}): n8n's helpers`,
		kind: 'node',
		parameters: { resource: 'file', operation: 'multipartUpload' },
		partSizeMiB,
		parallel,
	};
	return [
		{
			config: {
				id: 'raw-reused',
				label: `minimal client, ${partSizeMiB} MiB × ${parallel}, connections kept`,
				kind: 'raw',
				partSizeMiB,
				parallel,
			},
		},
		{
			config: {
				id: 'raw-new',
				label: `minimal client, ${partSizeMiB} MiB × ${parallel}, a new connection per request`,
				kind: 'raw',
				partSizeMiB,
				parallel,
				newConnectionPerRequest: true,
			},
		},
		{ config: node },
		{ config: { ...node, id: 'node-defaults-no-delay', label: `${node.label}, no connection delay` }, noDelay: true },
	];
}

export async function runConnections(
	configs: ConnectionConfig[],
	file: InputFile,
	emulator: EmulatorProcess,
	profile: FarProfile,
	rounds: number,
	log: (line: string) => void,
): Promise<ConnectionResult[]> {
	const results = configs.map((config) => ({ config, runs: [] as ConnectionRun[] }));
	try {
		for (let round = 1; round <= rounds; round++) {
			for (const result of results) {
				const { config, noDelay } = result.config;
				await emulator.setProfile({ ...profile, connectionDelayMs: noDelay ? 0 : profile.connectionDelayMs });
				settleDisk();
				await emulator.call('resetStats');
				const run = await runOnce(config, file, emulator);
				const { connections } = await emulator.stats();
				result.runs.push({ ms: run.ms, opened: connections.opened, requests: connections.requests });
				log(
					`  [${round}/${rounds}] ${config.label}: ${fmt.seconds(run.ms)} (${fmt.rate(mibPerSecond(file.size, run.ms))}), ` +
						`${connections.requests} requests over ${connections.opened} connections`,
				);
			}
		}
	} finally {
		await emulator.setProfile();
	}
	return results;
}

/** Wall time one new connection adds to the node's upload: the delay's total, spread over the parallel uploads. */
export function costPerConnection(results: ConnectionResult[]): number {
	const withDelay = results.find((r) => r.config.config.id === 'node-defaults');
	const without = results.find((r) => r.config.config.id === 'node-defaults-no-delay');
	if (!withDelay || !without) return NaN;
	const extra = median(withDelay.runs.map((run, i) => run.ms - (without.runs[i]?.ms ?? NaN)));
	const connections = median(withDelay.runs.map((r) => r.opened));
	return (extra * parallel) / connections;
}

export function connectionsTable(
	results: ConnectionResult[],
	size: number,
	rounds: number,
	profile: FarProfile,
): Table {
	const reused = results.find((r) => r.config.config.id === 'raw-reused');
	const cost = costPerConnection(results);
	const rate = profile.connectionRateMiBps ? `${profile.connectionRateMiBps} MiB/s per connection` : 'no rate cap';
	return {
		title: `A new connection per request: ${fmt.size(size)} against a far service`,
		note:
			`Emulator far profile: ${profile.latencyMs} ms before every answer, ${profile.connectionDelayMs} ms before the first request of each new connection ` +
			`(the handshakes), ${rate}. Connections and requests as the emulator counted them; ${runsOf(rounds)}; ` +
			'× kept is the median per-round ratio to the minimal client that keeps its connections. The node cannot keep its connections (see the findings). ' +
			(Number.isFinite(cost)
				? `Each new connection cost the node's upload ${cost.toFixed(0)} ms of one of its ${parallel} parallel uploads (its time with the delay minus without, × ${parallel} ÷ connections opened).`
				: ''),
		head: [
			'Configuration',
			'Connection delay',
			'Time',
			'Throughput',
			'× kept',
			'Requests',
			'Connections opened',
			'Requests per connection',
		],
		rows: results.map((r) => {
			const ms = median(r.runs.map((x) => x.ms));
			const requests = median(r.runs.map((x) => x.requests));
			const opened = median(r.runs.map((x) => x.opened));
			return [
				r.config.config.label,
				`${r.config.noDelay ? 0 : profile.connectionDelayMs} ms`,
				fmt.seconds(ms),
				fmt.rate(mibPerSecond(size, ms)),
				reused ? fmt.ratio(perRoundRatio(r.runs, reused.runs)) : '–',
				String(requests),
				String(opened),
				(requests / opened).toFixed(1),
			];
		}),
	};
}
