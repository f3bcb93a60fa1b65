/**
 * Folder → Copy and Folder → Move at size and under interruption, through n8n-core's engine over
 * real HTTP to the emulator: a folder of over a thousand files (several list pages) and a few sent
 * in parts; a Move stopped half-way and run again; version 3's request pool; a writer changing the
 * source folder while a Move runs (seeded).
 */
import { apiFor, put, remove } from '../trigger/support';
import { runNode } from '../harness';
import { useProxy, viaProxy, type Exchange } from './proxy';
import { BUCKET, MIB, credentialsFor, randomFile, runFileStorage, sha256, useEmulator } from './support';
import { seededDraw } from '../adversary/random';

const emulator = useEmulator();
const proxy = useProxy(emulator);
const api = () => apiFor(emulator());
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** `count` small files (a few in a sub-folder), plus `large` files sent in parts. */
async function folderOf(root: string, count: number, large = 0): Promise<Map<string, Buffer>> {
	const files = new Map<string, Buffer>();
	for (let n = 0; n < count; n++) {
		const name = n % 10 === 0 ? `sub/f${String(n).padStart(4, '0')}.txt` : `f${String(n).padStart(4, '0')}.txt`;
		files.set(`${root}${name}`, Buffer.from(`${root}${name} ${n} `.repeat(1 + (n % 7))));
	}
	for (let n = 0; n < large; n++) files.set(`${root}large-${n}.bin`, randomFile(6 * MIB + n * 1000));
	const keys = [...files.keys()];
	// Stored several at once: a thousand one by one takes long on a small machine.
	await Promise.all(
		Array.from({ length: 8 }, async (_, lane) => {
			for (let n = lane; n < keys.length; n += 8) await put(api(), keys[n], files.get(keys[n]));
		}),
	);
	return files;
}

function parameters(operation: 'copy' | 'move', from: string, to: string, options: object = {}) {
	return {
		resource: 'folder',
		operation,
		folder: path(from),
		destinationFolder: path(to),
		options: { multipartThreshold: 5, partSize: 5, ...options },
	};
}

/** Where each file is now: at its source, at its destination, both, or neither. */
async function whereNow(files: Map<string, Buffer>, from: string, to: string) {
	const places = { source: 0, destination: 0, both: 0, lost: [] as string[], wrong: [] as string[] };
	for (const [key, bytes] of files) {
		const [atSource, atDestination] = [await read(key), await read(`${to}${key.slice(from.length)}`)];
		if (atDestination && sha256(atDestination.body) !== sha256(bytes)) places.wrong.push(key);
		if (atSource && atDestination) places.both += 1;
		else if (atSource) places.source += 1;
		else if (atDestination) places.destination += 1;
		else places.lost.push(key);
	}
	return places;
}

beforeEach(() => {
	emulator().setFaults([]);
	emulator().setLatency(0);
	emulator().resetStats();
});

describe('a folder of 1,050 small files and 2 large ones', () => {
	it('is copied, then moved, byte-identical (version 3, several list pages)', async () => {
		const files = await folderOf('big/', 1050, 2);
		const copied = await runFileStorage(emulator(), parameters('copy', 'big/', 'big-copy/', { summary: true }));
		expect(copied.error).toBeUndefined();
		expect(copied.items.at(-1)?.json).toMatchObject({ files: files.size, copied: files.size });
		const moved = await runFileStorage(emulator(), parameters('move', 'big/', 'big-moved/', { summary: true }));
		expect(moved.error).toBeUndefined();
		expect(moved.items.at(-1)?.json).toMatchObject({ files: files.size, moved: files.size });
		const copies = await whereNow(files, 'big/', 'big-copy/');
		const moves = await whereNow(files, 'big/', 'big-moved/');
		expect([copies.wrong, copies.lost, moves.wrong, moves.lost]).toEqual([[], [], [], []]);
		expect(moves.destination).toBe(files.size);
	}, 240_000);
});

