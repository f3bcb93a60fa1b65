/**
 * Move deletes its source only when the bytes it copied are shown to be the version the service
 * stores (docs/reliability.md, "Destructive steps act on proof"). A CDN that kept an earlier
 * version of the same size, and marks its answer as kept (Age, X-Cache), is never taken for the
 * stored version, whatever its Last-Modified says; a proxy's page is never the API's answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { useFakeCdn } from './fakeCdn';
import { eventually, useProxy, viaProxy } from './proxy';
import {
	BUCKET,
	byKey,
	credentialsFor,
	runFileStorage,
	storedHttpDate,
	storedText,
	uploadWithNode,
	useEmulator,
} from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const proxy = useProxy(emulator);
const cdn = useFakeCdn();

const read = async (key: string) => await storedText(emulator(), key);

async function store(key: string, bytes: Buffer | string, visibility = 'public') {
	await uploadWithNode(emulator(), key, bytes, { visibility });
}

async function run(operation: string, key: string, parameters: INodeParameters = {}) {
	return await runFileStorage(emulator(), { resource: 'file', operation, fileKey: byKey(key), ...parameters });
}

/** Stores `text` publicly and gives the Last-Modified a CDN would pass on for it (within the listing's second). */
async function storeDated(key: string, text: string): Promise<string> {
	await uploadWithNode(emulator(), key, text);
	return new Date().toUTCString();
}

async function moveThroughCdn(key: string) {
	// Every signed link of the run (the source's, the copy's) reaches the scripted CDN.
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) } }]);
	return await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey: `${key}.moved`,
		options: { replace: true },
	});
}

beforeEach(() => emulator().setFaults([]));

describe('Move never deletes the newest version of a public file rewritten at the same size', () => {
	// A reader fetched "PENDING" between the two writes; the CDN keeps it after the purge.
	const older = 'STATUS: PENDING';
	const newer = 'STATUS: SUCCESS';

	const cases: Array<[string, Record<string, string>]> = [
		['Age and X-Cache: HIT, with the listing’s Last-Modified', { Age: '1', 'X-Cache': 'HIT' }],
		['X-Cache: HIT alone, with the listing’s Last-Modified', { 'X-Cache': 'HIT' }],
		['X-Cache: TCP_HIT (a proxy cache’s spelling) alone', { 'X-Cache': 'TCP_HIT' }],
		['Age alone, with the listing’s Last-Modified', { Age: '2' }],
		['Age as a list (RFC 9111: its first member counts), with the listing’s Last-Modified', { Age: '2, 2' }],
		['Age: 0 (kept less than a second), with the listing’s Last-Modified', { Age: '0' }],
		['CF-Cache-Status: HIT alone (Cloudflare’s header)', { 'CF-Cache-Status': 'HIT' }],
		['Cache-Status naming a hit alone (RFC 9211)', { 'Cache-Status': 'EdgeCache; hit; ttl=50' }],
	];
	cases.forEach(([marks, headers], index) => {
		it(`an answer a cache marks as kept (${marks}) is never proof: the source stays`, async () => {
			const key = `rewrite/kept-${index}.txt`;
			const lastModified = await storeDated(key, newer);
			cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, ...headers }, body: older });
			const result = await moveThroughCdn(key);
			expect([await read(key), await read(`${key}.moved`)]).toContain(newer);
			expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
			expect(await read(key)).toBe(newer);
		});
	});

	const staleCases: Array<[string, Record<string, string>]> = [
		['CF-Cache-Status: STALE', { 'CF-Cache-Status': 'STALE', 'Cache-Control': 'public, max-age=1' }],
		[
			'X-Cache: HIT, stale-while-revalidate',
			{ 'X-Cache': 'HIT', 'Cache-Control': 'max-age=1, stale-while-revalidate=600' },
		],
		[
			'X-Cache: HIT kept past max-age=1 by the CDN’s own TTL',
			{ 'X-Cache': 'HIT', 'Cache-Control': 'public, max-age=1' },
		],
	];
	staleCases.forEach(([marks, headers], index) => {
		it(`an answer kept past its max-age (${marks}, no Age) proves nothing: the source stays`, async () => {
			// Written 5 s before: Date − max-age is past the listed second plus the margin, but a stale
			// answer was kept longer than max-age, and without an Age nothing says how long.
			const key = `rewrite/stale-${index}.txt`;
			await storeDated(key, newer);
			await new Promise((resolve) => setTimeout(resolve, 5100));
			cdn().answer = () => ({ headers, body: older });
			const result = await moveThroughCdn(key);
			expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
			expect(await read(key)).toBe(newer);
		});
	});

	it('an answer with no Date cannot be placed after the write: the source stays, the error says why', async () => {
		const key = 'rewrite/undated.txt';
		const lastModified = await storeDated(key, newer);
		// An empty Date: Node's server adds none of its own then.
		cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, Date: '' }, body: older });
		const result = await moveThroughCdn(key);
		expect(result.error?.message).toMatch(/no Date/);
		expect(await read(key)).toBe(newer);
		expect(await read(`${key}.moved`)).toBeUndefined();
	});
});

