/**
 * "A write that may still land" (docs/reliability.md, "Writes to one key take turns within a run"):
 * a delete whose outcome is unknown (a gateway's 504; the service goes on) marks its key for the
 * rest of the run, and a later Folder → Delete item of a folder holding that key is refused, naming
 * the item, as File → Delete of the key is: it deletes nothing of the folder. Through n8n-core's
 * engine over real HTTP: a gateway answers the first DELETE of one file 504 at once and hands it to
 * the service once the run has ended.
 */
import { useLateWriteGateway } from './lateWriteGateway';
import { eventually } from './proxy';
import { credentialsFor, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

const state = { heldPath: '', held: 0, landed: 0 };
let release: () => void = () => undefined;
let released = Promise.resolve();

const gatewayUrl = useLateWriteGateway(emulator, {
	holds: (req) => {
		const first = req.method === 'DELETE' && state.held === 0;
		if (!first || !decodeURIComponent(req.url ?? '').includes(`key=${state.heldPath}`)) return false;
		state.held++;
		return true;
	},
	later: (handOn) => void released.then(handOn),
	onAnswer: ({ status, late }) => {
		if (late && status === 200) state.landed++;
	},
});

describe('Folder → Delete, two items of one run emptying one folder', () => {
	it.each([1, 2])(
		"a file's delete answered 504 by a gateway while the service still carries it out: the next item is refused, naming the item, and deletes nothing (version %i)",
		async (typeVersion) => {
			const folder = `late-delete-folder-v${typeVersion}/`;
			await putText(emulator(), `${folder}a.txt`, 'the file whose delete is held', 'setup');
			await putText(emulator(), `${folder}b.txt`, 'another file of the folder', 'setup');
			Object.assign(state, { heldPath: `${folder}a.txt`, held: 0, landed: 0 });
			released = new Promise<void>((resolve) => (release = resolve));
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'folder',
					operation: 'delete',
					folder: typeVersion === 1 ? folder : { __rl: true, mode: 'path', value: folder },
					options: { maxRetries: 0 },
				},
				{
					typeVersion,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gatewayUrl() }),
					items: [{ json: {} }, { json: {} }],
				},
			);
			release();
			await eventually(() => state.landed > 0, 10_000);
			expect(state.held).toBe(1);
			const second = result.items.filter((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 1);
			expect(second.map((item) => item.json.error)).toEqual([
				expect.stringContaining(`A write of item 0 of this run to '${folder}a.txt'`),
			]);
		},
		60_000,
	);
});
