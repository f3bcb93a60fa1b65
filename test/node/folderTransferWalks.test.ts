/**
 * Folder → Copy and Folder → Move while another writer changes the source folder during the walk,
 * through n8n-core's engine over real HTTP to the emulator; the writer acts from the emulator's
 * hooks, at a chosen request of the node's.
 */
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();
const WHERE = { name: BUCKET.bucketName, region: BUCKET.region };
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const store = async (key: string, body: string) =>
	await emulator().adversary.put(WHERE, key, Buffer.from(body), { visibility: 'private', writer: 'other' });
const read = async (key: string) => (await emulator().readObject(WHERE.name, WHERE.region, key))?.body.toString();

/** After each answer to a list request of `prefix` (page `page`, or any), `act` runs once per request. */
function afterListing(prefix: string, act: (call: HookCall) => Promise<void>, page?: string) {
	emulator().adversary.setHooks({
		after: async (call) => {
			if (call.op !== 'list' || call.query.get('prefix') !== prefix) return;
			if (page !== undefined && (call.query.get('page') ?? '1') !== page) return;
			await act(call);
		},
	});
}

async function run(operation: 'copy' | 'move', from: string, to: string, continueOnFail = false) {
	return await runNode({
		credentials: credentialsFor(emulator()),
		parameters: {
			...BUCKET,
			resource: 'folder',
			operation,
			folder: path(from),
			destinationFolder: path(to),
			includeSubfolders: false,
			options: { summary: true },
		},
		continueOnFail,
	});
}

afterEach(() => emulator().adversary.setHooks(undefined));

describe('a Move whose source folder keeps getting new files while it is walked', () => {
	it('never ends as a plain success while files it listed too late may still be there', async () => {
		// Over a thousand sub-folders: two list pages each walk, and none of their files is moved
		// (Include Subfolders is off), so every walk of a Move may have missed files.
		await Promise.all(
			Array.from({ length: 1001 }, async (_, n) => await store(`endless/d${String(n).padStart(4, '0')}/x.txt`, 'kept')),
		);
		await store('endless/new-00.txt', 'new 0');
		let added = 0;
		// Each walk's second page is followed by one new file: every walk finds one it had not given.
		afterListing(
			'endless/',
			async () => {
				if (added < 60) await store(`endless/new-${String(++added).padStart(2, '0')}.txt`, `new ${added}`);
			},
			'2',
		);
		const result = await run('move', 'endless/', 'endless-to/');
		emulator().adversary.setHooks(undefined);
		const left: string[] = [];
		for (let n = 0; n <= added; n++) {
			const name = `new-${String(n).padStart(2, '0')}.txt`;
			if ((await read(`endless/${name}`)) !== undefined) left.push(name);
			else expect(await read(`endless-to/${name}`)).toBe(`new ${n}`);
		}
		if (left.length > 0) {
			// Files are still in the source: the run says so, and how to finish.
			expect(result.error?.message).toMatch(/still finds files it had not listed/);
			expect(result.error?.description).toMatch(/run the node again/i);
		} else expect(result.error).toBeUndefined();
		expect(await read('endless/d0000/x.txt')).toBe('kept');
	}, 180_000);
});

describe('a source file another writer deletes after the listing', () => {
	it.each(['move', 'copy'] as const)(
		'%s: reported as gone (not as done before), its destination left as it was, the other files done',
		async (operation) => {
			const from = `gone-${operation}/`;
			const to = `gone-${operation}-to/`;
			await store(`${from}a.txt`, 'AAAA');
			await store(`${from}b.txt`, 'BBBB');
			await store(`${to}a.txt`, 'AAAA');
			await sleep(2100);
			// After the listing, another writer deletes both sources: one with its copy already at the
			// destination (from an earlier run, for all this run can tell), one without.
			afterListing(from, async () => {
				await emulator().adversary.remove(WHERE, `${from}a.txt`, 'other');
				await emulator().adversary.remove(WHERE, `${from}b.txt`, 'other');
			});
			const result = await run(operation, from, to);
			expect(result.error).toBeUndefined();
			const byKey = new Map(
				result.items.map((item) => [(item.json.source as { key?: string } | null)?.key, item.json]),
			);
			for (const name of ['a.txt', 'b.txt']) {
				expect(byKey.get(`${from}${name}`)).toMatchObject({ status: 'gone' });
				expect(byKey.get(`${from}${name}`)?.reason).toMatch(/deleted after the folder was listed/);
			}
			expect(await read(`${to}a.txt`)).toBe('AAAA');
			expect(await read(`${to}b.txt`)).toBeUndefined();
			expect(result.items.at(-1)?.json).toMatchObject({ summary: true, gone: 2 });
		},
		60_000,
	);
});
