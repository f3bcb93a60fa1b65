/**
 * Folder → Copy and Move, a file whose keys alone rule its copy out (nothing read, nothing written):
 * a destination the CDN reads as a transformation (`tr-…` at the top of the bucket), a destination key
 * over the service's 1,024 bytes, a source with a '.' segment. Such a file is `refused`, with a reason
 * naming why and what to do; its source stays, the run goes on and every other file is copied or moved,
 * without Continue On Fail and with one file at a time (version 2). Dry Run lists it the same way.
 */
import type { IDataObject } from 'n8n-workflow';

import { BUCKET, HERE, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

async function store(keys: string[]) {
	for (const key of keys) {
		await emulator().adversary.put(HERE, key, Buffer.from(`bytes of ${key}`), {
			visibility: 'private',
			contentType: 'text/plain',
			writer: 'setup',
		});
	}
	// A source is read only once its listed second and the clock margin are behind it (settledAfter, proof.ts).
	await sleep(5000);
}

async function folder(operation: 'copy' | 'move', from: string, to: string, more: IDataObject = {}) {
	const parameters = { resource: 'folder', operation, folder: path(from), destinationFolder: path(to), ...more };
	return await runFileStorage(emulator(), { ...parameters, options: { summary: true } }, { typeVersion: 2 });
}

function bySource(items: Array<{ json: IDataObject }>) {
	return new Map(items.map((item) => [(item.json.source as { key?: string } | undefined)?.key, item.json]));
}

describe('Folder → Move to the top of the bucket, one file becoming a tr-… key', () => {
	it('the run succeeds: that file is refused (its reason names the field and the fix), the files after it are moved', async () => {
		const files = ['tm/a.txt', 'tm/tr-w_200/cat.txt', 'tm/zz/b.txt', 'tm/zz/c.txt'];
		await store(files);
		const result = await folder('move', 'tm/', '/');
		expect(result.error?.message).toBeUndefined();
		const json = bySource(result.items);
		expect(json.get('tm/tr-w_200/cat.txt')).toMatchObject({ status: 'refused', key: 'tr-w_200/cat.txt' });
		const reason = String(json.get('tm/tr-w_200/cat.txt')?.reason);
		expect(reason).toContain("(parameter 'Destination Folder')");
		expect(reason).toContain('Nothing was copied or deleted');
		expect(reason).toContain("Choose a Destination Folder whose first folder does not start with 'tr-'");
		expect(await read('tm/tr-w_200/cat.txt')).toBeDefined();
		expect(await read('tr-w_200/cat.txt')).toBeUndefined();
		for (const key of ['tm/a.txt', 'tm/zz/b.txt', 'tm/zz/c.txt']) {
			expect(json.get(key)?.status).toBe('moved');
			expect(await read(key.slice('tm/'.length))).toBeDefined();
			expect(await read(key)).toBeUndefined();
		}
		expect(result.items.at(-1)?.json).toMatchObject({ summary: true, files: 4, moved: 3, refused: 1 });
	}, 60_000);

	it('Dry Run lists that file as refused and the others as they would go, changing nothing', async () => {
		const files = ['td/dry-a.txt', 'td/thumb-x/cat.txt', 'td/dry-z.txt'];
		await store(files);
		const result = await folder('move', 'td/', '/', { dryRun: true });
		expect(result.error?.message).toBeUndefined();
		const json = bySource(result.items);
		expect(files.map((key) => json.get(key)?.status)).toEqual(['wouldMove', 'refused', 'wouldMove']);
		expect(String(json.get('td/thumb-x/cat.txt')?.reason)).toContain(
			'"thumb-x", which the CDN reads as a transformation',
		);
		expect(result.items.at(-1)?.json).toMatchObject({ summary: true, dryRun: true, wouldMove: 2, refused: 1 });
		for (const key of files) expect(await read(key)).toBeDefined();
		expect(await read('dry-a.txt')).toBeUndefined();
	}, 60_000);
});

describe('Folder → Move, a destination key over 1,024 bytes', () => {
	it('that file is refused naming the limit and a shorter Destination Folder, its source kept; the others are moved', async () => {
		const long = `kl/${'b'.repeat(900)}.txt`;
		await store(['kl/a.txt', long, 'kl/z.txt']);
		const to = `${'d'.repeat(200)}/`;
		const result = await folder('move', 'kl/', to);
		expect(result.error?.message).toBeUndefined();
		const json = bySource(result.items);
		expect(json.get(long)?.status).toBe('refused');
		expect(String(json.get(long)?.reason)).toMatch(/the limit is 1024 bytes.*Pick a shorter Destination Folder/);
		expect(await read(long)).toBeDefined();
		for (const name of ['a.txt', 'z.txt']) {
			expect(json.get(`kl/${name}`)?.status).toBe('moved');
			expect(await read(`${to}${name}`)).toBeDefined();
		}
		expect(result.items.at(-1)?.json).toMatchObject({ moved: 2, refused: 1 });
	}, 60_000);
});

describe("Folder → Copy, a source with a '.' segment", () => {
	it("that file is refused naming the '.' segment, the others are copied; nothing is written for it", async () => {
		await store(['kd/a.txt', 'kd/./x.txt', 'kd/z.txt']);
		const result = await folder('copy', 'kd/', 'kd-to/');
		expect(result.error?.message).toBeUndefined();
		const json = bySource(result.items);
		expect(json.get('kd/./x.txt')?.status).toBe('refused');
		expect(String(json.get('kd/./x.txt')?.reason)).toContain("the source 'kd/./x.txt' has a '.' segment");
		expect(await read('kd-to/./x.txt')).toBeUndefined();
		expect([json.get('kd/a.txt')?.status, json.get('kd/z.txt')?.status]).toEqual(['copied', 'copied']);
	}, 60_000);
});

describe('File → Copy and Move keep failing on a key-only refusal', () => {
	it('File → Move to a tr-… key fails the node naming Destination Path; the source stays', async () => {
		await store(['fm/cat.txt']);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'move',
			fileKey: { __rl: true, mode: 'key', value: 'fm/cat.txt' },
			destinationKey: 'tr-w_200/cat.txt',
		});
		expect(result.error?.message).toContain(
			"the destination 'tr-w_200/cat.txt' (parameter 'Destination Path') starts with the folder \"tr-w_200\"",
		);
		expect(await read('fm/cat.txt')).toBeDefined();
	}, 30_000);
});
