/**
 * One measured run of the File Storage node, in a fresh process so its RSS belongs to this
 * run alone. The parent sends a ScenarioJob, this replies `ready` once n8n-core is loaded and
 * the input binary is in n8n's filesystem store, the parent answers `go` (after noting the
 * emulator's CPU), and this replies with a ScenarioResult.
 *
 * Run with `node --expose-gc -r ts-node/register/transpile-only bench/run-scenario.ts`
 * (forked by the bench; not useful on its own).
 */
import { once } from 'node:events';
import { PerformanceObserver } from 'node:perf_hooks';
import { setImmediate, setTimeout } from 'node:timers/promises';

import type { INodeParameters } from 'n8n-workflow';

import { runNode, shutdownHarness, type HarnessItem } from '../test/harness';

import { procStatus, resetPeak, RssSampler } from './memory';

export interface ScenarioJob {
	parameters: INodeParameters;
	credentials: { accessKey: string; secretKey: string; baseUrl: string; apiPaths?: string };
	/** The input files, one item each; none for operations without binary input. */
	files?: Array<{ path: string; name: string; mimeType: string }>;
	/** Input items without binary (e.g. the keys to download or delete); instead of `files`. */
	jsonItems?: Array<Record<string, string>>;
	/** Node version; default the node's default version. */
	typeVersion?: number;
}

export interface ScenarioResult {
	ms: number;
	/** RSS after n8n-core loaded and the binary was stored, before the node ran (bytes). */
	baselineRss: number;
	peakRss: number;
	cpuSeconds: number;
	/**
	 * Peak of the buffer memory (ArrayBuffers, where request bodies and file reads live) over its
	 * level before the run, sampled every 10 ms: what the node holds, which RSS growth can hide when
	 * the allocator reuses memory that storing the binary freed.
	 */
	buffersHeld: number;
	/**
	 * JavaScript heap and buffer memory still reachable after the run, with its output items held,
	 * over the same after a full collection before it (bytes): what the run keeps, as opposed to
	 * the garbage V8 had not collected yet at the peak.
	 */
	retained: number;
	/** Main-thread GC pauses during the run: where a copy-heavy client loses its time. */
	gc: { pauseMs: number };
	/**
	 * The node's own execution time from the run data, as n8n records it (what the real-n8n
	 * table reads from `n8n execute`), without the engine's start and end around it.
	 */
	nodeExecutionMs: number;
	items: number;
	/** Output items that carry an error (Continue On Fail). */
	failedItems?: number;
	first?: Record<string, unknown>;
	error?: string;
}

/**
 * A run the node refuses before any request (Part Size 4 MiB is below the minimum): it loads
 * n8n-core and the package, and stores the binary, which later runs of this file reuse.
 */
const WARM_UP = { resource: 'file', operation: 'multipartUpload', bucketName: 'x', region: 'x', key: 'x', partSize: 4 };

function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	gc?.();
}

/** The node's input items: a binary per file, the given JSON, or one empty item. */
function itemsOf(job: ScenarioJob): HarnessItem[] {
	if (job.jsonItems) return job.jsonItems.map((json) => ({ json }));
	if (!job.files) return [{ json: {} }];
	return job.files.map(({ path, name, mimeType }) => ({
		json: {},
		binary: { data: { filePath: path, fileName: name, mimeType } },
	}));
}

async function measure(job: ScenarioJob): Promise<ScenarioResult> {
	const items = itemsOf(job);
	const credentials = { fileStorageApi: job.credentials };
	// BENCH_PACKAGE_DIR: a built copy of the package with a proposed change, to measure it before it lands.
	const packageDir = process.env.BENCH_PACKAGE_DIR;
	const run = (parameters: INodeParameters, typeVersion?: number) =>
		runNode({ parameters, credentials, items, packageDir, typeVersion });

	const warmup = await run(WARM_UP);
	if (!warmup.error) throw new Error('the warm-up run was expected to be refused by the node');

	collectGarbage();
	await setTimeout(200);
	const reachable = () => {
		const usage = process.memoryUsage();
		return usage.heapUsed + usage.external;
	};
	const reachableBefore = reachable();
	const baselineRss = procStatus().rss;
	resetPeak();
	const sampler = new RssSampler();
	sampler.start();
	process.send?.({ ready: true });
	await once(process, 'message');

	let gcPauseMs = 0;
	const gc = new PerformanceObserver((list) => list.getEntries().forEach((entry) => (gcPauseMs += entry.duration)));
	gc.observe({ entryTypes: ['gc'] });
	const buffersBefore = process.memoryUsage().arrayBuffers;
	let buffersPeak = buffersBefore;
	const bufferSampler = setInterval(
		() => (buffersPeak = Math.max(buffersPeak, process.memoryUsage().arrayBuffers)),
		10,
	);
	const cpuBefore = process.cpuUsage();
	const started = process.hrtime.bigint();
	const result = await run(job.parameters, job.typeVersion);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(bufferSampler);
	// GC entries arrive asynchronously; one turn of the event loop lets the last ones in.
	await setImmediate();
	gc.disconnect();
	// The larger of the samples and the kernel's VmHWM (reset above where the kernel allows it).
	const peakRss = sampler.stop();
	// `result` (the output items) is still referenced here.
	collectGarbage();
	const retained = reachable() - reachableBefore;

	const executionTimes = Object.values(result.runData).flatMap((tasks) => tasks.map((t) => t.executionTime ?? 0));
	return {
		ms,
		nodeExecutionMs: Math.max(0, ...executionTimes),
		baselineRss,
		peakRss,
		cpuSeconds: (cpu.user + cpu.system) / 1e6,
		buffersHeld: buffersPeak - buffersBefore,
		retained,
		gc: { pauseMs: gcPauseMs },
		items: result.items.length,
		failedItems: result.items.filter((item) => item.json.error !== undefined).length,
		first: result.items[0]?.json,
		error: result.error
			? `${result.error.message}${result.error.description ? ` — ${result.error.description}` : ''}`
			: undefined,
	};
}

async function main(): Promise<void> {
	const [job] = (await once(process, 'message')) as [ScenarioJob];
	try {
		process.send?.({ result: await measure(job) });
	} finally {
		await shutdownHarness();
	}
	process.disconnect?.();
}

main().catch((error: Error) => {
	process.send?.({ failed: error.stack ?? error.message });
	void shutdownHarness().finally(() => process.exit(1));
});
