/**
 * Folder → Copy, Move and Delete under a hostile world, through n8n-core's engine over real HTTP
 * to the emulator: other writers at the destination while a Move runs, a proxy's pages instead of
 * the API's answers. Each test names the behaviour it keeps.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, runFileStorage, useEmulator, whereIs as whereBytesAre } from './support';

const emulator = useEmulator();
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Files stored as another writer would, then left to settle (a Move waits out a source written moments before). */
async function store(files: Record<string, string>, visibility: 'public' | 'private' = 'private') {
	for (const [key, text] of Object.entries(files)) {
		await emulator().adversary.put(HERE, key, Buffer.from(text), {
			visibility,
			contentType: 'text/plain',
			writer: 'setup',
		});
	}
	await sleep(5000);
}

async function folder(operation: 'copy' | 'move', from: string, to: string, parameters: INodeParameters = {}) {
	return await runFileStorage(
		emulator(),
		{ resource: 'folder', operation, folder: path(from), destinationFolder: path(to), ...parameters },
		{ continueOnFail: true },
	);
}

const isList = (call: HookCall, prefix: string) => call.op === 'list' && call.query.get('prefix') === prefix;
const keyOf = (call: HookCall) => call.query.get('key');

const whereIs = async (text: string, source: string, destination: string) =>
	await whereBytesAre(emulator(), text, source, destination);

beforeEach(() => {
	emulator().setFaults([]);
	emulator().adversary.setHooks(undefined);
});

describe('Folder → Move: another writer at the destination while the Move runs', () => {
	it('a copy replaced by another writer after its check and before the source is deleted: the source is kept', async () => {
		const source = 'dst-race/report.txt';
		const destination = 'dst-race-to/report.txt';
		await store({ [source]: 'the only copy of the report' });
		let checked = false;
		let struck = false;
		emulator().adversary.setHooks({
			before: async (call) => {
				// The copy's check lists the destination; the next listing of the source is the check before its delete.
				if (isList(call, destination)) checked = true;
				if (checked && !struck && isList(call, source)) {
					struck = true;
					await emulator().adversary.put(HERE, destination, Buffer.from('another writer, much longer text'), {
						visibility: 'private',
						contentType: 'text/plain',
						writer: 'other',
					});
				}
				return undefined;
			},
		});
		const result = await folder('move', 'dst-race/', 'dst-race-to/');
		expect(struck).toBe(true);
		// The source's bytes must still be somewhere: the destination no longer holds them.
		expect(await whereIs('the only copy of the report', source, destination)).not.toBe('lost');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);

	it('a copy replaced at the same size by another writer between its upload and its check: the source is kept', async () => {
		const source = 'dst-swap/report.txt';
		const destination = 'dst-swap-to/report.txt';
		await store({ [source]: 'AAAA the only copy' });
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call) => {
				if (call.op === 'upload' && keyOf(call) === destination && !struck) {
					struck = true;
					await emulator().adversary.put(HERE, destination, Buffer.from('BBBB other writer!'), {
						visibility: 'private',
						contentType: 'text/plain',
						writer: 'other',
					});
				}
			},
		});
		const result = await folder('move', 'dst-swap/', 'dst-swap-to/');
		expect(struck).toBe(true);
		expect(await whereIs('AAAA the only copy', source, destination)).not.toBe('lost');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);
});

describe("Folder → Copy and Move: a proxy's pages are not the API's answers", () => {
	const PAGE = {
		status: 404,
		headers: { 'Content-Type': 'text/html' },
		body: '<html><body>404 Not Found</body></html>',
	};

	it("a proxy's 404 page for the source's link, its copy already at the destination: never 'skipped' as moved before", async () => {
		const source = 'page-link/a.txt';
		const destination = 'page-link-to/a.txt';
		// A Move stopped between its copy and its delete: the same bytes at both.
		await store({ [source]: 'same bytes', [destination]: 'same bytes' });
		emulator().adversary.setHooks({
			before: async (call) => (call.op === 'signedUrl' && keyOf(call) === source ? PAGE : undefined),
		});
		const result = await folder('move', 'page-link/', 'page-link-to/');
		expect(await read(source)).toBeDefined();
		const [item] = result.items;
		// The source is there: nothing was moved, by this run or an earlier one.
		expect([item.json.status, item.json.reason ?? item.json.error]).not.toEqual([
			'skipped',
			expect.stringMatching(/moved before/),
		]);
		// Nor "deleted after the listing": the source never went.
		expect(item.json.status).not.toMatch(/^(skipped|gone)$/);
	}, 60_000);

	it("a proxy's 404 page for the source's delete: the Move does not say the source is gone", async () => {
		const source = 'page-delete/a.txt';
		await store({ [source]: 'still here' });
		emulator().adversary.setHooks({
			before: async (call) => (call.op === 'delete' && keyOf(call) === source ? PAGE : undefined),
		});
		const result = await folder('move', 'page-delete/', 'page-delete-to/');
		expect(await read(source)).toBeDefined();
		const [item] = result.items;
		expect(item.json.status).toBe('failed');
		// Both files exist; the words must not send the user away believing the source went.
		expect(String(item.json.error)).not.toMatch(/no longer there/);
		expect(String(item.json.description ?? '')).not.toMatch(/nothing left to delete/);
	}, 60_000);
});

