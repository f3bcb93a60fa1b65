/**
 * One Move of a settled source for the suites whose other writer acts between the copy and the source's delete
 * (folderMoveDestinationRewrittenOtherType, moveDestinationListedTwiceOtherVisibility,
 * moveDestinationListedAcrossPages): the source `AAAA` (private, text/plain) is stored, its listed second left
 * behind, the writer's hooks armed, then File → Move or Folder → Move runs. What each file holds after is returned.
 */
import type { Emulator } from '../emulator';
import { BUCKET, HERE, byKey, runFileStorage } from './support';

const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** File → Move of `source` to `destination`; or Folder → Move of their folders, given as `folders`. */
export interface SettledMove {
	source: string;
	destination: string;
	typeVersion: number;
	folders?: { from: string; to: string };
}

export async function moveOfSettledSource(emulator: Emulator, move: SettledMove, armWriter: () => void) {
	const { source, destination, folders } = move;
	await emulator.adversary.put(HERE, source, Buffer.from('AAAA'), {
		visibility: 'private',
		contentType: 'text/plain',
		writer: 'setup',
	});
	// A just-written source is read once the listing's second is past (moveSource.ts).
	await sleep(5000);
	armWriter();
	const parameters = folders
		? { resource: 'folder', operation: 'move', folder: path(folders.from), destinationFolder: path(folders.to) }
		: { resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination };
	const result = await runFileStorage(emulator, parameters, { typeVersion: move.typeVersion, continueOnFail: true });
	const text = async (key: string) =>
		(await emulator.readObject(BUCKET.bucketName, BUCKET.region, key))?.body.toString();
	return { result, stored: { source: await text(source), destination: await text(destination) } };
}
