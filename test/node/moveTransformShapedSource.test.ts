/**
 * A source whose first folder has a transformation's shape (`tr-w_300/dog.bin`): its link
 * (`{cdn}/f/{id}/tr-w_300/dog.bin`) is where spec §3.11 puts a transformation of `dog.bin`, and
 * the emulator's CDN serves `dog.bin` for it. When `dog.bin` has the source's size and was
 * written in the source's second, nothing the CDN sends tells the two apart (size, Last-Modified
 * second), so no read of that link proves the source's bytes. A Move must not delete the source
 * on it: the only copy of its bytes would be gone (docs/reliability.md, "Destructive steps act on
 * proof": when it cannot tell two versions apart, keep the file and say why).
 */
import { randomFile, runFileStorage, useEmulator, HERE, byKey } from './support';
import { storeInOneSecond } from './transformShaped';

const emulator = useEmulator();

const stored = async (key: string) => (await emulator().readObject(HERE.name, HERE.region, key))?.body;

it('Move of a tr-… source keeps the source when another file of its size and second answers its link', async () => {
	const own = randomFile(1500);
	const other = randomFile(1500);
	await storeInOneSecond(emulator(), [
		['dog.bin', other],
		['tr-w_300/dog.bin', own],
	]);
	// Past the listed second and the clocks' margin: the Move reads at once.
	await new Promise((resolve) => setTimeout(resolve, 5500));
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey('tr-w_300/dog.bin'),
		destinationKey: 'moved/dog.bin',
	});
	// The source's own bytes must still be somewhere: at the source, or at the destination.
	const kept = [await stored('tr-w_300/dog.bin'), await stored('moved/dog.bin')];
	expect(kept.some((bytes) => bytes?.equals(own))).toBe(true);
	expect(result.error).toBeDefined();
}, 60_000);
