/**
 * Folder → Move into a destination folder whose first segment has the shape of a CDN transformation
 * (`tr-w_200/<source folder>/`, spec §3.11). The copy's link, `{cdn}/f/{id}/tr-w_200/<source key>`, is
 * read by a CDN as "the source, 200 pixels wide" (the emulator serves the original bytes): every read of
 * the destination answers the source's own bytes, so neither the read-back of the copy nor the comparison
 * of a destination already there tells the destination's bytes. A Move must not delete its source on it.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, runFileStorage, sha256, useEmulator, whereIs as whereBytesAre } from './support';

const emulator = useEmulator();
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (call: HookCall) => call.query.get('key');
const OPTIONS = { visibility: 'public', contentType: 'text/plain', writer: 'setup' } as const;

const mine = 'AAAA the only copy';
const theirs = 'BBBB other writer!'; // the same size

async function move(from: string, to: string, parameters: INodeParameters = {}) {
	return await runFileStorage(
		emulator(),
		{ resource: 'folder', operation: 'move', folder: path(from), destinationFolder: path(to), ...parameters },
		{ continueOnFail: true },
	);
}

const whereIs = async (text: string, source: string, destination: string) =>
	await whereBytesAre(emulator(), text, source, destination);

beforeEach(() => emulator().adversary.setHooks(undefined));

describe("Folder → Move into tr-w_200/<source folder>/ (public files): the copy's link reads the source", () => {
	it('a copy replaced at the same size by another writer between its upload and its check: the source keeps its bytes', async () => {
		const source = 'swap/report.txt';
		const destination = 'tr-w_200/swap/report.txt';
		await emulator().adversary.put(HERE, source, Buffer.from(mine), OPTIONS);
		await sleep(5000);
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call) => {
				if (call.op === 'upload' && keyOf(call) === destination && !struck) {
					struck = true;
					await emulator().adversary.put(HERE, destination, Buffer.from(theirs), { ...OPTIONS, writer: 'other' });
				}
			},
		});
		const result = await move('swap/', 'tr-w_200/swap/');
		// Whether a copy is written at all (and so replaced) is not the promise: refused before any request, none is.
		expect(await whereIs(mine, source, destination)).not.toBe('lost');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);

	it("a destination already there with other bytes of the same size is never taken for the source's copy", async () => {
		const source = 'there/report.txt';
		const destination = 'tr-w_200/there/report.txt';
		// Both stored in one second (the listing dates to the second), as a writer copying a folder would.
		while (Date.now() % 1000 > 500) await sleep(20);
		await emulator().adversary.put(HERE, source, Buffer.from(mine), OPTIONS);
		await emulator().adversary.put(HERE, destination, Buffer.from(theirs), { ...OPTIONS, writer: 'other' });
		await sleep(5000);
		const result = await move('there/', 'tr-w_200/there/');
		expect(await whereIs(mine, source, destination)).not.toBe('lost');
		expect(result.items.map((item) => item.json.status)).not.toContain('moved');
	}, 60_000);
});

describe("Folder → Copy into tr-w_200/<source folder>/ (public files): the destination's link reads the source", () => {
	it('a destination already there with other bytes of the same size is not skipped as copied before', async () => {
		const source = 'copy-there/report.txt';
		const destination = 'tr-w_200/copy-there/report.txt';
		while (Date.now() % 1000 > 500) await sleep(20);
		await emulator().adversary.put(HERE, source, Buffer.from(mine), OPTIONS);
		await emulator().adversary.put(HERE, destination, Buffer.from(theirs), { ...OPTIONS, writer: 'other' });
		await sleep(5000);
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'folder',
				operation: 'copy',
				folder: path('copy-there/'),
				destinationFolder: path('tr-w_200/copy-there/'),
			},
			{ continueOnFail: true },
		);
		expect(sha256((await read(destination))!.body)).toBe(sha256(Buffer.from(theirs)));
		// The destination does not hold the source's bytes: "skipped" (the same bytes, copied before) is not true.
		expect(result.items.map((item) => item.json.status)).not.toContain('skipped');
	}, 60_000);
});
