/**
 * Download File and the CDN's cache (spec §3.9: a CDN keeps serving an earlier version of a replaced
 * public file for a while; the emulator keeps public answers for `cdnCacheSeconds`). A public file's
 * signed link is its plain CDN location, so the trigger's own `created` download fills the cache, and
 * a same-size replacement a second later must not be emitted as `updated` with the bytes the CDN kept.
 * The download reads the file as Copy reads its source (purge first, then the answer judged against
 * the listed record: files/proof.ts); an answer not shown to be the listed version is never attached.
 */
import type { HookAnswer, HookCall } from '../emulator/history';
import type { RunPollResult } from '../harness';
import { apiFor, nextSecond, Poller, put, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 60 });
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

/** Counts the API's requests of one kind (and lets every request through). */
function counting(op: string): { count: number } {
	const seen = { count: 0 };
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op === op) seen.count++;
			return await Promise.resolve(undefined);
		},
	});
	return seen;
}

/** A trigger watching `folder` with Download File on, whose first poll recorded the folder empty. */
async function watching(folder: string): Promise<Poller> {
	const trigger = new Poller(emulator, {
		folder,
		watchFor: ['created', 'updated'],
		options: { downloadFile: true },
	} as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	return trigger;
}

/** Stores version-1, polls (the `created` download fills the CDN cache), then stores version-2 a second later. */
async function createdThenReplaced(trigger: Poller, key: string, visibility: string): Promise<void> {
	await put(api(), key, 'version-1', { visibility });
	const created = await trigger.poll();
	expect(created.error).toBeUndefined();
	expect(created.items.map((item) => item.json.event)).toEqual(['created']);
	expect((await created.readBinary(created.items[0])).toString()).toBe('version-1');
	await nextSecond();
	await put(api(), key, 'version-2', { visibility });
}

/**
 * A trigger watching `folder` whose public report.txt was emitted as created and then replaced (see
 * createdThenReplaced), with the second the listing gives the replacement as an HTTP date: the Last-Modified a CDN
 * passes on for it.
 */
async function publicFileReplaced(folder: string): Promise<{ trigger: Poller; listedSecond: string }> {
	const trigger = await watching(folder);
	const key = `${folder}/report.txt`;
	await createdThenReplaced(trigger, key, 'public');
	const listed = JSON.parse((await api().list({ prefix: `${folder}/` })).body.toString()) as {
		data: { contents: { children: Array<{ path: string; last_modified: string }> } };
	};
	const lastModified = listed.data.contents.children.find((entry) => entry.path === key)!.last_modified;
	return { trigger, listedSecond: new Date(Date.parse(lastModified)).toUTCString() };
}

/** The text of every file a poll attached to its items. */
async function attachedTexts(result: RunPollResult): Promise<string[]> {
	const withFile = result.items.filter((item) => item.binary);
	return await Promise.all(withFile.map(async (item) => (await result.readBinary(item)).toString()));
}

describe('Download File of a public file replaced by one of the same size', () => {
	it('the updated item carries the bytes stored now, never the version the CDN kept', async () => {
		const trigger = await watching('cdn-upd');
		await createdThenReplaced(trigger, 'cdn-upd/report.txt', 'public');
		const purges = counting('purge');
		const updated = await trigger.poll();
		expect(updated.error).toBeUndefined();
		const emitted = await Promise.all(
			updated.items.map(async (item) => [item.json.event, (await updated.readBinary(item)).toString()]),
		);
		expect(emitted).toEqual([['updated', 'version-2']]);
		// The CDN's copy was cleared before the read: one purge for the one public file.
		expect(purges.count).toBe(1);
	});

	it('a CDN that keeps the earlier version even after its purge: held back, then emitted without the bytes, saying why', async () => {
		const trigger = await watching('cdn-kept');
		await createdThenReplaced(trigger, 'cdn-kept/report.txt', 'public');
		// The CDN ignores the purge and answers what it kept, marked as such (Age, X-Cache).
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				await Promise.resolve(
					call.op === 'cdn'
						? { status: 200, headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' }, body: 'version-1' }
						: undefined,
				),
		});
		// Held back as any failed download (docs/trigger.md, Download File failures), and tried again.
		for (const attempt of [1, 2]) {
			const held = await trigger.poll();
			expect([attempt, held.error, held.items]).toEqual([attempt, undefined, []]);
		}
		const given = await trigger.poll();
		expect(given.error).toBeUndefined();
		expect(given.items).toHaveLength(1);
		const [item] = given.items;
		expect(item.json).toMatchObject({ event: 'updated', key: 'cdn-kept/report.txt', size: 9 });
		expect(item.binary).toBeUndefined();
		expect(String(item.json.error)).toMatch(
			/^Download of 'cdn-kept\/report\.txt' was not kept: the CDN's answer cannot be shown to be the version the service stores \(a cache marked the CDN's answer as kept \(Age: 30, X-Cache: HIT\), so its bytes .*\)\. Download it again in a few minutes$/,
		);
	});
});

describe('Download File of a private file', () => {
	it('is read through its signed link with no purge (the CDN does not cache it), and carries the bytes stored now', async () => {
		const trigger = await watching('cdn-private');
		await createdThenReplaced(trigger, 'cdn-private/report.txt', 'private');
		const purges = counting('purge');
		const updated = await trigger.poll();
		expect(updated.error).toBeUndefined();
		expect(updated.items).toHaveLength(1);
		expect((await updated.readBinary(updated.items[0])).toString()).toBe('version-2');
		expect(purges.count).toBe(0);
	});
});

