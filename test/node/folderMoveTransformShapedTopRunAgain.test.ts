/**
 * Folder → Move into the top of the bucket when one sub-folder of the source has the shape of a CDN
 * transformation (`tr-…`): that file's key at the top would be read by the CDN as a transformation, so it
 * is refused (and stays). The promise of a folder run is that a run again finishes the job ("run the node
 * again to finish: a file already done is not done twice"): the other files, those listed after the
 * refused one included, must be moved by running it again, the refused one left where it is.
 */
import { BUCKET, HERE, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('Folder → Move to the top of the bucket, a transformation-shaped sub-folder among the files', () => {
	it.each([2, 3])(
		'version %s: running it again moves every other file (those listed after the refused one too); the refused one stays',
		async (typeVersion) => {
			const from = `top-v${typeVersion}/`;
			const later = Array.from({ length: 12 }, (_, i) => `zz-v${typeVersion}/f${String(i).padStart(2, '0')}.txt`);
			const refused = `tr-w_200/cat-v${typeVersion}.txt`;
			for (const rest of [`a-v${typeVersion}.txt`, refused, ...later]) {
				await emulator().adversary.put(HERE, `${from}${rest}`, Buffer.from(`bytes of ${rest}`), {
					visibility: 'private',
					contentType: 'text/plain',
					writer: 'setup',
				});
			}
			await sleep(5000);
			const move = async () =>
				await runFileStorage(
					emulator(),
					{ resource: 'folder', operation: 'move', folder: path(from), destinationFolder: path('/') },
					{ typeVersion },
				);
			const runs = [await move(), await move(), await move()];
			// The refused file stays in the source, and nothing is written at its transformation-shaped key.
			expect(await read(`${from}${refused}`)).toBeDefined();
			expect(await read(refused)).toBeUndefined();
			const notMoved: string[] = [];
			for (const rest of [`a-v${typeVersion}.txt`, ...later]) {
				if (!(await read(rest)) || (await read(`${from}${rest}`))) notMoved.push(rest);
			}
			expect({ notMoved, errors: runs.map((run) => run.error?.message ?? null) }).toEqual({
				notMoved: [],
				errors: runs.map((run) => run.error?.message ?? null),
			});
		},
		120_000,
	);
});
