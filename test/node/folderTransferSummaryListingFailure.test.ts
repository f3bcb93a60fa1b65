/**
 * Folder → Copy and Move with Continue On Fail and Add Summary Item: when the listing fails half-way (a sub-folder's
 * page), the files under it are never handled, and the run's items say so with a `failed` item. The summary item,
 * "the number of files per status", must not read as a clean run then: its counts agree with the items (a `failed`
 * for the failed listing). Through n8n-core's engine over real HTTP to the emulator.
 */
import { apiFor, put } from '../trigger/support';
import { runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());
const path = (value: string) => ({ __rl: true, mode: 'path', value });

describe('Folder → Copy and Move: the summary item when the listing fails half-way', () => {
	it.each(['copy', 'move'] as const)(
		'%s: the summary counts the failed listing, as the items do',
		async (operation) => {
			const root = `summary-${operation}/`;
			await put(api(), `${root}top.txt`, 'top', { visibility: 'private' });
			await put(api(), `${root}sub/deep.txt`, 'deep', { visibility: 'private' });
			// Every listing answers but the sub-folder's: the service fails it (500), its retries too.
			emulator().adversary.setHooks({
				before: async (call) => {
					if (call.op !== 'list' || call.query.get('prefix') !== `${root}sub/`) return undefined;
					const body = JSON.stringify({ success: false, message: 'Internal server error' });
					return { status: 500, headers: { 'Content-Type': 'application/json' }, body };
				},
			});
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'folder',
					operation,
					folder: path(root),
					destinationFolder: path(`done-${operation}/`),
					options: { summary: true },
				},
				{ continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			const files = result.items.filter((item) => item.json.summary !== true);
			const summary = result.items.find((item) => item.json.summary === true)?.json;
			const failedItems = files.filter((item) => item.json.status === 'failed').length;
			// top.txt was handled; sub/deep.txt never was: the listing's failure is an item.
			expect(files.map((item) => item.json.status)).toEqual([operation === 'copy' ? 'copied' : 'moved', 'failed']);
			expect(failedItems).toBe(1);
			expect(summary?.failed ?? 0).toBe(failedItems);
			// The item and its error name the folder whose listing failed, not the top folder asked for.
			const failed = files[1].json;
			expect(failed.source).toMatch(new RegExp(`^\\(listing of '${root}sub/' in bucket`));
			expect(String(failed.error)).toMatch(new RegExp(`^List Contents of '${root}sub/' in 'my-bucket' \\(page 1\\)`));
		},
		60_000,
	);
});