describe('Download File of a public file whose CDN answers, unmarked, the version of the second before', () => {
	it('an answer whose Last-Modified is a whole second before the listed version is never attached', async () => {
		const trigger = await watching('cdn-second');
		const key = 'cdn-second/report.txt';
		await createdThenReplaced(trigger, key, 'public');
		// The version-1 the CDN kept, as it first served it: its own Last-Modified (one second before the
		// listing's record of version-2), and no Age or X-Cache (a CDN that does not mark its hits).
		const listed = JSON.parse((await api().list({ prefix: 'cdn-second/' })).body.toString()) as {
			data: { contents: { children: Array<{ path: string; last_modified: string }> } };
		};
		const version2At = Date.parse(listed.data.contents.children.find((entry) => entry.path === key)!.last_modified);
		const version1LastModified = new Date(version2At - 1000).toUTCString();
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				await Promise.resolve(
					call.op === 'cdn'
						? {
								status: 200,
								headers: { 'Content-Type': 'text/plain', 'Last-Modified': version1LastModified },
								body: 'version-1',
							}
						: undefined,
				),
		});
		const updated = await trigger.poll();
		expect(updated.error).toBeUndefined();
		const attached = await attachedTexts(updated);
		expect(attached).not.toContain('version-1');
	});
});

describe('Download File of a private file whose signed link a cache answers with the version it kept', () => {
	it('is never attached: the cache is purged, the file read again and judged like a public one', async () => {
		const trigger = await watching('cdn-private-kept');
		await createdThenReplaced(trigger, 'cdn-private-kept/report.txt', 'private');
		let purges = 0;
		// A CDN that keys its cache by path (the signature checked at the edge) and ignores the purge.
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'purge') purges++;
				const kept = {
					status: 200,
					headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' },
					body: 'version-1',
				};
				return await Promise.resolve(call.op === 'cdn' ? kept : undefined);
			},
		});
		const held = await trigger.poll();
		expect([held.error, held.items]).toEqual([undefined, []]);
		expect(purges).toBe(1);
		// Once the cache no longer keeps it, the next poll attaches the stored version.
		emulator().adversary.setHooks(undefined);
		const updated = await trigger.poll();
		expect(updated.items.map((item) => item.json.event)).toEqual(['updated']);
		expect((await updated.readBinary(updated.items[0])).toString()).toBe('version-2');
	});
});

describe('Download File of a public file whose CDN answers with a redirect it kept', () => {
	it('the bytes the kept redirect leads to are never attached, though unmarked and dated in the listed second', async () => {
		const { trigger, listedSecond } = await publicFileReplaced('cdn-redirect');
		let earlierAsked = 0;
		// The CDN answers the file's location with a redirect it kept (Age, X-Cache) to an earlier
		// version's URL, which answers version-1 unmarked, with a Last-Modified in the listed second.
		emulator().adversary.setHooks({
			before: async (call: HookCall): Promise<HookAnswer | undefined> => {
				if (call.op !== 'cdn') return await Promise.resolve(undefined);
				if (!call.query.has('earlier')) {
					return {
						status: 302,
						headers: { Location: `${call.path}?earlier=1`, Age: '30', 'X-Cache': 'HIT' },
						body: '',
					};
				}
				earlierAsked++;
				return {
					status: 200,
					headers: { 'Content-Type': 'text/plain', 'Last-Modified': listedSecond },
					body: 'version-1',
				};
			},
		});
		const updated = await trigger.poll();
		expect(updated.error).toBeUndefined();
		expect(earlierAsked).toBeGreaterThan(0);
		const attached = await attachedTexts(updated);
		expect(attached).not.toContain('version-1');
	});
});

describe('Download File of a public file whose CDN revalidated the version it kept', () => {
	it('an answer a cache revalidated (Age: 0, X-Cache: TCP_REFRESH_HIT, the listed Last-Modified) is never attached', async () => {
		const { trigger, listedSecond } = await publicFileReplaced('cdn-revalidated');
		// Past the listed second and the clocks' margin: by Date − Age alone, the answer would count as read after it.
		await new Promise((resolve) => setTimeout(resolve, 5500));
		// The origin answered the cache's If-Modified-Since with 304 (one second for both versions): the
		// cache serves version-1 as checked just now.
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				await Promise.resolve(
					call.op === 'cdn'
						? {
								status: 200,
								headers: {
									'Content-Type': 'text/plain',
									'Last-Modified': listedSecond,
									Age: '0',
									'X-Cache': 'TCP_REFRESH_HIT from edge',
								},
								body: 'version-1',
							}
						: undefined,
				),
		});
		for (const attempt of [1, 2]) {
			const held = await trigger.poll();
			expect([attempt, held.error, held.items]).toEqual([attempt, undefined, []]);
		}
		const given = await trigger.poll();
		expect(given.items).toHaveLength(1);
		expect(given.items[0].binary).toBeUndefined();
		expect(String(given.items[0].json.error)).toMatch(
			/a cache revalidated its copy .*X-Cache: TCP_REFRESH_HIT from edge/,
		);
	}, 30_000);
});
