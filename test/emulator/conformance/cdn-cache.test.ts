/** Spec §3.9: the optional CDN cache (cdnCacheSeconds) keeps public answers until expiry or purge. */
import { startEmulator, type Running } from './setup';

let cached: Running;
let plain: Running;
let clock = Date.parse('2031-03-04T05:06:07.089Z');
beforeAll(async () => {
	cached = await startEmulator({ cdnCacheSeconds: 30, now: () => clock });
	plain = await startEmulator({ now: () => clock });
});
afterAll(async () => {
	await cached.emu.stop();
	await plain.emu.stop();
});

const at = (r: Running, key: string) => `${r.emu.cdnUrl}/f/${r.emu.accessId}/${key}`;
const text = async (r: Running, key: string, method = 'GET') => {
	const res = await fetch(at(r, key), { method });
	return { status: res.status, body: await res.text(), headers: res.headers };
};

test('off by default: a replaced public file is served new at once', async () => {
	await plain.api.upload('c/a.txt', Buffer.from('one'), { visibility: 'public' });
	expect((await text(plain, 'c/a.txt')).body).toBe('one');
	await plain.api.upload('c/a.txt', Buffer.from('two'), { visibility: 'public' });
	expect((await text(plain, 'c/a.txt')).body).toBe('two');
});

test('a public answer is kept (HEAD too) through a replace and a delete, until purged or expired', async () => {
	await cached.api.upload('c/b.txt', Buffer.from('first'), { visibility: 'public' });
	const head = await text(cached, 'c/b.txt', 'HEAD');
	expect(head.headers.get('x-cache')).toBe('MISS');
	await cached.api.upload('c/b.txt', Buffer.from('second!'), { visibility: 'public' });
	const hit = await text(cached, 'c/b.txt');
	expect([hit.body, hit.headers.get('x-cache'), hit.headers.get('content-length')]).toEqual(['first', 'HIT', '5']);
	expect((await cached.api.purge('c/b.txt')).status).toBe(200);
	expect((await text(cached, 'c/b.txt')).body).toBe('second!');
	await cached.api.delete('c/b.txt');
	expect((await text(cached, 'c/b.txt')).body).toBe('second!');
	clock += 31_000;
	expect((await text(cached, 'c/b.txt')).status).toBe(404);
});

test('a private file is never cached', async () => {
	await cached.api.upload('c/p.txt', Buffer.from('private one'), { visibility: 'private' });
	const link = async () =>
		(
			await cached.api.send(
				'GET',
				`/api/v1/files/signed-url?bucket_name=${cached.emu.buckets[0].name}&region=${cached.emu.buckets[0].region}&key=c%2Fp.txt`,
			)
		).json as { data: { url: string } };
	expect(await (await fetch((await link()).data.url)).text()).toBe('private one');
	await cached.api.upload('c/p.txt', Buffer.from('private two'), { visibility: 'private' });
	expect(await (await fetch((await link()).data.url)).text()).toBe('private two');
});
