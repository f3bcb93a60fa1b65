/**
 * A seeded adversary for the trigger's recursive scans (Include Subfolders): a scripted bucket of
 * nested folders (a top of 1,000 to 1,600 files, one sub-folder of two pages, small ones) whose
 * files are added, deleted, replaced and renamed, and whose small sub-folders vanish whole, between
 * the list requests of a poll. Checked as pageShifting.test.ts checks one folder.
 */
import type { IDataObject } from 'n8n-workflow';

import { seededDraw } from '../adversary/random';
import { Poller } from './support';
import {
	pagesOf,
	startListServer,
	type ExistsAnswer,
	type ListAnswer,
	type ListRequest,
	type ListServer,
} from '../node/listServer';

/**
 * A bucket of nested folders listed one level deep as the spec lists it (folders first, then files,
 * each by name), paged by offset, so that files and whole sub-folders can come and go between the
 * list requests of a recursive scan.
 */
class ScriptedTree {
	readonly files = new Map<string, number>();
	beforeAnswer?: (request: ListRequest) => void;

	readonly answer: ListAnswer = (request) => {
		this.beforeAnswer?.(request);
		const folders = new Set<string>();
		const files: string[] = [];
		for (const key of this.files.keys()) {
			if (!key.startsWith(request.prefix)) continue;
			const rest = key.slice(request.prefix.length);
			const slash = rest.indexOf('/');
			if (slash >= 0) folders.add(request.prefix + rest.slice(0, slash + 1));
			else files.push(key);
		}
		const entries: object[] = [
			...[...folders].sort().map((path) => ({
				name: path.slice(request.prefix.length, -1),
				type: 'folder',
				path,
				size: null,
				last_modified: null,
			})),
			...files.sort().map((path) => ({
				name: path.slice(path.lastIndexOf('/') + 1),
				type: 'file',
				path,
				size: this.files.get(path),
				content_type: 'text/plain',
				last_modified: '2026-01-01T00:00:00Z',
				visibility: 'private',
			})),
		];
		return pagesOf(entries.length, (index) => entries[index])(request);
	};

	readonly exists: ExistsAnswer = (key) => this.files.has(key);
}

interface TreeTruth {
	before: Set<string>;
	during: Set<string>;
	after: Set<string>;
}

class TreeAdversary {
	readonly truth: TreeTruth = { before: new Set(), during: new Set(), after: new Set() };
	churn: 'off' | 'activation' | 'later' = 'off';
	private nextSize = 1000;

	constructor(
		private readonly tree: ScriptedTree,
		private readonly draw: () => number,
	) {
		// The top: 1,000 to 1,600 files; sub-folders of a few files each, one of them of two pages.
		const top = 1000 + Math.floor(draw() * 600);
		for (let i = 0; i < top; i++) tree.files.set(`rt/f${String(i * 3).padStart(5, '0')}.txt`, 5);
		for (let s = 0; s < 6; s++) {
			const count = s === 0 ? 1100 + Math.floor(draw() * 400) : 1 + Math.floor(draw() * 4);
			for (let i = 0; i < count; i++) tree.files.set(`rt/s${s * 2}/g${String(i * 3).padStart(5, '0')}.txt`, 5);
		}
		for (const key of tree.files.keys()) this.truth.before.add(key);
	}

	private touched(key: string): void {
		(this.churn === 'activation' ? this.truth.during : this.truth.after).add(key);
	}

	private put(key: string): void {
		this.tree.files.set(key, this.nextSize++);
		this.touched(key);
	}

	private remove(key: string): void {
		this.tree.files.delete(key);
		this.touched(key);
	}

	private change(): void {
		const keys = [...this.tree.files.keys()];
		const kind = this.draw();
		const any = () => keys[Math.floor(this.draw() * keys.length)];
		if (kind < 0.3) {
			const folder = ['rt/', 'rt/s0/', `rt/s${Math.floor(this.draw() * 14)}/`][Math.floor(this.draw() * 3)];
			this.put(
				`${folder}f${String(Math.floor(this.draw() * 5000)).padStart(5, '0')}${'abc'[Math.floor(this.draw() * 3)]}.txt`,
			);
		} else if (kind < 0.6) this.remove(any());
		else if (kind < 0.75) this.put(any());
		else if (kind < 0.85) {
			// A whole small sub-folder goes (a folder entry leaves the top's listing: every file after it moves up).
			const folder = `rt/s${2 + 2 * Math.floor(this.draw() * 5)}/`;
			for (const key of keys) if (key.startsWith(folder)) this.remove(key);
		} else {
			// A file is renamed: deleted, and stored under a new name.
			const from = any();
			this.remove(from);
			this.put(
				`${from.slice(0, from.lastIndexOf('/') + 1)}r${String(Math.floor(this.draw() * 5000)).padStart(5, '0')}.txt`,
			);
		}
	}

