/**
 * The far scenario's Upload threshold part (bench/README.md): each size forced into one request
 * and into parts in the same rounds; where parts start to win is where the version 3 threshold belongs.
 * Also version 3's rows of the far scenario's main table.
 */
import { nodeVersion } from '../nodes/FileStorage/versions';

import type { FarProfile } from './args';
import type { Config, Run } from './runner';
import { fmt, median, medianOf, MIB, runsOf } from './stats';
import { tabulate, type Table } from './table';
import { nodeAtDefaults, rawClient, UPLOAD } from './throughput';

const THRESHOLD_SIZES_MIB = [8, 16, 24, 28, 32, 48, 64];
/** The smoke run: one size each side of the crossover the model predicts. */
const QUICK_THRESHOLD_SIZES_MIB = [8, 32];
/** The option's minimum: every file of the sweep is above it, so Upload goes in parts. */
const FORCE_PARTS_MIB = 5;

const V3 = nodeVersion(3);
export const { requests: V3_PARALLEL_REQUESTS, uploadMemoryMiB: V3_UPLOAD_MEMORY_MIB } = V3.parallelItems!;
/** Parts in flight at the version 3 defaults: what Upload Memory holds, within Parallel Requests. */
const V3_IN_FLIGHT = Math.min(V3_PARALLEL_REQUESTS, Math.floor(V3_UPLOAD_MEMORY_MIB / V3.partSizeMiB));
export const V3_ID = 'node-v3';

/**
 * The node at version 3 defaults: 24 MiB parts, as many in flight as Upload Memory holds (96 ÷ 24
 * = 4) and Parallel Requests allows (32); its limit counts those 4. And a minimal client with the
 * same parts that, like the node (findings §6), opens a connection per request.
 */
export function v3Configs(): Config[] {
	const parts = { partSizeMiB: V3.partSizeMiB, parallel: V3_IN_FLIGHT };
	const perRequest = `minimal multipart client, a new connection per request, ${V3.partSizeMiB} MiB × ${V3_IN_FLIGHT}`;
	const node = `this node, version 3 defaults (${V3.partSizeMiB} MiB parts, ${V3_IN_FLIGHT} in flight)`;
	return [
		rawClient('raw-v3-per-request', perRequest, { ...parts, newConnectionPerRequest: true }),
		{
			...nodeAtDefaults(V3_ID, node),
			...parts,
			typeVersion: 3,
			memoryBoundMiB: V3_UPLOAD_MEMORY_MIB + 64,
		},
	];
}

export interface ThresholdPoint {
	sizeMiB: number;
	single: Run[];
	multipart: Run[];
}

export type ThresholdResult = Awaited<ReturnType<typeof runThreshold>>;

type Way = 'single' | 'multipart';

function uploadConfig(way: Way, sizeMiB: number): Config {
	const label = `Upload v3, ${sizeMiB} MiB, ${way === 'single' ? 'one request' : `parts of ${V3.partSizeMiB} MiB`}`;
	// Only the threshold is set: Part Size, Parallel Requests and Upload Memory stay at the version 3 defaults.
	const options = { multipartThreshold: way === 'single' ? sizeMiB : FORCE_PARTS_MIB };
	return {
		...nodeAtDefaults(`threshold-${way}-${sizeMiB}`, label, { ...UPLOAD, options }),
		typeVersion: 3,
		// A running n8n has learned the path family after its first upload; each run here is a fresh
		// process, whose first part would otherwise go alone (the probe) and hold the others back.
		apiPaths: 'reference',
	};
}

/**
 * What the far profile alone predicts, in ms: every request pays a new connection and an answer,
 * a body goes at the per-connection rate; parts go in waves of the parts in flight.
 */
function modelMs(way: Way, sizeMiB: number, profile: FarProfile): number {
	const perRequest = profile.connectionDelayMs + profile.latencyMs;
	const send = (mib: number) => (profile.connectionRateMiBps ? (mib / profile.connectionRateMiBps) * 1000 : 0);
	if (way === 'single') return perRequest + send(sizeMiB);
	const parts = Math.ceil(sizeMiB / V3.partSizeMiB);
	const waves = Math.ceil(parts / V3_IN_FLIGHT);
	// Start and Complete, then each wave as long as its full part.
	return 2 * perRequest + waves * (perRequest + send(Math.min(sizeMiB, V3.partSizeMiB)));
}

/** Runs `configs` in rounds on a file of random bytes of `size`, made for them and deleted after. */
export type Measure = (name: string, configs: Config[], size: number, rounds?: number) => Promise<Map<string, Run[]>>;

