/**
 * Reads a V8 .cpuprofile and prints where the time went: self time by function and by file,
 * and inclusive time of the functions that matter. `--profile` runs leave these behind.
 *
 *   node -r ts-node/register/transpile-only bench/profile-summary.ts <file.cpuprofile> [top] [window frame text]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

function shortUrl(url: string): string {
	const nm = url.lastIndexOf('node_modules/');
	if (nm !== -1) return url.slice(nm + 'node_modules/'.length);
	return url.replace(/^file:\/\//, '').replace(/^.*\/(nodes|test|bench|dist)\//, '$1/') || '(native)';
}

/**
 * `window`: only the samples from the first to the last one whose stack has a frame matching
 * that text (function name or file, e.g. `nodes/FileStorage/`), so a whole-process profile of
 * n8n shows the upload, not the start-up; GC and idle samples in between count, as they are part
 * of the upload's time.
 */
export function summarize(profile: Profile, top = 25, window?: string): string {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const onStack = (id: number, text: string) => {
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const { functionName, url } = byId.get(at)!.callFrame;
			if (`${functionName} ${url}`.includes(text)) return true;
		}
		return false;
	};
	let first = 0;
	let last = profile.samples.length - 1;
	if (window) {
		first = profile.samples.findIndex((id) => onStack(id, window));
		for (; last >= 0 && !onStack(profile.samples[last], window); last--);
		if (first === -1) throw new Error(`no sample has ${window} on its stack`);
	}
	const selfUs = new Map<number, number>();
	for (let i = first; i <= last; i++) {
		const id = profile.samples[i];
		selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
	}
	const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

	const selfByFn = new Map<string, number>();
	const selfByFile = new Map<string, number>();
	const inclusiveByFn = new Map<string, number>();
	for (const [id, us] of selfUs) {
		const node = byId.get(id)!;
		const { functionName, url, lineNumber } = node.callFrame;
		const fn = `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
		selfByFn.set(fn, (selfByFn.get(fn) ?? 0) + us);
		const file = shortUrl(url);
		selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
		// Inclusive: every distinct function on the stack gets the sample once.
		const seen = new Set<string>();
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const frame = byId.get(at)!.callFrame;
			const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
			if (seen.has(name)) continue;
			seen.add(name);
			inclusiveByFn.set(name, (inclusiveByFn.get(name) ?? 0) + us);
		}
	}
	const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2).padStart(6)} s`;
	const list = (title: string, m: Map<string, number>) =>
		[
			`${title}`,
			...[...m]
				.sort((a, b) => b[1] - a[1])
				.slice(0, top)
				.map(([k, us]) => `  ${pct(us)}  ${k}`),
		].join('\n');
	return [
		`total sampled ${(total / 1e6).toFixed(2)} s`,
		list('self time by function', selfByFn),
		list('self time by file', selfByFile),
		list('inclusive time by function', inclusiveByFn),
	].join('\n\n');
}

if (require.main === module) {
	const [file, top, window] = process.argv.slice(2);
	if (!file) {
		process.stderr.write(
			'usage: profile-summary.ts <file.cpuprofile> [top] [text matching the frames that bound the window]\n',
		);
		process.exit(2);
	}
	process.stdout.write(`${summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25), window)}\n`);
}
