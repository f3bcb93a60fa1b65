/**
 * Copy and Move against a CDN that caches public files (spec §3.9): what is copied, checked and
 * deleted must be the version the service stores, never an answer the CDN kept. The emulator's
 * CDN here keeps the first answer for a public key for 10 minutes, until the key is purged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../harness';
import { eventually, useProxy, viaProxy } from './proxy';
import { BUCKET, byKey, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const proxy = useProxy(emulator);

async function store(key: string, bytes: Buffer | string, visibility = 'public', mimeType = 'text/plain') {
	await uploadWithNode(emulator(), key, bytes, { visibility, mimeType });
}

const read = async (key: string) => await storedText(emulator(), key);

/** What the CDN answers at a public file's plain location (and, the first time, keeps). */
async function viaCdn(key: string): Promise<string> {
	const answer = await fetch(`${emulator().cdnUrl}/f/${emulator().accessId}/${key}`);
	return await answer.text();
}

async function run(operation: string, key: string, parameters: INodeParameters = {}) {
	return await runFileStorage(emulator(), { resource: 'file', operation, fileKey: byKey(key), ...parameters });
}

/** The node with its requests through the proxy, which can hold back or replace answers. */
function runViaProxy(operation: string, key: string, parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		credentials: viaProxy(emulator(), proxy()),
		...extra,
		parameters: { ...BUCKET, resource: 'file', operation, fileKey: byKey(key), ...parameters },
	});
}

beforeEach(() => emulator().setFaults([]));

describe('the emulator CDN cache (test set-up)', () => {
	it('keeps serving the first version of a replaced public file until it is purged', async () => {
		await store('cache/file.txt', 'first');
		expect(await viaCdn('cache/file.txt')).toBe('first');
		await store('cache/file.txt', 'second version');
		expect(await viaCdn('cache/file.txt')).toBe('first');
		const purged = await run('purge', 'cache/file.txt');
		expect(purged.error).toBeUndefined();
		expect(await viaCdn('cache/file.txt')).toBe('second version');
	});
});

describe('Copy and Move copy the version the service stores, not one the CDN still holds', () => {
	it('Move of a public file replaced while the CDN holds the old version moves the new version', async () => {
		await store('stale/a.txt', 'old');
		expect(await viaCdn('stale/a.txt')).toBe('old');
		await store('stale/a.txt', 'the NEW version');
		const result = await run('move', 'stale/a.txt', { destinationKey: 'stale/moved-a.txt' });
		expect(result.error).toBeUndefined();
		expect(await read('stale/moved-a.txt')).toBe('the NEW version');
		expect(await read('stale/a.txt')).toBeUndefined();
	});

	it('Move of a replaced public file of the same size moves the new version', async () => {
		await store('stale/b.txt', 'version-1');
		expect(await viaCdn('stale/b.txt')).toBe('version-1');
		await store('stale/b.txt', 'version-2');
		const result = await run('move', 'stale/b.txt', { destinationKey: 'stale/moved-b.txt' });
		expect(result.error).toBeUndefined();
		expect(await read('stale/moved-b.txt')).toBe('version-2');
	});

	it('Copy of a replaced public file copies the new version', async () => {
		await store('stale/c.txt', 'old c');
		expect(await viaCdn('stale/c.txt')).toBe('old c');
		await store('stale/c.txt', 'new c, longer');
		const result = await run('copy', 'stale/c.txt', { destinationKey: 'stale/copied-c.txt' });
		expect(result.error).toBeUndefined();
		expect(await read('stale/copied-c.txt')).toBe('new c, longer');
	});
});

describe("the purge of a public source's CDN cache", () => {
	const moveViaProxy = async (key: string) =>
		await runViaProxy('move', key, { destinationKey: `${key}.moved`, options: { replace: true, maxRetries: 0 } });

	it('a purge that fails: nothing is copied, the source stays, and the error says the cache could not be cleared', async () => {
		await store('purge/failing.txt', 'public bytes');
		proxy().setRules({ answerInstead: { 'POST /api/v1/files/purge': [{ status: 500 }] } });
		const result = await moveViaProxy('purge/failing.txt');
		expect(result.error?.message).toMatch(
			/^Clearing the CDN cache of the public source 'purge\/failing\.txt' .* failed/,
		);
		expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
		expect(await read('purge/failing.txt')).toBe('public bytes');
		expect(await read('purge/failing.txt.moved')).toBeUndefined();
	});

	it("the API's own 404 to the purge (nothing cached to clear) does not stop the Move", async () => {
		await store('purge/uncached.txt', 'public, never cached');
		proxy().setRules({ answerInstead: { 'POST /api/v1/files/purge': [{ status: 404 }] } });
		const result = await moveViaProxy('purge/uncached.txt');
		expect(result.error).toBeUndefined();
		expect(await read('purge/uncached.txt.moved')).toBe('public, never cached');
		expect(await read('purge/uncached.txt')).toBeUndefined();
	});
});

