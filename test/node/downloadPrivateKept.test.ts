/**
 * File → Download promises the version the service stores (docs/reliability.md, "A download is the
 * version the service stores"). A private file is read through a fresh signed link, which the node
 * takes as never cached. A CDN that keys its cache by path (query strings ignored, the signature
 * checked at the edge) can still answer such a link from what it kept, and it says so (X-Cache: HIT,
 * an Age). An answer a cache marks as kept is never taken as the stored version for Copy and Move,
 * whatever the source's visibility; Download must not keep it either. Through n8n-core's engine
 * over real HTTP to the emulator, whose CDN answers from a hook.
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, put } from '../trigger/support';
import { downloadByKey, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 60 });

afterEach(() => emulator().adversary.setHooks(undefined));

describe('File → Download of a private file replaced by one of the same size', () => {
	it('a signed link a cache answers with the version it kept (X-Cache: HIT, Age: 30) is not given as the file', async () => {
		const key = 'dl-private-kept/report.txt';
		await put(apiFor(emulator()), key, 'version-1', { visibility: 'private' });
		await nextSecond();
		await put(apiFor(emulator()), key, 'version-2', { visibility: 'private' });
		emulator().adversary.setHooks({
			before: async (call: HookCall) =>
				await Promise.resolve(
					call.op === 'cdn'
						? { status: 200, headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' }, body: 'version-1' }
						: undefined,
				),
		});
		const result = await downloadByKey(emulator(), key);
		const given = result.items[0] ? (await result.readBinary(result.items[0])).toString() : undefined;
		// Either the stored version, or no file and an error saying why: never the version the cache kept.
		expect({ given, failed: result.error !== undefined }).toEqual(
			given === 'version-2' ? { given, failed: false } : { given: undefined, failed: true },
		);
	});
});

describe('File → Download of a private file whose signed link a cache answers until it is purged', () => {
	it('purges the cache, reads the file again and gives the stored version, judged against its record', async () => {
		const key = 'dl-private-purged/report.txt';
		await put(apiFor(emulator()), key, 'version-1', { visibility: 'private' });
		await nextSecond();
		await put(apiFor(emulator()), key, 'version-2', { visibility: 'private' });
		const requests = new Map<string, number>();
		let purged = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				requests.set(call.op, (requests.get(call.op) ?? 0) + 1);
				if (call.op === 'purge') purged = true;
				const kept = {
					status: 200,
					headers: { 'Content-Type': 'text/plain', Age: '30', 'X-Cache': 'HIT' },
					body: 'version-1',
				};
				return await Promise.resolve(call.op === 'cdn' && !purged ? kept : undefined);
			},
		});
		const result = await downloadByKey(emulator(), key);
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.items[0])).toString()).toBe('version-2');
		// Only a kept answer costs more: the purge, the record before the second read, and that read (the record
		// listed after the read is read for every download).
		expect(Object.fromEntries(requests)).toEqual({ signedUrl: 1, cdn: 2, purge: 1, list: 2 });
	});
});