describe('a Move stopped half-way', () => {
	it('loses nothing, and run again ends with every file moved exactly once, none copied twice', async () => {
		const files = await folderOf('stop/', 60);
		await sleep(2100);
		// Stopped by the count of uploads, not by the clock: the 21st upload onwards never gets an
		// answer, so the run is half done however slow the machine, and is then cancelled.
		const halfWay = Array.from({ length: 100 }, (_, n) => 21 + n);
		emulator().setFaults([{ operation: 'upload', hang: true, nth: halfWay }]);
		const stopped = runNode({
			credentials: credentialsFor(emulator()),
			parameters: { ...BUCKET, ...parameters('move', 'stop/', 'stop-done/', { parallelRequests: 2 }) },
			timeoutMs: 10_000,
		});
		await expect(stopped).rejects.toThrow(/did not finish within 10000 ms/);
		await sleep(1500);
		emulator().setFaults([]);
		const half = await whereNow(files, 'stop/', 'stop-done/');
		expect(half.lost).toEqual([]);
		expect(half.wrong).toEqual([]);
		expect(half.destination + half.both).toBeGreaterThan(0);
		expect(half.source).toBeGreaterThan(0);
		emulator().resetStats();
		const again = await runFileStorage(emulator(), parameters('move', 'stop/', 'stop-done/', { summary: true }));
		expect(again.error).toBeUndefined();
		// Only the files not yet at their destination are uploaded; a copy already there is compared.
		expect(emulator().stats().requests.upload).toBe(half.source);
		expect(again.items.at(-1)?.json).toMatchObject({ files: half.source + half.both, moved: half.source + half.both });
		const end = await whereNow(files, 'stop/', 'stop-done/');
		expect(end).toEqual({ source: 0, destination: files.size, both: 0, lost: [], wrong: [] });
	}, 60_000);
});

describe("version 3 runs a folder's files over the run's request pool", () => {
	it('several files at once in version 3, within twice Parallel Requests; one at a time in version 2', async () => {
		await folderOf('pool/', 40);
		emulator().setLatency(20);
		const v3 = await runFileStorage(emulator(), parameters('copy', 'pool/', 'pool-3/', { parallelRequests: 3 }));
		expect(v3.error).toBeUndefined();
		const wide = emulator().stats().maxConcurrentCdnRequests;
		expect(wide).toBeGreaterThan(1);
		expect(wide).toBeLessThanOrEqual(6);
		emulator().resetStats();
		const v2 = await runFileStorage(emulator(), parameters('copy', 'pool/', 'pool-2/'), { typeVersion: 2 });
		expect(v2.error).toBeUndefined();
		expect(v2.items).toHaveLength(40);
		expect(emulator().stats().maxConcurrentCdnRequests).toBe(1);
	}, 60_000);
});

/**
 * Whether a write overlapped a Move's window on its key: from the node's last listing of the key
 * after the copy was stored (its check that the source is still the version copied) to the answer
 * to its delete. The API has
 * no "delete only if unchanged" (spec §3.12): a version written there is deleted, as by File → Move.
 */
function inDeleteWindow(
	exchanges: Exchange[],
	[key, copy]: [string, string],
	write?: { start: number; end: number },
): boolean {
	const named = (exchange: Exchange, name: string, value = key) =>
		new URL(exchange.target, 'http://proxy').searchParams.get(name) === value;
	const deletion = exchanges.find((exchange) => exchange.operation === 'delete' && named(exchange, 'key'));
	const upload = exchanges.find((exchange) => exchange.operation === 'upload' && named(exchange, 'key', copy));
	if (!write || !deletion || !upload?.answeredAt) return false;
	const checks = exchanges.filter(
		(exchange) =>
			exchange.operation === 'list' && named(exchange, 'prefix') && exchange.startedAt <= deletion.startedAt,
	);
	const from = Math.max(...checks.map((check) => check.startedAt));
	// The check must come after the copy was stored: a check made only before the copy leaves the
	// whole copy unguarded, which is the defect this test is for.
	if (from < upload.answeredAt) return false;
	return write.end >= from && write.start <= (deletion.answeredAt ?? Date.now());
}