describe('a proxy\'s 404 page in answer to the purge is not the API\'s "nothing cached"', () => {
	it('Move of a public source fails, nothing copied or deleted', async () => {
		await uploadWithNode(emulator(), 'purgepage/source.txt', 'the source');
		proxy().setRules({ answerInstead: { 'POST /api/v1/files/purge': [{ status: 404, html: '<h1>Not Found</h1>' }] } });
		const result = await runNode({
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'move',
				fileKey: byKey('purgepage/source.txt'),
				destinationKey: 'purgepage/moved.txt',
				options: { maxRetries: 0 },
			},
		});
		expect(result.error?.message).toMatch(/Clearing the CDN cache of the public source/);
		expect(await read('purgepage/source.txt')).toBe('the source');
		expect(await read('purgepage/moved.txt')).toBeUndefined();
	});
});

describe('Copy never copies (nor reports) a version the CDN kept after the purge', () => {
	it('an answer a cache marks as kept (X-Cache: HIT, no Last-Modified): nothing is copied, the error says why', async () => {
		const key = 'copykept/source.txt';
		await uploadWithNode(emulator(), key, 'STATUS: SUCCESS');
		cdn().answer = () => ({ headers: { 'X-Cache': 'HIT' }, body: 'STATUS: PENDING' });
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'copy',
			fileKey: byKey(key),
			destinationKey: 'copykept/copy.txt',
			// With Replace on, the first signed link asked for is the source's.
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/^Copy: the answer read for the source .* cannot be shown to be the version/);
		expect(result.error?.description).toMatch(/Nothing was copied\./);
		expect(await read('copykept/copy.txt')).toBeUndefined();
	});
});