export async function runThreshold(measure: Measure, o: { quick: boolean; runs: number }, log: (line: string) => void) {
	const sizesMiB = o.quick ? QUICK_THRESHOLD_SIZES_MIB : THRESHOLD_SIZES_MIB;
	log(
		`\nfar service, Upload threshold (version 3): ${sizesMiB.join(', ')} MiB, one request and in parts × ${o.runs} rounds`,
	);
	const points: ThresholdPoint[] = [];
	for (const sizeMiB of sizesMiB) {
		const [single, multipart] = [uploadConfig('single', sizeMiB), uploadConfig('multipart', sizeMiB)];
		const runs = await measure(`far-threshold-${sizeMiB}.bin`, [single, multipart], sizeMiB * MIB);
		points.push({ sizeMiB, single: runs.get(single.id)!, multipart: runs.get(multipart.id)! });
	}
	// The version 3 threshold of the build measured.
	return { points, rounds: o.runs, v3ThresholdMiB: V3.multipartThresholdMiB };
}

const requestsOf = (runs: Run[]) => median(runs.map((r) => r.connections?.requests ?? NaN));

/**
 * Where multipart starts to win for good: between the last size where one request was faster and
 * the next, at the point the line between their differences crosses zero. Undefined when one way
 * wins at every size measured (allSingle, allMultipart).
 */
export function crossoverOf(points: ThresholdPoint[]) {
	const diffs = points.map((p) => ({ size: p.sizeMiB, d: medianOf(p.single, 'ms') - medianOf(p.multipart, 'ms') }));
	let last = -1;
	for (let i = 0; i < diffs.length; i++) if (!(diffs[i].d > 0)) last = i;
	if (last === diffs.length - 1) return { allSingle: true, allMultipart: false };
	if (last === -1) return { allSingle: false, allMultipart: true };
	const a = diffs[last];
	const b = diffs[last + 1];
	const estimateMiB = a.size + ((b.size - a.size) * -a.d) / (b.d - a.d);
	return { from: a.size, to: b.size, estimateMiB, allSingle: false, allMultipart: false };
}

export function thresholdTable(result: ThresholdResult, profile: FarProfile, describe: string): Table {
	const model = (p: ThresholdPoint, way: Way) => fmt.seconds(modelMs(way, p.sizeMiB, profile));
	const ratio = (p: ThresholdPoint) => medianOf(p.single, 'ms') / medianOf(p.multipart, 'ms');
	return {
		title: `Far service: Upload threshold at node version 3, ${describe}`,
		note:
			`Upload at version 3 defaults (Part Size ${V3.partSizeMiB} MiB, Upload Memory ${V3_UPLOAD_MEMORY_MIB} MiB: up to ${V3_IN_FLIGHT} parts in flight), ` +
			`each size forced into one request (Multipart Threshold = the size) and into parts (threshold ${FORCE_PARTS_MIB} MiB) in the same rounds; ` +
			`${runsOf(result.rounds)}. API Paths set (as learned by a running n8n: no first part sent alone to find the path family). ` +
			`Requests are the emulator's count for one run. Model: ${profile.connectionDelayMs} + ${profile.latencyMs} ms per request ` +
			`(a new connection each) plus the body at ${profile.connectionRateMiBps} MiB/s per connection.`,
		...tabulate(result.points, [
			['Size', (p) => `${p.sizeMiB} MiB`],
			['One request', (p) => fmt.seconds(medianOf(p.single, 'ms'))],
			['In parts', (p) => fmt.seconds(medianOf(p.multipart, 'ms'))],
			['Faster', (p) => (ratio(p) <= 1 ? 'one request' : 'parts')],
			['One request ÷ parts', (p) => fmt.ratio(ratio(p))],
			['Requests (one / parts)', (p) => `${requestsOf(p.single)} / ${requestsOf(p.multipart)}`],
			['Model (one / parts)', (p) => `${model(p, 'single')} / ${model(p, 'multipart')}`],
		]),
	};
}

/** The report's line: the measured crossover against the threshold version 3 uses. */
export function thresholdTarget(result: ThresholdResult | undefined): string[] {
	if (!result || result.points.length === 0) return [];
	const c = crossoverOf(result.points);
	const sizes = result.points.map((p) => p.sizeMiB);
	const where = c.allSingle
		? `one request was faster at every size measured (up to ${sizes[sizes.length - 1]} MiB)`
		: c.allMultipart
			? `parts were faster at every size measured (from ${sizes[0]} MiB)`
			: `between ${c.from} and ${c.to} MiB, near ${c.estimateMiB!.toFixed(0)} MiB where the time difference crosses zero`;
	return [
		`- Far service, Upload threshold at version 3: the crossover (parts faster from there on) lies ${where}; the version 3 threshold is ${result.v3ThresholdMiB} MiB.`,
	];
}