describe('a writer changing the source folder while it is moved or copied', () => {
	it.each([
		['move', 11],
		['move', 12],
		['copy', 13],
	] as const)(
		'%s (seed %d): no version the writer left is lost, none replaced at the destination unasked',
		async (operation, seed) => {
			const root = `w${seed}/`;
			const to = `w${seed}-to/`;
			const latest = await folderOf(root, 30);
			// Settled (a Move waits out a source written moments before), so the Move copies while the writer writes.
			await sleep(4500);
			const random = seededDraw(seed);
			/** When the writer wrote the last version of each key it wrote. */
			const written = new Map<string, { start: number; end: number }>();
			let writing = true;
			const writer = (async () => {
				// Replaces (same size or not), deletes and adds files of the source folder, at random moments.
				for (let n = 0; writing && n < 40; n++) {
					await sleep(random() * 120);
					const keys = [...latest.keys()];
					const key = random() < 0.2 ? `${root}new-${n}.txt` : keys[Math.floor(random() * keys.length)];
					if (random() < 0.15 && latest.has(key)) {
						await remove(api(), key).catch(() => undefined);
						latest.delete(key);
						continue;
					}
					const old = latest.get(key);
					const bytes = old && random() < 0.5 ? Buffer.from(old.toString().toUpperCase()) : Buffer.from(`${key} v${n}`);
					const start = Date.now();
					await put(api(), key, bytes);
					latest.set(key, bytes);
					written.set(key, { start, end: Date.now() });
				}
			})();
			emulator().setLatency(10);
			const result = await runFileStorage(emulator(), parameters(operation, root, to), {
				continueOnFail: true,
				credentials: viaProxy(emulator(), proxy()),
			});
			writing = false;
			await writer;
			emulator().setLatency(0);
			expect(result.error).toBeUndefined();
			// Every version the writer left is somewhere: at its source, or (moved or copied) at its destination.
			for (const [key, bytes] of latest) {
				const found = [await read(key), await read(`${to}${key.slice(root.length)}`)].some(
					(stored) => stored && sha256(stored.body) === sha256(bytes),
				);
				// A version written between a Move's last check of its source and its delete is deleted with it.
				const raced =
					!found && inDeleteWindow(proxy().exchanges, [key, `${to}${key.slice(root.length)}`], written.get(key));
				expect(found || raced ? key : `${key} lost`).toBe(key);
			}
			// Nothing at a destination but a version the source had.
			for (const item of result.items.filter((one) => one.json.status === 'moved' || one.json.status === 'copied')) {
				expect(await read(String(item.json.key))).toBeDefined();
			}
		},
		60_000,
	);
});

describe('another writer deleting files of the source folder while it is copied (over 1,000 files)', () => {
	it.each([2, 3])(
		'version %d: every file that stayed in the source the whole run is copied, none missed at a page boundary',
		async (version) => {
			const root = `gap${version}/`;
			const to = `gap${version}-to/`;
			const files = new Map<string, Buffer>();
			for (let n = 0; n < 1005; n++) files.set(`${root}f${String(n).padStart(4, '0')}.txt`, Buffer.from(`${n} `));
			const keys = [...files.keys()];
			await Promise.all(
				Array.from({ length: 8 }, async (_, lane) => {
					for (let n = lane; n < keys.length; n += 8) await put(api(), keys[n], files.get(keys[n]));
				}),
			);
			// Once page 1 of the source is read, another writer deletes ten files of it: page 2 starts ten later.
			const deleted = keys.slice(0, 10);
			let struck = false;
			emulator().adversary.setHooks({
				before: async (call) => {
					if (call.op === 'list' && call.query.get('prefix') === root && call.query.get('page') === '2' && !struck) {
						struck = true;
						for (const key of deleted)
							await emulator().adversary.remove({ name: BUCKET.bucketName, region: BUCKET.region }, key, 'other');
					}
					return undefined;
				},
			});
			let result;
			try {
				result = await runFileStorage(emulator(), parameters('copy', root, to), { typeVersion: version });
			} finally {
				emulator().adversary.setHooks(undefined);
			}
			expect(struck).toBe(true);
			expect(result.error).toBeUndefined();
			const missed: string[] = [];
			for (const key of keys.slice(10)) {
				if (!(await read(`${to}${key.slice(root.length)}`))) missed.push(key);
			}
			expect(missed).toEqual([]);
		},
		120_000,
	);
});