describe('a CDN that answers an old version even after the purge', () => {
	// Serves `body` with `lastModified` at any path: a CDN whose cache ignores the purge.
	let body = '';
	let lastModified: string | undefined;
	let server: Server;
	let cdn = '';
	beforeAll(async () => {
		server = createServer((req, res) => {
			const headers: Record<string, string> = { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) };
			if (lastModified) headers['Last-Modified'] = lastModified;
			res.writeHead(200, headers);
			res.end(req.method === 'HEAD' ? undefined : body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		cdn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f/emulator/`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	const moveStale = async (key: string, stored: string) => {
		await store(key, stored);
		// With Replace on, the first signed link asked for is the source's.
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: `${cdn}${key}` }, nth: [1] }]);
		return await run('move', key, { destinationKey: `${key}.moved`, options: { replace: true } });
	};

	it('of another size: Move fails before copying, the source stays, and the error says the CDN answered another version', async () => {
		body = 'old';
		lastModified = undefined;
		const result = await moveStale('ignored/a.txt', 'the stored version');
		expect(result.error?.message).toMatch(
			/^Move: the source .* read through the CDN is not the version the service stores/,
		);
		expect(result.error?.message).toMatch(/3 bytes.*18 bytes/);
		expect(result.error?.description).toMatch(/The source 'ignored\/a\.txt' .* was not deleted\.$/);
		expect(await read('ignored/a.txt')).toBe('the stored version');
		expect(await read('ignored/a.txt.moved')).toBeUndefined();
	});

	it('of the same size but an older Last-Modified: Move fails, the source stays', async () => {
		body = 'version-1';
		lastModified = 'Thu, 01 Jan 2015 00:00:00 GMT';
		const result = await moveStale('ignored/b.txt', 'version-2');
		expect(result.error?.message).toMatch(/not the version the service stores/);
		expect(result.error?.message).toMatch(/2015-01-01T00:00:00Z/);
		expect(await read('ignored/b.txt')).toBe('version-2');
		expect(await read('ignored/b.txt.moved')).toBeUndefined();
	});
});

describe('the check of the copy trusts no cached answer', () => {
	it('Copy with Replace onto a public destination the CDN still holds keeps the good copy, and its location serves it', async () => {
		await store('dest/target.txt', 'old destination');
		expect(await viaCdn('dest/target.txt')).toBe('old destination');
		await store('dest/source.txt', 'the new content');
		const result = await run('copy', 'dest/source.txt', {
			destinationKey: 'dest/target.txt',
			options: { replace: true },
		});
		expect(result.error).toBeUndefined();
		expect(await read('dest/target.txt')).toBe('the new content');
		expect(await viaCdn('dest/target.txt')).toBe('the new content');
	});

	it('an inconclusive check (the service cannot be asked) never deletes the copy', async () => {
		await store('dest/target2.txt', 'old destination');
		await store('dest/source2.txt', 'the new content');
		// The first listing is the source's record, the second the copy's.
		emulator().setFaults([{ operation: 'list', status: 500, nth: [2] }]);
		const result = await run('copy', 'dest/source2.txt', {
			destinationKey: 'dest/target2.txt',
			options: { replace: true, maxRetries: 0 },
		});
		expect(result.error?.message).toMatch(/^Copy: the copy .* could not be checked/);
		expect(result.error?.description).toMatch(/The file at the destination was kept/);
		expect(await read('dest/target2.txt')).toBe('the new content');
	});

	it('a copy whose size as the service recorded it is not the bytes sent fails its check', async () => {
		await store('dest/sized.txt', 'five!', 'private');
		emulator().setFaults([{ operation: 'upload', rewrite: { size: 4 }, nth: [1] }]);
		const result = await run('move', 'dest/sized.txt', { destinationKey: 'dest/sized-copy.txt' });
		expect(result.error?.message).toMatch(/the service stored 4 bytes, but 5 were sent/);
		expect(await read('dest/sized.txt')).toBe('five!');
	});
});

describe('Replace Existing File off: an existence check that fails is not "not there"', () => {
	for (const status of [500, 403]) {
		it(`an HTTP ${status} from the check fails the Copy clearly and copies nothing`, async () => {
			await store('exists/source.txt', 'new', 'private');
			await store('exists/target.txt', 'keep me', 'private');
			proxy().setRules({ answerInstead: { signedUrl: [{ status }] } });
			const result = await runViaProxy('copy', 'exists/source.txt', {
				destinationKey: 'exists/target.txt',
				options: { maxRetries: 0 },
			});
			expect(result.error?.message).toMatch(
				/^Copy: could not tell whether the destination 'exists\/target\.txt' .* exists/,
			);
			expect(result.error?.description).toMatch(/Nothing was copied\./);
			expect(await read('exists/target.txt')).toBe('keep me');
			expect(proxy().exchanges.filter((exchange) => exchange.operation === 'upload')).toEqual([]);
		});
	}
});

describe("the service's record of a file is found whatever a prefix means to the service", () => {
	it("a service that lists nothing for a file's own path as prefix (a folder-only prefix): the record is found in its folder", async () => {
		await store('folderonly/other.txt', 'other');
		await store('folderonly/source.txt', 'moved by its folder');
		emulator().setFaults([
			{
				operation: 'list',
				rewrite: { contents: { name: 'source.txt', type: 'folder', path: '', children: [] } },
				nth: [1],
			},
		]);
		const result = await runViaProxy('move', 'folderonly/source.txt', {
			destinationKey: 'folderonly/moved.txt',
			options: { replace: true },
		});
		expect(result.error).toBeUndefined();
		expect(await read('folderonly/moved.txt')).toBe('moved by its folder');
		const prefixes = proxy()
			.exchanges.filter((exchange) => exchange.operation === 'list')
			.map((exchange) => new URL(exchange.target, 'http://x').searchParams.get('prefix'));
		expect(prefixes.slice(0, 2)).toEqual(['folderonly/source.txt', 'folderonly/']);
	});
});

describe('Move deletes only the version it copied', () => {
	it('a source replaced while it is copied is not deleted: the error says so and both versions exist', async () => {
		await store('during/source.txt', 'first version', 'private');
		// The copy's upload answer is held back while a newer version of the source is stored.
		proxy().setRules({ holdAnswer: { upload: 1500 } });
		const moving = runViaProxy('move', 'during/source.txt', { destinationKey: 'during/moved.txt' });
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'upload'), 10_000)).toBe(true);
		await store('during/source.txt', 'the second, longer version', 'private');
		const result = await moving;
		expect(result.error?.message).toMatch(
			/^Move: the source 'during\/source\.txt' .* was replaced while it was copied/,
		);
		expect(result.error?.description).toMatch(/^Both files exist now/);
		expect(await read('during/source.txt')).toBe('the second, longer version');
		expect(await read('during/moved.txt')).toBe('first version');
	});
});

describe('Move says what is true of a source that is gone', () => {
	it('two items of one version-3 run moving the same source: neither says both files exist', async () => {
		await store('twice/source.txt', 'once', 'private');
		const result = await runViaProxy(
			'move',
			'twice/source.txt',
			{ destinationKey: '={{ $json.to }}', options: { parallelRequests: 4 } },
			{
				typeVersion: 3,
				continueOnFail: true,
				items: [{ json: { to: 'twice/one.txt' } }, { json: { to: 'twice/two.txt' } }],
			},
		);
		const outputs = result.items.map((item) => item.json);
		expect(outputs.filter((json) => json.sourceDeleted === true)).toHaveLength(1);
		const failed = outputs.find((json) => json.error !== undefined);
		expect(String(failed?.error)).not.toMatch(/Both files exist/);
		expect(`${String(failed?.error)} ${String(failed?.description ?? '')}`).toMatch(
			/source 'twice\/source\.txt' .*(is gone|no longer there)|There is no source to move/,
		);
		expect(await read('twice/source.txt')).toBeUndefined();
	});

	it('a Move re-run whose source is already gone says so, not that the source was not deleted', async () => {
		await store('rerun/source.txt', 'moved once', 'private');
		expect((await run('move', 'rerun/source.txt', { destinationKey: 'rerun/done.txt' })).error).toBeUndefined();
		const again = await run('move', 'rerun/source.txt', { destinationKey: 'rerun/done.txt' });
		expect(again.error?.message).toMatch(/was not found/);
		expect(again.error?.description).not.toMatch(/was not deleted/);
		expect(again.error?.description).toMatch(/There is no source to move/);
	});

	it('a source deleted between its link and its read: Move says there is no source to move', async () => {
		await store('vanish/source.txt', 'here for a moment', 'private');
		// The source's link is handed out, but its answer is held back while the source is deleted.
		proxy().setRules({ holdAnswer: { signedUrl: 1000 } });
		const moving = runViaProxy('move', 'vanish/source.txt', {
			destinationKey: 'vanish/moved.txt',
			options: { replace: true },
		});
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'signedUrl'), 10_000)).toBe(true);
		expect((await run('delete', 'vanish/source.txt')).error).toBeUndefined();
		const result = await moving;
		expect(result.error?.message).toMatch(/^The file 'vanish\/source\.txt' was not found/);
		expect(result.error?.description).toMatch(/^It was deleted \(or moved\) while it was being read\./);
		expect(result.error?.description).toMatch(/There is no source to move/);
		expect(await read('vanish/moved.txt')).toBeUndefined();
	});

	it("Move's output has no internal field doneByEarlierAttempt", async () => {
		await store('output/source.txt', 'out', 'private');
		const result = await run('move', 'output/source.txt', { destinationKey: 'output/done.txt' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).not.toHaveProperty('doneByEarlierAttempt');
		expect(result.items[0].json).toMatchObject({ sourceDeleted: true });
	});
});
