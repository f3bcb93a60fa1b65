import { transformShapedDestination } from '../../files/keys';
import type { Item } from '../../item';

/** The field that named a copy's destination: File → Copy and Move's, or Folder → Copy and Move's. */
export type DestinationField = 'Destination Path' | 'Destination Folder';

/**
 * Refuses, before any request, a copy's destination whose link the CDN reads as a transformation
 * (spec §3.11): `{cdn}/f/{id}/tr-w_200/a/x.txt` is "a/x.txt, 200 px wide", not the file at that key.
 * Every read of the copy there (the check's read-back, the comparison of a file already there)
 * would be answered by another file, so nothing read there shows what the destination holds, and a
 * Move would delete its source on that. `destination`: the key, or the folder every key goes below.
 * The one place this is decided, for File and Folder → Copy and Move.
 */
export function refuseTransformShapedDestination(
	item: Item,
	verb: 'Copy' | 'Move',
	field: DestinationField,
	destination: string,
): void {
	const folder = transformShapedDestination(destination);
	if (folder === undefined) return;
	const rest = destination.slice(folder.length + 1);
	throw item.fail(
		`${verb}: the destination '${destination}' (parameter '${field}') starts with the folder "${folder}", which the CDN reads as a transformation`,
		`The CDN reads a link whose first folder starts with 'tr-' or 'thumb-' as a transformation of another file ` +
			`(there: '${rest || '…'}' transformed by "${folder}"), so no read of the copy at the destination could show its bytes: ` +
			`the copy could not be checked. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. ` +
			`Choose a ${field} whose first folder does not start with 'tr-' or 'thumb-' (e.g. with a folder such as 'copies/' in front).`,
	);
}
