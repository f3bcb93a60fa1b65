/**
 * Download File over the trigger's request pool (Parallel Requests): version 2 downloads the
 * files of a poll several at once, version 1 (saved workflows) one after another as before.
 * Either way the items come in the order of the changes, only emitted items are downloaded, a
 * failed download waits for the next poll, and a 429 pauses every request of the poll.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { apiFor, nextSecond, Poller, put } from './support';
import type { RunPollResult } from '../harness';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { useProxy, viaProxy } from '../node/proxy';
import { randomFile, sha256, useEmulator } from '../node/support';

const emulator = useEmulator();
const proxy = useProxy(emulator);
const api = () => apiFor(emulator());

afterEach(() => {
	emulator().setFaults([]);
	emulator().setLatency(0);
});

/** Files of different sizes (so a mix-up shows in the bytes), some a second later (so order is by time, then key). */
async function uploadFiles(folder: string, count: number): Promise<Map<string, Buffer>> {
	const files = new Map<string, Buffer>();
	for (let i = 0; i < count; i++) {
		// Later names first, so the order by key is not the order of upload within a second.
		const key = `${folder}/${String.fromCharCode(122 - i)}.bin`;
		files.set(key, randomFile(1000 + ((i * 7919) % 40_000)));
		if (i === Math.floor(count / 2)) await nextSecond();
		await put(api(), key, files.get(key)!, { contentType: 'application/octet-stream' });
	}
	return files;
}

async function expectFiles(result: RunPollResult, files: Map<string, Buffer>): Promise<void> {
	expect(result.error).toBeUndefined();
	for (const item of result.items) {
		expect(sha256(await result.readBinary(item))).toBe(sha256(files.get(String(item.json.key))!));
	}
}

const keysOf = (result: RunPollResult) => result.items.map((item) => item.json.key);

describe('Download File with Parallel Requests', () => {
	it('version 2 downloads several files at once and emits them in the order version 1 does, byte for byte', async () => {
		const parameters = { folder: 'both', options: { downloadFile: true } } as never;
		const v1 = new Poller(emulator, parameters, { typeVersion: 1 });
		const v2 = new Poller(emulator, parameters, { typeVersion: 2 });
		await v1.poll();
		await v2.poll();
		const files = await uploadFiles('both', 10);
		// Every answer takes a while, so downloads that go at once are seen at once.
		emulator().setLatency(40);

		emulator().resetStats();
		const one = await v1.poll();
		expect(emulator().stats().maxConcurrentCdnRequests).toBe(1);
		emulator().resetStats();
		const two = await v2.poll();
		const stats = emulator().stats();
		expect(stats.maxConcurrentCdnRequests).toBeGreaterThan(1);
		expect(stats.requests.cdn).toBe(files.size);
		expect(stats.requests.signedUrl).toBe(files.size);

		expect(keysOf(one)).toHaveLength(files.size);
		expect(keysOf(two)).toEqual(keysOf(one));
		expect(new Set(keysOf(one))).toEqual(new Set(files.keys()));
		await expectFiles(one, files);
		await expectFiles(two, files);
	});

	it('with Max Files Per Poll, exactly that many files are downloaded and emitted; the rest come with the next polls', async () => {
		const trigger = new Poller(emulator, {
			folder: 'max',
			options: { downloadFile: true, maxFilesPerPoll: 3 },
		} as never);
		await trigger.poll();
		const files = await uploadFiles('max', 7);
		emulator().setLatency(20);
		const polls: RunPollResult[] = [];
		for (const expected of [3, 3, 1]) {
			emulator().resetStats();
			const result = await trigger.poll();
			await expectFiles(result, files);
			expect(result.items).toHaveLength(expected);
			expect(emulator().stats().requests.cdn).toBe(expected);
			expect(emulator().stats().requests.signedUrl).toBe(expected);
			polls.push(result);
		}
		expect(new Set(polls.flatMap(keysOf))).toEqual(new Set(files.keys()));
		expect(await trigger.changes()).toEqual([]);
	});

	it('a 429 pauses every request of the poll for its Retry-After, not only the one that got it', async () => {
		const trigger = new Poller({ url: proxy().url }, {
			folder: 'pause',
			options: { downloadFile: true, parallelRequests: 3 },
		} as never);
		// Through the proxy with the emulator's keys: signatures stay valid.
		const credentials = viaProxy(emulator(), proxy());
		await trigger.poll({ credentials });
		const files = await uploadFiles('pause', 9);
		proxy().exchanges.splice(0);
		proxy().setRules({ answerInstead: { signedUrl: [{ status: 429, headers: { 'Retry-After': '1' } }] } });
		const result = await trigger.poll({ credentials });
		await expectFiles(result, files);
		expect(new Set(keysOf(result))).toEqual(new Set(files.keys()));
		const links = proxy().exchanges.filter((e) => e.operation === 'signedUrl');
		expect(links).toHaveLength(files.size + 1);
		const refused = links.find((e) => e.status === 429)!;
		// Only links asked for before the 429 reached the trigger (at most Parallel Requests − 1)
		// start within its Retry-After; the others wait for it to run out.
		const at = refused.answeredAt!;
		const during = links.filter((e) => e.startedAt > at && e.startedAt < at + 950);
		expect(during.length).toBeLessThanOrEqual(2);
	});
});

