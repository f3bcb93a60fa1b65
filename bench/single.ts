/**
 * Single Upload of a small file (one request, the whole file in memory) next to curl and to
 * Multipart Upload of the same file: the data behind the multipart threshold.
 */
import type { Config } from './runner';
import { fmt, runsOf } from './stats';
import { tabulate, type Table } from './table';
import { AT_DEFAULTS, CEILING, columns, DEFAULTS, nodeAtDefaults, rowsOf, UPLOAD, type Measured } from './throughput';

export const singleConfigs = (): Config[] => [
	CEILING,
	nodeAtDefaults('single', 'this node, Upload (one request)', UPLOAD),
	nodeAtDefaults('single-multipart', `this node, Multipart Upload (${AT_DEFAULTS})`),
];

export function singleTable({ configs, summaries, size, rounds }: Measured): Table {
	return {
		title: `Single Upload of ${fmt.size(size)}`,
		note: `Below the ${DEFAULTS.thresholdMiB} MiB threshold, so Upload sends one request holding the whole file; ${runsOf(rounds)}.`,
		...tabulate(rowsOf(configs, summaries), [
			...columns('configuration', 'time', 'throughput', 'vsCeiling'),
			['Requests', ({ config, s }) => (config.id === 'single-multipart' ? `${s.parts + 2} (${s.parts} parts)` : '1')],
			...columns('peakRss', 'growth'),
			['Growth ÷ file', (r) => (r.config.kind === 'node' ? `${(r.s.maxGrowth / size).toFixed(1)}×` : '')],
			...columns('clientCpu', 'emulatorCpu'),
		]),
	};
}
