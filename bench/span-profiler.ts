/**
 * A V8 CPU profile of one span of this process (the upload, not n8n-core's start-up or the
 * binary being stored), through the inspector protocol.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

export class SpanProfiler {
	private readonly session = new Session();

	private post<T>(method: string, params?: object): Promise<T> {
		return new Promise((resolve, reject) =>
			this.session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
		);
	}

	/** `allocations`: also sample what allocates (a .heapprofile beside the CPU profile). */
	constructor(private readonly allocations = false) {}

	async start(): Promise<void> {
		this.session.connect();
		await this.post('Profiler.enable');
		await this.post('Profiler.setSamplingInterval', { interval: 500 });
		await this.post('Profiler.start');
		// Every allocation is counted, not only what is still alive at the end.
		if (this.allocations)
			await this.post('HeapProfiler.startSampling', {
				samplingInterval: 64 * 1024,
				includeObjectsCollectedByMajorGC: true,
				includeObjectsCollectedByMinorGC: true,
			});
	}

	/** Writes `<dir>/<name>.cpuprofile` and returns its path. */
	async stop(dir: string, name: string): Promise<string> {
		const { profile } = await this.post<{ profile: unknown }>('Profiler.stop');
		if (this.allocations) {
			const sampled = await this.post<{ profile: unknown }>('HeapProfiler.stopSampling');
			writeFileSync(join(dir, `${name}.heapprofile`), JSON.stringify(sampled.profile));
		}
		this.session.disconnect();
		const file = join(dir, `${name}.cpuprofile`);
		writeFileSync(file, JSON.stringify(profile));
		return file;
	}
}
