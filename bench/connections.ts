/**
 * What a new connection per request costs against a far service. n8n's request helpers build a
 * new HTTP agent for every request (bench/findings.md, "A new connection per request"), so every
 * part of this node's uploads opens a connection and pays its handshake. The minimal client
 * uploads with its connections kept (what reuse would give) and with a new one per request (what
 * n8n allows); the node runs with and without the connection delay.
 */
import type { FarProfile } from './args';
import { describeProfile } from './far';
import { runRounds, type Config, type InputFile, type Rig } from './runner';
import { fmt, median, mibPerSecond, perRoundRatio, runsOf } from './stats';
import { tabulate, type Table } from './table';
import { AT_DEFAULTS, columns, DEFAULTS, nodeAtDefaults, rawClient, rowsOf, summarize } from './throughput';

/** Runs without the connection delay (the rest of the profile stays). */
const NO_DELAY = 'node-defaults-no-delay';
const delayOf = (config: Config, profile: FarProfile) => (config.id === NO_DELAY ? 0 : profile.connectionDelayMs);

/** Runs at the far profile without its rate cap: the cost of a new connection is what this scenario isolates. */
export async function connectionsTable(rig: Rig, file: InputFile): Promise<Table> {
	const { emulator, o } = rig;
	const profile = { ...o.far, connectionRateMiBps: 0 };
	const raw = (how: string) => `minimal client, ${AT_DEFAULTS}, ${how}`;
	const node = nodeAtDefaults('node-defaults', `this node, defaults (${AT_DEFAULTS}): n8n's helpers`);
	const configs: Config[] = [
		rawClient('raw-reused', raw('connections kept')),
		rawClient('raw-new', raw('a new connection per request'), { newConnectionPerRequest: true }),
		node,
		{ ...node, id: NO_DELAY, label: `${node.label}, no connection delay` },
	];
	const what = `far service (${describeProfile(profile)}),`;
	const runs = await runRounds(rig, what, configs, file, o.runs, (config) =>
		emulator.setProfile({ ...profile, connectionDelayMs: delayOf(config, profile) }),
	).finally(() => emulator.setProfile());
	const { size } = file;
	const reused = runs.get('raw-reused')!;
	const summaries = summarize(runs, size);
	const { parallel } = DEFAULTS;
	// Wall time one new connection added to the node's upload: the delay's total, spread over the parallel uploads.
	const extra = median(runs.get('node-defaults')!.map((run, i) => run.ms - runs.get(NO_DELAY)![i].ms));
	const cost = (extra * parallel) / summaries.get('node-defaults')!.connectionsOpened;
	return {
		title: `A new connection per request: ${fmt.size(size)} against a far service`,
		note:
			`Emulator far profile: ${profile.latencyMs} ms before every answer, ${profile.connectionDelayMs} ms before the first request of each new connection ` +
			`(the handshakes), no rate cap. Connections and requests as the emulator counted them; ${runsOf(o.runs)}; ` +
			'× kept is the median per-round ratio to the minimal client that keeps its connections. The node cannot keep its connections (see the findings). ' +
			(Number.isFinite(cost)
				? `Each new connection cost the node's upload ${cost.toFixed(0)} ms of one of its ${parallel} parallel uploads (its time with the delay minus without, × ${parallel} ÷ connections opened).`
				: ''),
		...tabulate(rowsOf(configs, summaries), [
			...columns('configuration'),
			['Connection delay', (r) => `${delayOf(r.config, profile)} ms`],
			...columns('time'),
			// The rate of the median time, not the median rate as in the other tables.
			['Throughput', (r) => fmt.rate(mibPerSecond(size, r.s.ms))],
			['× kept', (r) => fmt.ratio(perRoundRatio(runs.get(r.config.id)!, reused))],
			['Requests', (r) => String(r.s.requests)],
			['Connections opened', (r) => String(r.s.connectionsOpened)],
			['Requests per connection', (r) => (r.s.requests / r.s.connectionsOpened).toFixed(1)],
		]),
	};
}
