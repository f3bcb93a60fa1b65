/**
 * A seeded adversary for the trigger's scans of several pages: a scripted folder of 2,000 to
 * 3,500 files (2 to 4 pages) whose files are added, deleted and replaced between the list requests
 * of a poll (pages and the windows around page boundaries alike) and between polls. After the
 * churn stops, polls run until nothing is left to emit, and the emitted items are checked against
 * what really happened: no file stored before activation and never changed is ever emitted, no
 * version of a file is emitted twice, and every change after the activation poll is emitted (its
 * last event says what the file is at the end).
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { seededDraw } from '../adversary/random';

interface Truth {
	/** Name → the size of its version now (sizes are unique per version, so an item names its version). */
	files: Map<string, number>;
	/** Names touched (added, replaced, deleted) during the activation poll and after it. */
	duringActivation: Set<string>;
	afterActivation: Set<string>;
	/** Names that existed when the activation poll started. */
	before: Set<string>;
}

class Adversary {
	readonly truth: Truth;
	private nextSize = 1000;
	churn: 'off' | 'activation' | 'later' = 'off';

	constructor(
		private readonly folder: ScriptedFolder,
		private readonly draw: () => number,
		count: number,
	) {
		const files = new Map<string, number>();
		for (let i = 0; i < count; i++) files.set(`f${String(i * 3).padStart(5, '0')}.txt`, 5);
		for (const [name, size] of files) folder.put(name, size);
		this.truth = { files, duringActivation: new Set(), afterActivation: new Set(), before: new Set(files.keys()) };
	}

	private touched(name: string): void {
		(this.churn === 'activation' ? this.truth.duringActivation : this.truth.afterActivation).add(name);
	}

	/** One random change: a new file anywhere in the order, a deletion, or a replacement. */
	private change(): void {
		const names = [...this.truth.files.keys()];
		const kind = this.draw();
		if (kind < 0.4 || names.length === 0) {
			const name = `f${String(Math.floor(this.draw() * 12000)).padStart(5, '0')}${'abc'[Math.floor(this.draw() * 3)]}.txt`;
			this.put(name);
		} else if (kind < 0.8) {
			const name = names[Math.floor(this.draw() * names.length)];
			this.folder.remove(name);
			this.truth.files.delete(name);
			this.touched(name);
		} else this.put(names[Math.floor(this.draw() * names.length)]);
	}

	private put(name: string): void {
		const size = this.nextSize++;
		this.folder.put(name, size);
		this.truth.files.set(name, size);
		this.touched(name);
	}

	/** Before a list request: sometimes a burst of changes, to move entries across page boundaries. */
	readonly beforeAnswer = (): void => {
		if (this.churn === 'off' || this.draw() < 0.4) return;
		const burst = 1 + Math.floor(this.draw() * 4);
		for (let i = 0; i < burst; i++) this.change();
	};
}

type Emitted = Array<{ event: string; name: string; size: unknown }>;

async function quietPolls(trigger: Poller, emitted: Emitted): Promise<void> {
	for (let poll = 0; poll < 30; poll++) {
		const result = await trigger.poll();
		if (result.error) throw result.error;
		if (result.items.length === 0) return;
		for (const { json } of result.items) {
			emitted.push({ event: String(json.event), name: String(json.name), size: json.size });
		}
	}
	throw new Error('the trigger kept emitting after the churn stopped');
}

/** Checks what was emitted against what happened; answers the first violation, if any. */
function violations(truth: Truth, emitted: Emitted, watchesDeletions: boolean): string[] {
	const found: string[] = [];
	const byName = new Map<string, Emitted>();
	for (const item of emitted) byName.set(item.name, [...(byName.get(item.name) ?? []), item]);
	for (const [name, items] of byName) {
		const untouched = truth.before.has(name) && !truth.duringActivation.has(name) && !truth.afterActivation.has(name);
		if (untouched) found.push(`${name}: stored before activation and never changed, but emitted ${items[0].event}`);
		const versions = items.filter((item) => item.event !== 'deleted').map((item) => item.size);
		if (new Set(versions).size !== versions.length)
			found.push(`${name}: a version emitted twice (${versions.join(', ')})`);
		for (let i = 1; i < items.length; i++) {
			if (items[i].event === 'deleted' && items[i - 1].event === 'deleted')
				found.push(`${name}: deleted twice in a row`);
		}
	}
	for (const name of truth.afterActivation) {
		if (truth.duringActivation.has(name)) continue;
		const items = byName.get(name) ?? [];
		const last = items[items.length - 1];
		const size = truth.files.get(name);
		const existedBefore = truth.before.has(name);
		if (watchesDeletions) {
			if (size !== undefined && (last?.event === 'deleted' || last?.size !== size)) {
				found.push(`${name}: is version ${size} at the end, but its last event is ${JSON.stringify(last)}`);
			}
			if (size === undefined && existedBefore && last?.event !== 'deleted')
				found.push(`${name}: deleted, never emitted as such`);
			if (size === undefined && !existedBefore && last && last.event !== 'deleted')
				found.push(`${name}: gone, last event ${last.event}`);
		} else if (size !== undefined && !existedBefore && !items.some((item) => item.event === 'created')) {
			found.push(`${name}: created after activation, never emitted`);
		}
	}
	return found;
}

describe('a seeded adversary moves files across page boundaries while the trigger scans', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());

	it.each([
		[1, ['created', 'updated', 'deleted']],
		[2, ['created']],
		[3, ['created', 'updated', 'deleted']],
		[4, ['created']],
		[5, ['created', 'updated']],
		[6, ['created', 'updated', 'deleted']],
		[7, ['created', 'updated', 'deleted']],
		[8, ['created', 'updated', 'deleted']],
	])(
		'seed %i, Watch For %j: no untouched old file is emitted, no change twice, every later change once',
		async (seed, watchFor) => {
			const draw = seededDraw(seed);
			const folder = new ScriptedFolder('adv/', []);
			const adversary = new Adversary(folder, draw, 2000 + Math.floor(draw() * 1500));
			folder.beforeAnswer = adversary.beforeAnswer;
			server = await startListServer(folder.answer, undefined, folder.exists);
			const trigger = new Poller(server, { folder: 'adv', watchFor } as never);
			const emitted: Emitted = [];
			// The activation poll (while the churn runs, until one poll records a baseline), then polls with churn.
			adversary.churn = 'activation';
			for (let poll = 0; poll < 10 && trigger.savedState === undefined; poll++) {
				const result = await trigger.poll();
				expect(result.error).toBeUndefined();
				expect(result.items).toEqual([]);
			}
			expect(trigger.savedState).toBeDefined();
			adversary.churn = 'later';
			for (let poll = 0; poll < 6; poll++) {
				const result = await trigger.poll();
				if (result.error) throw result.error;
				for (const { json } of result.items) {
					emitted.push({ event: String(json.event), name: String(json.name), size: json.size });
				}
			}
			adversary.churn = 'off';
			await quietPolls(trigger, emitted);
			expect(violations(adversary.truth, emitted, watchFor.includes('deleted'))).toEqual([]);
			// The adversary did change things: the check is not vacuous.
			expect(adversary.truth.afterActivation.size).toBeGreaterThan(10);
		},
	);
});