describe('Folder → Copy and Move: errors say what the user set', () => {
	it('with Replace Existing Files on, an unanswered existence check does not blame Replace Existing File being off', async () => {
		await store({ 'rep-on/a.txt': 'a' });
		emulator().setFaults([{ operation: 'signedUrl', status: 500, nth: [1] }]);
		const result = await folder('copy', 'rep-on/', 'rep-on-to/', { replace: true, options: { maxRetries: 0 } });
		const [item] = result.items;
		expect(item.json.status).toBe('failed');
		expect(`${String(item.json.error)} ${String(item.json.description ?? '')}`).not.toMatch(
			/Replace Existing File is off/,
		);
	}, 60_000);
});

describe('Folder → Delete: a proxy in front of the API', () => {
	const deleteFolder = async (from: string) =>
		await runFileStorage(
			emulator(),
			{ resource: 'folder', operation: 'delete', folder: path(from), options: { maxRetries: 0 } },
			{ continueOnFail: true },
		);

	it.each([
		[
			'a web server',
			{ status: 404, headers: { 'Content-Type': 'text/html' }, body: '<html><body>404 Not Found</body></html>' },
		],
		[
			'an API gateway (JSON)',
			{
				status: 404,
				headers: { 'Content-Type': 'application/json' },
				body: '{"message":"no Route matched with those values"}',
			},
		],
	])(
		"%s's 404 in answer to a file's delete is a failed delete, not a file already gone",
		async (_label, answer) => {
			const key = `proxy-delete-${_label.length}/a.txt`;
			await emulator().adversary.put(HERE, key, Buffer.from('still here'), {
				visibility: 'private',
				contentType: 'text/plain',
				writer: 'setup',
			});
			emulator().adversary.setHooks({
				before: async (call) => (call.op === 'delete' && keyOf(call) === key ? answer : undefined),
			});
			const result = await deleteFolder(key.split('/')[0]);
			expect(await read(key)).toBeDefined();
			const json = result.items.map((item) => item.json);
			expect(json).not.toContainEqual(expect.objectContaining({ key, deleted: true }));
			expect(JSON.stringify(json)).toMatch(/Deleted 0 files under .*deleting '[^']*a\.txt' failed/);
		},
		60_000,
	);

	it("the API's own 404 to a file's delete (deleted by someone else since the listing) is a file already gone", async () => {
		const key = 'api-gone-delete/a.txt';
		await emulator().adversary.put(HERE, key, Buffer.from('soon gone'), {
			visibility: 'private',
			contentType: 'text/plain',
			writer: 'setup',
		});
		emulator().adversary.setHooks({
			before: async (call) => {
				if (call.op === 'delete' && keyOf(call) === key) await emulator().adversary.remove(HERE, key, 'other');
				return undefined;
			},
		});
		const result = await deleteFolder('api-gone-delete');
		expect(result.items.map((item) => [item.json.key, item.json.deleted, item.json.alreadyGone])).toEqual([
			[key, true, true],
		]);
	}, 60_000);
});

/** Two buckets of one account; the CDN answers a key from the first bucket holding it (spec §3.9: one location). */
const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const twoBuckets = useEmulator({ buckets: [OTHER, HERE] });

describe('Folder → Copy to the same folder in another bucket, a file written there during the Copy', () => {
	it("another writer's file appearing at the destination before the source is read: the source is not deleted for it", async () => {
		const source = 'shared/f.txt';
		await twoBuckets().adversary.put(HERE, source, Buffer.from('MINE: the only copy'), {
			visibility: 'private',
			contentType: 'text/plain',
			writer: 'setup',
		});
		await sleep(5000);
		let struck = false;
		twoBuckets().adversary.setHooks({
			before: async (call) => {
				// After the node found the destination free, before the source's bytes are read.
				if (call.op === 'cdn' && !struck) {
					struck = true;
					await twoBuckets().adversary.put(OTHER, source, Buffer.from('THEIRS: other bytes'), {
						visibility: 'private',
						contentType: 'text/plain',
						writer: 'other',
					});
				}
				return undefined;
			},
		});
		const result = await runFileStorage(
			twoBuckets(),
			{
				resource: 'folder',
				operation: 'copy',
				folder: path('shared/'),
				destinationFolder: path('shared/'),
				options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
			},
			{ continueOnFail: true },
		);
		twoBuckets().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		const holds = await Promise.all(
			[HERE, OTHER].map(async (bucket) => {
				const stored = await twoBuckets().readObject(bucket.name, bucket.region, source);
				return stored?.body.toString();
			}),
		);
		// The source's bytes must still be in one of the two buckets.
		expect(holds).toContain('MINE: the only copy');
		expect(result.items.map((item) => item.json.status)).not.toContain('copied');
	}, 60_000);
});