describe('Download File failures with Parallel Requests', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());
	const refused = new Set<string>();
	/** Keys the CDN answers late, so later downloads finish first. */
	const slow = new Set<string>();
	afterEach(() => {
		refused.clear();
		slow.clear();
	});
	let warn: jest.SpyInstance;
	beforeEach(() => (warn = jest.spyOn(Container.get(Logger), 'warn')));
	afterEach(() => warn.mockRestore());
	const warnings = () => warn.mock.calls.map(([message]) => String(message));

	async function scripted(typeVersion: number, options: Record<string, unknown> = {}) {
		const folder = new ScriptedFolder('dl/', []);
		server = await startListServer(folder.answer, (key) =>
			refused.has(key)
				? { status: 403, body: 'Forbidden' }
				: { status: 200, body: `content of ${key}`, delayMs: slow.has(key) ? 300 : 0 },
		);
		const trigger = new Poller(
			server,
			{ folder: 'dl', options: { downloadFile: true, maxRetries: 0, ...options } } as never,
			{ typeVersion },
		);
		return { folder, trigger, server };
	}
	/** Listed with the size the scripted CDN serves. */
	const add = (folder: ScriptedFolder, name: string) => folder.put(name, `content of dl/${name}`.length);

	it('version 1 sends the requests it sent before Parallel Requests existed: one file after another, in order', async () => {
		const { folder, trigger, server } = await scripted(1);
		expect((await trigger.poll()).returnedNull).toBe(true);
		for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) add(folder, name);
		refused.add('dl/b.txt');
		server.log.splice(0);
		slow.add('dl/a.txt');
		const result = await trigger.poll();
		expect(keysOf(result)).toEqual(['dl/a.txt', 'dl/c.txt', 'dl/d.txt']);
		expect(server.maxDownloadsInFlight()).toBe(1);
		// Recorded from the trigger before Parallel Requests existed. This CDN passes on the listed Last-Modified, so
		// each answer is judged by the poll's listing alone (docs/trigger.md, "Download File: the listed version").
		// The scan's page 2, empty, is the one request added since: a short page ends a listing only then (pageEnd.ts).
		expect(server.log).toEqual([
			'GET /api/v1/files/list page=1',
			'GET /api/v1/files/list page=2',
			'GET /api/v1/files/signed-url dl/a.txt',
			'GET /f/access/dl/a.txt',
			'GET /api/v1/files/signed-url dl/b.txt',
			'GET /f/access/dl/b.txt',
			'GET /api/v1/files/signed-url dl/c.txt',
			'GET /f/access/dl/c.txt',
			'GET /api/v1/files/signed-url dl/d.txt',
			'GET /f/access/dl/d.txt',
		]);
	});

	it('a download that fails amid parallel ones is held back and the others are emitted in order, also when the first finishes last; after 3 polls it comes with its error', async () => {
		const { folder, trigger, server } = await scripted(2);
		expect((await trigger.poll()).returnedNull).toBe(true);
		for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']) add(folder, name);
		refused.add('dl/c.txt');
		slow.add('dl/a.txt');
		const first = await trigger.poll();
		// The others went out while the first was held back.
		expect(server.maxDownloadsInFlight()).toBeGreaterThan(1);
		expect(first.error).toBeUndefined();
		expect(keysOf(first)).toEqual(['dl/a.txt', 'dl/b.txt', 'dl/d.txt', 'dl/e.txt']);
		for (const item of first.items)
			expect((await first.readBinary(item)).toString()).toBe(`content of ${String(item.json.key)}`);
		expect(warnings()).toEqual([expect.stringMatching(/download of 'dl\/c\.txt' failed \(1 of 3 polls\).*403/)]);
		expect((await trigger.poll()).returnedNull).toBe(true);
		expect(warnings()[1]).toMatch(/download of 'dl\/c\.txt' failed \(2 of 3 polls\)/);
		add(folder, 'f.txt');
		const last = await trigger.poll();
		expect(keysOf(last)).toEqual(['dl/c.txt', 'dl/f.txt']);
		expect(last.items[0].binary).toBeUndefined();
		expect(String(last.items[0].json.error)).toMatch(/Download of 'dl\/c\.txt'.*403/);
		expect((await last.readBinary(last.items[1])).toString()).toBe('content of dl/f.txt');
		expect(await trigger.changes()).toEqual([]);
	});
});
