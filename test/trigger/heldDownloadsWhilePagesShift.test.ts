/**
 * A seeded adversary for Download File over scans of several pages: files are added, deleted and replaced between the
 * list requests, signed-link requests and downloads of each poll, while the CDN refuses some downloads (held back,
 * retried, given up after 3 polls) and Max Files Per Poll is small. docs/trigger.md: each change is emitted exactly once,
 * no untouched old file is emitted, a held-back change is never dropped, and bytes attached are the listed version's.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { seededDraw } from '../adversary/random';

type Phase = 'off' | 'activation' | 'later';

class Churn {
	readonly files = new Map<string, number>();
	readonly before = new Set<string>();
	readonly touchedEarly = new Set<string>();
	readonly touchedLater = new Set<string>();
	phase: Phase = 'off';
	refuse = 0.3;
	private nextSize = 1000;

	constructor(
		private readonly folder: ScriptedFolder,
		private readonly draw: () => number,
		count: number,
	) {
		for (let i = 0; i < count; i++) this.set(`f${String(i * 3).padStart(5, '0')}.txt`, 900);
		for (const name of this.files.keys()) this.before.add(name);
	}

	private set(name: string, size: number): void {
		this.folder.put(name, size);
		this.files.set(name, size);
	}

	private touched(name: string): void {
		(this.phase === 'activation' ? this.touchedEarly : this.touchedLater).add(name);
	}

	private change(): void {
		const names = [...this.files.keys()];
		const kind = this.draw();
		if (kind < 0.4 || names.length === 0) {
			const name = `f${String(Math.floor(this.draw() * 9000)).padStart(5, '0')}${'abc'[Math.floor(this.draw() * 3)]}.txt`;
			this.set(name, this.nextSize++);
			this.touched(name);
		} else if (kind < 0.75) {
			const name = names[Math.floor(this.draw() * names.length)];
			this.folder.remove(name);
			this.files.delete(name);
			this.touched(name);
		} else {
			const name = names[Math.floor(this.draw() * names.length)];
			this.set(name, this.nextSize++);
			this.touched(name);
		}
	}

	readonly maybeChurn = (): void => {
		if (this.phase === 'off' || this.draw() < 0.5) return;
		const burst = 1 + Math.floor(this.draw() * 3);
		for (let i = 0; i < burst; i++) this.change();
	};

	/** The CDN's answer: the bytes of the version stored now (named by its size), or a refusal. */
	readonly download = (key: string): { status: number; body: string } => {
		this.maybeChurn();
		const name = key.slice(key.indexOf('/') + 1);
		const size = this.files.get(name);
		if (size === undefined) return { status: 404, body: 'Not Found' };
		if (this.draw() < this.refuse) return { status: 403, body: 'Forbidden' };
		return { status: 200, body: `v${size};`.padEnd(size, '.') };
	};
}

type Emitted = { event: string; name: string; size: unknown; bytes?: string; error?: unknown };

