/**
 * What a new connection per request costs against a far service. n8n's request helpers build a
 * new HTTP agent for every request (bench/findings.md, "A new connection per request"), so every
 * part of this node's uploads opens a connection and pays its handshake. The minimal client
 * uploads with its connections kept (what reuse would give) and with a new one per request (what
 * n8n allows); the node runs with and without the connection delay.
 */
import type { FarProfile } from './args';
import type { EmulatorProcess } from './children';
import { runRounds, type Config, type InputFile, type Run } from './runner';
import { fmt, median, mibPerSecond, perRoundRatio, runsOf } from './stats';
import type { Table } from './table';
import { DEFAULTS } from './throughput';

const { partSizeMiB, parallel } = DEFAULTS;
/** Runs without the connection delay (the rest of the profile stays). */
const NO_DELAY = 'node-defaults-no-delay';

export function connectionConfigs(): Config[] {
	const raw = (id: string, how: string, newConnectionPerRequest = false): Config => ({
		id,
		label: `minimal client, ${partSizeMiB} MiB × ${parallel}, ${how}`,
		kind: 'raw',
		partSizeMiB,
		parallel,
		newConnectionPerRequest,
	});
	const node: Config = {
		id: 'node-defaults',
		label: `this node, defaults (${partSizeMiB} MiB × ${parallel}): n8n's helpers`,
		kind: 'node',
		parameters: { resource: 'file', operation: 'multipartUpload' },
		partSizeMiB,
		parallel,
	};
	return [
		raw('raw-reused', 'connections kept'),
		raw('raw-new', 'a new connection per request', true),
		node,
		{ ...node, id: NO_DELAY, label: `${node.label}, no connection delay` },
	];
}

export async function runConnections(
	configs: Config[],
	file: InputFile,
	emulator: EmulatorProcess,
	o: { profile: FarProfile; rounds: number },
	log: (line: string) => void,
): Promise<Map<string, Run[]>> {
	const { profile } = o;
	try {
		return await runRounds(configs, file, emulator, o.rounds, log, (config) =>
			emulator.setProfile({ ...profile, connectionDelayMs: config.id === NO_DELAY ? 0 : profile.connectionDelayMs }),
		);
	} finally {
		await emulator.setProfile();
	}
}

/** Wall time one new connection adds to the node's upload: the delay's total, spread over the parallel uploads. */
function costPerConnection(runs: Map<string, Run[]>): number {
	const withDelay = runs.get('node-defaults');
	const without = runs.get(NO_DELAY);
	if (!withDelay || !without) return NaN;
	const extra = median(withDelay.map((run, i) => run.ms - (without[i]?.ms ?? NaN)));
	return (extra * parallel) / median(withDelay.map((r) => r.connections?.opened ?? NaN));
}

export function connectionsTable(
	configs: Config[],
	runs: Map<string, Run[]>,
	size: number,
	profile: FarProfile,
): Table {
	const reused = runs.get('raw-reused');
	const cost = costPerConnection(runs);
	const rate = profile.connectionRateMiBps ? `${profile.connectionRateMiBps} MiB/s per connection` : 'no rate cap';
	return {
		title: `A new connection per request: ${fmt.size(size)} against a far service`,
		note:
			`Emulator far profile: ${profile.latencyMs} ms before every answer, ${profile.connectionDelayMs} ms before the first request of each new connection ` +
			`(the handshakes), ${rate}. Connections and requests as the emulator counted them; ${runsOf(reused?.length ?? 0)}; ` +
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
		rows: configs.map((config) => {
			const list = runs.get(config.id) ?? [];
			const ms = median(list.map((x) => x.ms));
			const requests = median(list.map((x) => x.connections?.requests ?? NaN));
			const opened = median(list.map((x) => x.connections?.opened ?? NaN));
			return [
				config.label,
				`${config.id === NO_DELAY ? 0 : profile.connectionDelayMs} ms`,
				fmt.seconds(ms),
				fmt.rate(mibPerSecond(size, ms)),
				reused ? fmt.ratio(perRoundRatio(list, reused)) : '–',
				String(requests),
				String(opened),
				(requests / opened).toFixed(1),
			];
		}),
	};
}
