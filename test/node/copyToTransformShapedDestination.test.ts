/**
 * File and Folder → Copy and Move to a destination whose first folder has the shape of a CDN
 * transformation (`tr-…`, `thumb-…`, spec §3.11): the CDN reads the copy's link as "another file,
 * transformed", so no read there could show what the destination holds. Such a destination is
 * refused before any request, whatever the bucket, and every file stays as it was.
 */
import type { INodeParameters } from 'n8n-workflow';

import { HERE, byKey, sha256, useEmulator } from './support';
import { runCounted as runCountedIn } from './transformShaped';

const OTHER = { name: 'other-bucket', region: 'eu-west-1' };
const emulator = useEmulator({ buckets: [HERE, OTHER] });
const read = async (key: string, bucket = HERE) => await emulator().readObject(bucket.name, bucket.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const OPTIONS = { visibility: 'public', contentType: 'text/plain', writer: 'setup' } as const;

const mine = Buffer.from('AAAA the only copy');
const theirs = Buffer.from('BBBB other writer!'); // the same size

const runCounted = async (parameters: INodeParameters) => await runCountedIn(emulator(), parameters);

const hash = async (key: string, bucket = HERE) => {
	const stored = await read(key, bucket);
	return stored && sha256(stored.body);
};

beforeEach(() => emulator().adversary.setHooks(undefined));

describe('File → Copy and Move to a key whose first folder the CDN reads as a transformation', () => {
	it.each([
		['move', 'tr-w_200', false],
		['move', 'thumb-w_300,h_200', true],
		['copy', 'tr-w_200', false],
		['copy', 'thumb-w_300,h_200', true],
	] as const)(
		'%s to %s/<source key> (a file already there: %s) is refused before any request; both files stay',
		async (operation, folder, taken) => {
			const source = `single-${operation}-${taken}/report.txt`;
			const destination = `${folder}/${source}`;
			await emulator().adversary.put(HERE, source, mine, OPTIONS);
			if (taken) await emulator().adversary.put(HERE, destination, theirs, { ...OPTIONS, writer: 'other' });
			await sleep(taken ? 5000 : 0);
			const { result, calls } = await runCounted({
				resource: 'file',
				operation,
				fileKey: byKey(source),
				destinationKey: destination,
				options: { replace: true },
			});
			expect(calls).toEqual([]);
			const error = String(result.items[0]?.json.error);
			expect(error).toContain(`the destination '${destination}' (parameter 'Destination Path')`);
			expect(error).toContain(`"${folder}", which the CDN reads as a transformation`);
			expect(await hash(source)).toBe(sha256(mine));
			expect(await hash(destination)).toBe(taken ? sha256(theirs) : undefined);
		},
		30_000,
	);
});

describe('Folder → Move into another bucket, to tr-w_200/<the source folder>/', () => {
	it('the path-prefix overlap check passes it, the transformation-shaped destination is refused before any request', async () => {
		const source = 'across/report.txt';
		await emulator().adversary.put(HERE, source, mine, OPTIONS);
		const { result, calls } = await runCounted({
			resource: 'folder',
			operation: 'move',
			folder: path('across/'),
			destinationFolder: path('tr-w_200/across/'),
			options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
		});
		expect(calls).toEqual([]);
		expect(result.items).toHaveLength(1);
		expect(String(result.items[0].json.error)).toContain(
			"the destination 'tr-w_200/across/' (parameter 'Destination Folder') starts with the folder \"tr-w_200\"",
		);
		expect(await hash(source)).toBe(sha256(mine));
		expect(await hash(`tr-w_200/${source}`, OTHER)).toBeUndefined();
	}, 30_000);
});

describe('Folder → Copy and Move to the top of the bucket, a subfolder becoming a transformation-shaped first folder', () => {
	it.each(['copy', 'move'] as const)(
		'%s: that file is refused (nothing written at its destination, its source kept), the others go',
		async (operation) => {
			const top = `top-${operation}`;
			await emulator().adversary.put(HERE, `${top}/tr-w_200/deep-${operation}.txt`, mine, OPTIONS);
			await emulator().adversary.put(HERE, `${top}/plain-${operation}.txt`, mine, OPTIONS);
			await sleep(5000);
			const { result } = await runCounted({
				resource: 'folder',
				operation,
				folder: path(`${top}/`),
				destinationFolder: path('/'),
			});
			const byDestination = new Map(result.items.map((item) => [item.json.key, item.json]));
			const refused = byDestination.get(`tr-w_200/deep-${operation}.txt`);
			// Decided from the key alone: the file's status (the run goes on), its reason naming the field to change.
			expect(refused?.status).toBe('refused');
			expect(String(refused?.reason)).toContain("(parameter 'Destination Folder')");
			expect(await hash(`tr-w_200/deep-${operation}.txt`)).toBeUndefined();
			expect(await hash(`${top}/tr-w_200/deep-${operation}.txt`)).toBe(sha256(mine));
			expect(byDestination.get(`plain-${operation}.txt`)?.status).toBe(operation === 'copy' ? 'copied' : 'moved');
			expect(await hash(`plain-${operation}.txt`)).toBe(sha256(mine));
		},
		60_000,
	);
});
