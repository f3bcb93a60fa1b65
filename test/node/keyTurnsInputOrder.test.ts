/**
 * A rotation in one run of node version 3: item 0 moves (or copies) the current file away
 * (reports/2024.pdf → archive/2024.pdf), item 1 moves (or copies) the new one into its place
 * (reports/new.pdf → reports/2024.pdf), Replace Existing File on. Items run in parallel but take turns on the keys they share; the item
 * before in the input must see the key first (docs/reliability.md: "each seeing what the one before
 * did"), as version 2 does one by one. Otherwise item 1 writes over reports/2024.pdf before item 0
 * has moved it away, and the current report's bytes are lost.
 */
import { putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

/**
 * The rotation with `operation`: returns what the archive, the current key and the incoming key hold after it.
 * A Move waits past the listed second plus the margin first, so it reads its source at once.
 */
async function rotate(operation: 'copy' | 'move', typeVersion: number): Promise<Array<string | undefined>> {
	const prefix = `rotation-${operation}-v${typeVersion}`;
	const current = `${prefix}/reports/2024.pdf`;
	const incoming = `${prefix}/reports/new.pdf`;
	const archived = `${prefix}/archive/2024.pdf`;
	await putText(emulator(), current, 'the current report', 'setup');
	await putText(emulator(), incoming, 'the new report', 'setup');
	if (operation === 'move') await new Promise((resolve) => setTimeout(resolve, 4100));
	const result = await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation,
			fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
			destinationKey: '={{ $json.to }}',
			options: { replace: true },
		},
		{
			typeVersion,
			continueOnFail: true,
			items: [{ json: { from: current, to: archived } }, { json: { from: incoming, to: current } }],
		},
	);
	expect(result.items.map((item) => item.json.error)).toEqual([undefined, undefined]);
	return [await read(archived), await read(current), await read(incoming)];
}

describe('Copy and Move items of one run sharing a key take turns in input order', () => {
	it.each([2, 3])(
		'moving a file away and another into its place (version %i, Replace on) loses neither file',
		async (typeVersion) => {
			// The current report is archived, the new one in its place: nothing lost.
			expect(await rotate('move', typeVersion)).toEqual(['the current report', 'the new report', undefined]);
		},
		60_000,
	);

	it.each([2, 3])(
		'copying a file to the archive and another over it (version %i, Replace on) archives the file that was there',
		async (typeVersion) => {
			expect(await rotate('copy', typeVersion)).toEqual(['the current report', 'the new report', 'the new report']);
		},
		60_000,
	);
});