describe('a CDN that ignores the purge, or dates nothing', () => {
	// Serves `body` at any path, dated or not: a CDN whose cache ignores the purge (it says so
	// with Age, as every HTTP cache does for what it kept), or, with `age` undefined, an origin.
	let body = '';
	let lastModified: string | undefined;
	let age: string | undefined = '30';
	let server: Server;
	let cdn = '';
	let reads = 0;
	beforeAll(async () => {
		server = createServer((req, res) => {
			reads += 1;
			const dated: Record<string, string> = lastModified ? { 'Last-Modified': lastModified } : {};
			const kept: Record<string, string> = age ? { Age: age } : {};
			res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(body.length), ...dated, ...kept });
			res.end(req.method === 'HEAD' ? undefined : body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('Move never deletes a stored version it did not copy: an undated answer of the same size from a CDN that kept the old version', async () => {
		body = 'version-1';
		lastModified = undefined;
		await store('undated/b.txt', 'version-2');
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/b.txt` }, nth: [1] }]);
		const result = await run('move', 'undated/b.txt', {
			destinationKey: 'undated/b.moved',
			options: { replace: true },
		});
		// Either the Move refuses, or what it moved is the stored version: 'version-2' is never lost.
		const kept = [await read('undated/b.txt'), await read('undated/b.moved')];
		expect(kept).toContain('version-2');
		if (result.error === undefined) expect(await read('undated/b.moved')).toBe('version-2');
	});

	it('Move refuses an undated answer read after the purge that no cache says it kept: nothing copied or deleted, the error names the missing Last-Modified', async () => {
		// Formerly moved: an undated answer cannot be told from another bucket's file at the key (one CDN location per key).
		body = 'version-2';
		lastModified = undefined;
		age = undefined;
		try {
			await store('undated/fresh.txt', 'version-2');
			emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/fresh.txt` }, nth: [1] }]);
			const result = await run('move', 'undated/fresh.txt', {
				destinationKey: 'undated/fresh.moved',
				options: { replace: true },
			});
			expect(result.error?.message).toMatch(
				/^Move: the answer read for the source 'undated\/fresh\.txt' .* the answer names no Last-Modified, so it cannot be told from another bucket's file at this key .*let Last-Modified through the CDN or proxy, or keep one key in one bucket of the account$/,
			);
			expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
			expect(await read('undated/fresh.txt')).toBe('version-2');
			expect(await read('undated/fresh.moved')).toBeUndefined();
		} finally {
			age = '30';
		}
	});

	it('Copy refuses an undated answer no cache says it kept: nothing is written at the destination', async () => {
		body = 'version-2';
		lastModified = undefined;
		age = undefined;
		try {
			await store('undated/copied.txt', 'version-2');
			emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/copied.txt` }, nth: [1] }]);
			const result = await run('copy', 'undated/copied.txt', {
				destinationKey: 'undated/copied.copy',
				options: { replace: true },
			});
			expect(result.error?.message).toMatch(/^Copy: the answer read for the source .* names no Last-Modified/);
			expect(result.error?.description).toMatch(/Nothing was copied\./);
			expect(await read('undated/copied.copy')).toBeUndefined();
			expect(await read('undated/copied.txt')).toBe('version-2');
		} finally {
			age = '30';
		}
	});

	it('Move takes an answer dated in the listed second, read after the purge, that no cache says it kept, and moves the stored version', async () => {
		body = 'version-2';
		age = undefined;
		try {
			await store('undated/dated.txt', 'version-2');
			lastModified = await storedHttpDate(emulator(), 'undated/dated.txt');
			// Every read of the source's link is this CDN's (a read in the listed second is done again); the copy's
			// read-back goes to the emulator's CDN, which dates it in the copy's own second.
			emulator().adversary.setHooks({
				after: async (call, reply) => {
					if (call.op !== 'signedUrl' || call.query.get('key') !== 'undated/dated.txt') return;
					const data = (reply.body as { data?: { url?: string } }).data;
					if (data) data.url = `${cdn}undated/dated.txt`;
					return await Promise.resolve();
				},
			});
			const readsBefore = reads;
			const result = await run('move', 'undated/dated.txt', { destinationKey: 'undated/dated.moved' });
			expect(reads).toBeGreaterThan(readsBefore);
			expect(result.error).toBeUndefined();
			expect(await read('undated/dated.moved')).toBe('version-2');
			expect(await read('undated/dated.txt')).toBeUndefined();
		} finally {
			age = '30';
			emulator().adversary.setHooks(undefined);
		}
	}, 30_000);

	it('Move refuses an undated answer a cache says it kept (Age), though the purge was asked: nothing copied or deleted', async () => {
		body = 'version-1';
		lastModified = undefined;
		await store('undated/kept.txt', 'version-2');
		// Every read of the source's link meets the kept answer (a Move re-reads a file just written).
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/kept.txt` } }]);
		const result = await run('move', 'undated/kept.txt', {
			destinationKey: 'undated/kept.moved',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(
			/a cache marked the CDN's answer as kept \(Age: 30\), so its bytes cannot be shown.*bypass that cache/,
		);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
		expect(await read('undated/kept.txt')).toBe('version-2');
		expect(await read('undated/kept.moved')).toBeUndefined();
	});

	it("Move never deletes a stored version it did not copy: a same-size CDN answer stamped with the CDN's own (later) time", async () => {
		body = 'version-1';
		lastModified = new Date(Date.now() + 60_000).toUTCString();
		await store('undated/c.txt', 'version-2');
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}undated/c.txt` }, nth: [1] }]);
		const result = await run('move', 'undated/c.txt', {
			destinationKey: 'undated/c.moved',
			options: { replace: true },
		});
		expect(result.error?.message).toMatch(/cannot be shown to be the version the service stores/);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
		expect(await read('undated/c.txt')).toBe('version-2');
		expect(await read('undated/c.moved')).toBeUndefined();
	});
});

describe('Move and a source replaced within the second it was written', () => {
	it('Move never deletes a stored version it did not copy: a same-size replacement in the same second as the version read', async () => {
		const key = 'samesecond/source.txt';
		// Start at the top of a second, so both versions are listed with the same whole-second date.
		while (Date.now() % 1000 > 50) await new Promise((resolve) => setTimeout(resolve, 5));
		await store(key, 'version-1');
		// The source's bytes come through the proxy, whose answer is held while the source is replaced.
		emulator().setFaults([
			{ operation: 'signedUrl', rewrite: { url: `${proxy().url}/f/${emulator().accessId}/${key}` }, nth: [1] },
		]);
		proxy().setRules({ holdAnswer: { cdn: 400 } });
		const parameters: INodeParameters = {
			...BUCKET,
			resource: 'file',
			operation: 'move',
			fileKey: byKey(key),
			destinationKey: 'samesecond/moved.txt',
			options: { replace: true },
		};
		const moving = runNode({ credentials: credentialsFor(emulator()), parameters });
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'cdn'), 5_000)).toBe(true);
		await store(key, 'version-2');
		const result = await moving;
		// The read of 'version-1', in the second it was written, is waited out and done again.
		expect(result.error).toBeUndefined();
		expect(await read('samesecond/moved.txt')).toBe('version-2');
		expect(await read(key)).toBeUndefined();
	});
});
