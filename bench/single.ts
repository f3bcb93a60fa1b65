/**
 * Single Upload of a small file (one request, the whole file in memory) next to curl and to
 * Multipart Upload of the same file: the data behind the multipart threshold.
 */
import type { Config, Run } from './runner';
import { fmt, runsOf } from './stats';
import { tabulate, type Table } from './table';
import { AT_DEFAULTS, CEILING, columns, DEFAULTS, nodeAtDefaults, rowsOf, summarize, UPLOAD } from './throughput';

export function singleConfigs(): Config[] {
	return [
		CEILING,
		nodeAtDefaults('single', 'this node, Upload (one request)', UPLOAD),
		nodeAtDefaults('single-multipart', `this node, Multipart Upload (${AT_DEFAULTS})`),
	];
}

export function singleTable(configs: Config[], runs: Map<string, Run[]>, size: number, rounds: number): Table {
	return {
		title: `Single Upload of ${fmt.size(size)}`,
		note: `Below the ${DEFAULTS.thresholdMiB} MiB threshold, so Upload sends one request holding the whole file; ${runsOf(rounds)}.`,
		...tabulate(rowsOf(configs, summarize(runs, size)), [
			...columns('configuration', 'time', 'throughput', 'vsCeiling'),
			['Requests', ({ config, s }) => (config.id === 'single-multipart' ? `${s.parts + 2} (${s.parts} parts)` : '1')],
			...columns('peakRss', 'growth'),
			['Growth ÷ file', (r) => (r.config.kind === 'node' ? `${(r.s.maxGrowth / size).toFixed(1)}×` : '')],
			...columns('clientCpu', 'emulatorCpu'),
		]),
	};
}
