/**
 * Single Upload of a small file (one request, the whole file in memory) next to curl and to
 * Multipart Upload of the same file: the data behind the multipart threshold.
 */
import { CEILING, DEFAULTS, summarize } from './throughput';
import type { Config, Run } from './runner';
import { fmt, runsOf } from './stats';
import type { Table } from './table';

export function singleConfigs(): Config[] {
	return [
		CEILING,
		{
			id: 'single',
			label: 'this node, Upload (one request)',
			kind: 'node',
			parameters: { resource: 'file', operation: 'upload' },
		},
		{
			id: 'single-multipart',
			label: `this node, Multipart Upload (${DEFAULTS.partSizeMiB} MiB × ${DEFAULTS.parallel})`,
			kind: 'node',
			parameters: { resource: 'file', operation: 'multipartUpload' },
		},
	];
}

export function singleTable(configs: Config[], runs: Map<string, Run[]>, size: number, rounds: number): Table {
	const summaries = summarize(runs, size);
	return {
		title: `Single Upload of ${fmt.size(size)}`,
		note: `Below the ${DEFAULTS.thresholdMiB} MiB threshold, so Upload sends one request holding the whole file; ${runsOf(rounds)}.`,
		head: [
			'Configuration',
			'Time',
			'Throughput',
			'× ceiling',
			'Requests',
			'Peak RSS',
			'RSS growth (max)',
			'Growth ÷ file',
			'Client CPU',
			'Emulator CPU',
		],
		rows: configs.map((config) => {
			const s = summaries.get(config.id)!;
			const isNode = config.kind === 'node';
			const requests = config.id === 'single-multipart' ? `${s.parts + 2} (${s.parts} parts)` : '1';
			return [
				config.label,
				fmt.seconds(s.ms),
				fmt.rate(s.rate),
				config.kind === 'curl' ? '1.00×' : fmt.ratio(s.vsCeiling),
				requests,
				isNode ? fmt.mib(s.peakRss) : '',
				isNode ? fmt.mib(s.maxGrowth) : '',
				isNode ? `${(s.maxGrowth / size).toFixed(1)}×` : '',
				isNode ? fmt.cpu(s.clientCpu) : '',
				fmt.cpu(s.emulatorCpu),
			];
		}),
	};
}