	readonly beforeAnswer = (): void => {
		if (this.churn === 'off' || this.draw() < 0.4) return;
		const burst = 1 + Math.floor(this.draw() * 4);
		for (let i = 0; i < burst; i++) this.change();
	};
}

type Emitted = Array<{ event: string; key: string; size: unknown }>;

function treeViolations(truth: TreeTruth, files: Map<string, number>, emitted: Emitted, watchFor: string[]): string[] {
	const deletions = watchFor.includes('deleted');
	const updates = watchFor.includes('updated');
	const found: string[] = [];
	const byKey = new Map<string, Emitted>();
	for (const item of emitted) byKey.set(item.key, [...(byKey.get(item.key) ?? []), item]);
	for (const [key, items] of byKey) {
		if (truth.before.has(key) && !truth.during.has(key) && !truth.after.has(key))
			found.push(`${key}: stored before activation and never changed, but emitted ${items[0].event}`);
		const versions = items.filter((item) => item.event !== 'deleted').map((item) => item.size);
		if (new Set(versions).size !== versions.length)
			found.push(`${key}: a version emitted twice (${versions.join(', ')})`);
		for (let i = 1; i < items.length; i++) {
			if (items[i].event === 'deleted' && items[i - 1].event === 'deleted')
				found.push(`${key}: deleted twice in a row`);
		}
	}
	for (const key of truth.after) {
		if (truth.during.has(key)) continue;
		const items = byKey.get(key) ?? [];
		const last = items[items.length - 1];
		const size = files.get(key);
		const existedBefore = truth.before.has(key);
		if (deletions) {
			if (updates && size !== undefined && (last?.event === 'deleted' || last?.size !== size))
				found.push(`${key}: is version ${size} at the end, but its last event is ${JSON.stringify(last)}`);
			if (size === undefined && existedBefore && last?.event !== 'deleted')
				found.push(`${key}: deleted, never emitted as such`);
		} else if (size !== undefined && !existedBefore && !items.some((item) => item.event === 'created')) {
			found.push(`${key}: created after activation, never emitted`);
		}
	}
	return found;
}

describe('a seeded adversary changes files and whole sub-folders while the trigger scans with Include Subfolders', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());

	it.each([
		[11, ['created', 'updated', 'deleted']],
		[12, ['created']],
		[13, ['created', 'updated', 'deleted']],
		[14, ['created', 'updated']],
		[15, ['created', 'updated', 'deleted']],
		[16, ['created']],
	])(
		'seed %i, Watch For %j: no untouched old file is emitted, no change twice, every later change once',
		async (seed, watchFor) => {
			const draw = seededDraw(seed);
			const tree = new ScriptedTree();
			const adversary = new TreeAdversary(tree, draw);
			tree.beforeAnswer = adversary.beforeAnswer;
			server = await startListServer(tree.answer, undefined, tree.exists);
			const trigger = new Poller(server, { folder: 'rt', includeSubfolders: true, watchFor } as never);
			const emitted: Emitted = [];
			adversary.churn = 'activation';
			for (let poll = 0; poll < 10 && trigger.savedState === undefined; poll++) {
				const result = await trigger.poll();
				expect(result.error).toBeUndefined();
				expect(result.items).toEqual([]);
			}
			expect(trigger.savedState).toBeDefined();
			adversary.churn = 'later';
			const take = (items: Array<{ json: IDataObject }>) => {
				for (const { json } of items)
					emitted.push({ event: String(json.event), key: String(json.key), size: json.size });
			};
			for (let poll = 0; poll < 6; poll++) {
				const result = await trigger.poll();
				if (result.error) throw result.error;
				take(result.items);
			}
			adversary.churn = 'off';
			for (let poll = 0; ; poll++) {
				if (poll === 30) throw new Error('the trigger kept emitting after the churn stopped');
				const result = await trigger.poll();
				if (result.error) throw result.error;
				if (result.items.length === 0) break;
				take(result.items);
			}
			expect(treeViolations(adversary.truth, tree.files, emitted, watchFor)).toEqual([]);
			expect(adversary.truth.after.size).toBeGreaterThan(10);
		},
	);
});