describe('Download File while a seeded adversary moves files across page boundaries and the CDN refuses some downloads', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());

	it.each([
		[11, ['created', 'updated', 'deleted'], 40, false],
		[26, ['created'], 10, true],
		[31, ['created', 'updated', 'deleted'], 40, 'watch'],
	] as Array<[number, string[], number, boolean | 'watch']>)(
		'seed %i, Watch For %j, Max Files %i, scope or Watch For changed %s: every change once, no old file, only the listed version attached',
		async (seed, watchFor, maxFiles, narrows) => {
			const draw = seededDraw(seed);
			const folder = new ScriptedFolder('adv/', []);
			const churn = new Churn(folder, draw, 1200 + Math.floor(draw() * 1200));
			folder.beforeAnswer = churn.maybeChurn;
			server = await startListServer(folder.answer, churn.download, (key) => {
				churn.maybeChurn();
				return folder.exists(key);
			});
			const trigger = new Poller(server, {
				folder: 'adv',
				watchFor,
				options: { downloadFile: true, maxFilesPerPoll: maxFiles, parallelRequests: 4 },
			} as never);
			const emitted: Emitted[] = [];
			const collect = async (): Promise<number> => {
				const result = await trigger.poll();
				if (result.error) throw result.error;
				for (const item of result.items) {
					const { json } = item;
					const bytes = item.binary ? (await result.readBinary(item)).toString() : undefined;
					emitted.push({
						event: String(json.event),
						name: String(json.name),
						size: json.size,
						bytes,
						error: json.error,
					});
				}
				return result.items.length;
			};
			churn.phase = 'activation';
			for (let poll = 0; poll < 10 && trigger.savedState === undefined; poll++) {
				const result = await trigger.poll();
				expect(result.error).toBeUndefined();
				expect(result.items).toEqual([]);
			}
			expect(trigger.savedState).toBeDefined();
			churn.phase = 'later';
			const always = (name: string) => !narrows || narrows === 'watch' || /^f0[0-3]/.test(name);
			for (let poll = 0; poll < 8; poll++) {
				if (narrows === 'watch' && poll >= 2) {
					const options = { downloadFile: true, maxFilesPerPoll: maxFiles, parallelRequests: 4 };
					(trigger as unknown as { parameters: Record<string, unknown> }).parameters = {
						folder: 'adv',
						watchFor: poll < 5 ? ['created', 'updated'] : watchFor,
						options,
					};
				} else if (narrows && poll >= 2) {
					const options = {
						downloadFile: true,
						maxFilesPerPoll: maxFiles,
						parallelRequests: 4,
						emitExistingFiles: true,
					};
					(trigger as unknown as { parameters: Record<string, unknown> }).parameters = {
						folder: 'adv',
						watchFor,
						options: poll < 5 ? { ...options, fileNameFilter: 'f0[0-3]*' } : options,
					};
				}
				await collect();
			}
			churn.phase = 'off';
			let quiet = 0;
			for (let poll = 0; poll < 120 && quiet < 4; poll++) quiet = (await collect()) === 0 ? quiet + 1 : 0;
			expect(quiet).toBe(4);

			const found: string[] = [];
			const byName = new Map<string, Emitted[]>();
			for (const item of emitted) byName.set(item.name, [...(byName.get(item.name) ?? []), item]);
			for (const [name, items] of byName) {
				if (churn.before.has(name) && !churn.touchedEarly.has(name) && !churn.touchedLater.has(name))
					found.push(`${name}: untouched old file emitted ${items[0].event}`);
				const versions = items.filter((i) => i.event !== 'deleted').map((i) => i.size);
				if (new Set(versions).size !== versions.length)
					found.push(`${name}: a version emitted twice ${JSON.stringify(items)}`);
				for (const item of items) {
					if (item.bytes !== undefined && !item.bytes.startsWith(`v${String(item.size)};`))
						found.push(`${name}: listed as size ${String(item.size)}, bytes of ${item.bytes.slice(0, 8)}`);
				}
			}
			const deletions = watchFor.includes('deleted');
			const updates = watchFor.includes('updated');
			for (const name of churn.touchedLater) {
				if (churn.touchedEarly.has(name) || !always(name)) continue;
				const items = byName.get(name) ?? [];
				const last = items[items.length - 1];
				const size = churn.files.get(name);
				const existedBefore = churn.before.has(name);
				if (narrows === 'watch') {
					if (size !== undefined && last?.event !== 'deleted' && last?.size !== size)
						found.push(
							`${name}: is version ${size} at the end, last event ${JSON.stringify(last)} of ${JSON.stringify(items)}`,
						);
					if (size !== undefined && !items.some((i) => i.size === size))
						found.push(`${name}: version ${size} never emitted: ${JSON.stringify(items)}`);
				} else if (deletions && updates) {
					if (size !== undefined && (last?.event === 'deleted' || last?.size !== size))
						found.push(
							`${name}: is version ${size} at the end, last event ${JSON.stringify(last)} of ${JSON.stringify(items)}`,
						);
					if (size === undefined && existedBefore && last?.event !== 'deleted')
						found.push(`${name}: deleted, never emitted as such: ${JSON.stringify(items)}`);
				} else if (updates && size !== undefined && existedBefore && last?.size !== size) {
					found.push(`${name}: is version ${size} at the end, last event ${JSON.stringify(last)}`);
				} else if (size !== undefined && !existedBefore && !items.some((i) => i.event === 'created')) {
					found.push(`${name}: created after activation, never emitted`);
				}
			}
			expect(found).toEqual([]);
			expect(churn.touchedLater.size).toBeGreaterThan(10);
		},
		120_000,
	);
});
