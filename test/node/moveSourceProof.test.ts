/**
 * Move deletes its source only when the bytes it copied are shown to be the version the service
 * stores (docs/reliability.md, "Destructive steps act on proof"). A CDN that kept an earlier
 * version of the same size, and marks its answer as kept (Age, X-Cache), is never taken for the
 * stored version, whatever its Last-Modified says; a proxy's page is never the API's answer.
 */
import { runNode } from '../harness';
import { useFakeCdn } from './fakeCdn';
import { useProxy, viaProxy } from './proxy';
import { BUCKET, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const proxy = useProxy(emulator);
const cdn = useFakeCdn();

const byKey = (value: string) => ({ __rl: true, mode: 'key', value });
const read = async (key: string) => await storedText(emulator(), key);

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
	];
	for (const [marks, headers] of cases) {
		it(`an answer a cache marks as kept (${marks}) is never proof: the source stays`, async () => {
			const key = `rewrite/${Object.keys(headers).join('-')}-${String(headers['X-Cache'])}.txt`;
			const lastModified = await storeDated(key, newer);
			cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, ...headers }, body: older });
			const result = await moveThroughCdn(key);
			expect([await read(key), await read(`${key}.moved`)]).toContain(newer);
			expect(result.error?.description).toMatch(/Nothing was copied or deleted\./);
			expect(await read(key)).toBe(newer);
		});
	}

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
