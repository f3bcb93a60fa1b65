/**
 * Folder → Copy and Folder → Move keep a file's content type whole, its parameters too (a charset says how the
 * bytes read as text): the copy gets the source's type (docs/operations.md: Content Type, default "the source's"),
 * and a destination already there with the same bytes but another charset is not what a copy would make, so it is
 * not taken for one (not `skipped`, and a Move does not delete its source on it). Through n8n-core's engine over
 * real HTTP to the emulator.
 */
import { apiFor, put } from '../trigger/support';
import { BUCKET, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const LATIN1 = 'text/csv; charset=iso-8859-1';

async function transfer(operation: 'copy' | 'move', from: string, to: string) {
	return await runFileStorage(
		emulator(),
		{ resource: 'folder', operation, folder: path(from), destinationFolder: path(to) },
		{ continueOnFail: true },
	);
}

describe('Folder → Copy and Move: the content type with its charset', () => {
	it.each(['copy', 'move'] as const)(
		'%s: the copy is stored with the source content type whole, charset included',
		async (operation) => {
			const bytes = Buffer.from('caf\xe9;cr\xe8me\n', 'latin1');
			await put(api(), `charset-${operation}/prices.csv`, bytes, { contentType: LATIN1, visibility: 'private' });
			const result = await transfer(operation, `charset-${operation}/`, `charset-${operation}-done/`);
			expect(result.items.map((item) => item.json.status)).toEqual([operation === 'copy' ? 'copied' : 'moved']);
			const copy = await read(`charset-${operation}-done/prices.csv`);
			expect(copy?.body).toEqual(bytes);
			expect(copy?.contentType).toBe(LATIN1);
		},
		60_000,
	);

	it.each(['copy', 'move'] as const)(
		'%s run again: a destination with the same bytes but another charset is not taken for the copy, the source stays',
		async (operation) => {
			const bytes = Buffer.from('caf\xe9;cr\xe8me\n', 'latin1');
			await put(api(), `again-${operation}/prices.csv`, bytes, { contentType: LATIN1, visibility: 'private' });
			await put(api(), `again-${operation}-done/prices.csv`, bytes, {
				contentType: 'text/csv; charset=utf-8',
				visibility: 'private',
			});
			const result = await transfer(operation, `again-${operation}/`, `again-${operation}-done/`);
			const status = result.items[0]?.json.status;
			expect(status).not.toBe('skipped');
			expect(status).not.toBe('moved');
			expect((await read(`again-${operation}/prices.csv`))?.contentType).toBe(LATIN1);
			expect((await read(`again-${operation}-done/prices.csv`))?.contentType).toBe('text/csv; charset=utf-8');
		},
		60_000,
	);
});
