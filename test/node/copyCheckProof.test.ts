/**
 * The check of a copy deletes a faulty copy only when the file at the destination is shown to be
 * the one this item wrote (docs/reliability.md, "Destructive steps act on proof"). A file someone
 * else stored there is kept, whatever its size; an ETag a cache kept is no evidence at all.
 */
import { createHash } from 'node:crypto';

import { runNode } from '../harness';
import { useFakeCdn } from './fakeCdn';
import { eventually, useProxy, viaProxy } from './proxy';
import { BUCKET, byKey, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const proxy = useProxy(emulator);
const cdn = useFakeCdn();

const read = async (key: string) => await storedText(emulator(), key);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

beforeEach(() => emulator().setFaults([]));

describe('a file another writer stores at the destination while the copy is checked is kept', () => {
	it('of the same size, with an MD5 ETag of its own bytes: kept, the error says the copy could not be proven', async () => {
		const source = 'the source bytes';
		const theirs = 'their other file';
		expect(theirs.length).toBe(source.length);
		await uploadWithNode(emulator(), 'writer/source.txt', source, { visibility: 'private' });
		// The copy's HEAD (the second signed link) reaches a CDN that tells the truth: the ETag of what is stored.
		cdn().answer = () => ({
			headers: { ETag: `"${md5(theirs)}"`, 'Last-Modified': new Date().toUTCString() },
			body: theirs,
		});
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf('writer/target.txt') }, nth: [2] }]);
		proxy().setRules({ holdAnswer: { upload: 800 } });
		const copying = runNode({
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'copy',
				fileKey: byKey('writer/source.txt'),
				destinationKey: 'writer/target.txt',
				options: { replace: true },
			},
		});
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'upload'), 10_000)).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 200));
		await uploadWithNode(emulator(), 'writer/target.txt', theirs, { visibility: 'private' });
		const result = await copying;
		expect(await read('writer/target.txt')).toBe(theirs);
		expect(result.error?.message).toMatch(/is not the MD5 of the bytes sent/);
		expect(result.error?.description).toMatch(/kept/);
	});
});

describe('a short copy the service itself reports is named faulty, and kept', () => {
	it('the upload and the listing both say 4 of the 5 bytes sent: the error names the faulty copy; it is kept, as another writer’s file of 4 bytes would look the same', async () => {
		await uploadWithNode(emulator(), 'short/source.txt', 'five!', { visibility: 'private' });
		const listedShort = {
			contents: {
				name: 'short',
				type: 'folder',
				path: 'short/',
				children: [{ name: 'copy.txt', type: 'file', path: 'short/copy.txt', size: 4, last_modified: null }],
			},
		};
		emulator().setFaults([
			{ operation: 'upload', rewrite: { size: 4 }, nth: [1] },
			// The first listing is the source's record; every later one is the copy's.
			{ operation: 'list', rewrite: listedShort, nth: [2, 3, 4] },
		]);
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'copy',
			fileKey: byKey('short/source.txt'),
			destinationKey: 'short/copy.txt',
		});
		expect(result.error?.message).toMatch(
			/could not be checked: the service stored 4 bytes, but 5 were sent: the copy is faulty/,
		);
		expect(result.error?.description).toMatch(/^The file at the destination was kept/);
		expect(result.error?.description).toMatch(/delete it yourself/);
		expect(await read('short/copy.txt')).toBe('five!');
		expect(await read('short/source.txt')).toBe('five!');
		expect(emulator().stats().requests.delete ?? 0).toBe(0);
	});
});

describe('an ETag from an answer a cache kept is no evidence about the copy', () => {
	const cases: Array<[string, Record<string, string>]> = [
		['marked as kept (Age, X-Cache: HIT)', { Age: '120', 'X-Cache': 'HIT', 'Last-Modified': new Date().toUTCString() }],
		[
			'dated before the copy (Last-Modified 2 minutes older)',
			{ 'Last-Modified': new Date(Date.now() - 120_000).toUTCString() },
		],
	];
	cases.forEach(([kind, headers], index) => {
		it(`the ETag of an older version in an answer ${kind} never deletes the good copy: Copy succeeds, checked by size`, async () => {
			const target = `kept/target-${index}.txt`;
			await uploadWithNode(emulator(), target, 'old destination', { visibility: 'private' });
			await uploadWithNode(emulator(), 'kept/source.txt', 'new destination', { visibility: 'private' });
			cdn().answer = () => ({ headers: { ETag: `"${md5('old destination')}"`, ...headers }, body: 'old destination' });
			emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(target) }, nth: [2] }]);
			const result = await runFileStorage(emulator(), {
				resource: 'file',
				operation: 'copy',
				fileKey: byKey('kept/source.txt'),
				destinationKey: target,
				options: { replace: true },
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.checked).toEqual(['size']);
			expect(await read(target)).toBe('new destination');
		});
	});
});

describe('a destination written by someone else while the copy is checked', () => {
	it("the copy's check never deletes a file another writer stored at the destination", async () => {
		await uploadWithNode(emulator(), 'other/source.txt', 'the source bytes', { visibility: 'private' });
		// The copy's upload answer is held back while another workflow stores its own file there.
		proxy().setRules({ holdAnswer: { upload: 800 } });
		const copying = runNode({
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'copy',
				fileKey: { __rl: true, mode: 'key', value: 'other/source.txt' },
				destinationKey: 'other/target.txt',
				options: { replace: true },
			},
		});
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'upload'), 10_000)).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 200));
		await uploadWithNode(emulator(), 'other/target.txt', "another workflow's newer, longer file", {
			visibility: 'private',
		});
		await copying;
		expect(await read('other/target.txt')).toBe("another workflow's newer, longer file");
	});
});
