import type { NodeOperationError } from 'n8n-workflow';

import { transformShapedDestination } from '../../files/keys';
import type { Item } from '../../item';

/** The field that named a copy's destination: File → Copy and Move's, or Folder → Copy and Move's. */
export type DestinationField = 'Destination Path' | 'Destination Folder';

/** The keys of one copy (or the folders of a whole Folder run), and what named them. */
export interface CopyLinks {
	verb: 'Copy' | 'Move';
	/** Destination Path: File → Copy and Move (the source is the File); Destination Folder: a Folder run. */
	field: DestinationField;
	/** The source's key, or (`level: 'folder'`) the source folder every key is below. */
	from: string;
	/** The destination's key, or (`level: 'folder'`) the folder every key goes below. */
	to: string;
	/** 'folder': a Folder run's two folders, judged before the listing; 'file': one copy. */
	level: 'file' | 'folder';
}

/**
 * Refuses, before any request, a copy either of whose links the CDN reads as a transformation
 * (spec §3.11): `{cdn}/f/{id}/tr-w_200/a/x.txt` is "a/x.txt, 200 px wide", not the file at that key.
 * Every read there is answered by another file: a source's read (its bytes, the comparison of a file
 * already at the destination) could be another file's bytes of the same size and second, so no copy
 * is tied to the source (a Move would delete it on that); a destination's (the check's read-back, the
 * comparison) shows nothing of what the destination holds. The one place this is decided, for File
 * and Folder → Copy and Move; a source first, as it is read first.
 */
export function refuseUnreadableLinks(item: Item, links: CopyLinks): void {
	const refusal = unreadableLinkRefusal(item, links);
	if (refusal) throw refusal;
}

/** The refusal of refuseUnreadableLinks, or none: a Folder run gives it as one file's status (see transfer.ts). */
export function unreadableLinkRefusal(item: Item, links: CopyLinks): NodeOperationError | undefined {
	return sourceRefusal(item, links) ?? destinationRefusal(item, links);
}

function none(verb: CopyLinks['verb']): string {
	return `Nothing was copied${verb === 'Move' ? ' or deleted' : ''}.`;
}

function sourceNamed({ field, from, level }: CopyLinks): string {
	if (level === 'folder') return `the source folder '${from}' (parameter 'Folder')`;
	return field === 'Destination Path'
		? `the source '${from}' (parameter 'File')`
		: `the source '${from}' (a file of the folder in parameter 'Folder')`;
}

function sourceRefusal(item: Item, links: CopyLinks): NodeOperationError | undefined {
	const { verb, from, level } = links;
	const folder = transformShapedDestination(from);
	if (folder === undefined) return undefined;
	const rest = from.slice(folder.length + 1);
	const read =
		level === 'folder'
			? `the link of every file in it as another file transformed (e.g. '${folder}/${rest}x.txt' as '${rest}x.txt' transformed by "${folder}")`
			: `its link as '${rest || '…'}' transformed by "${folder}"`;
	return item.fail(
		`${verb}: ${sourceNamed(links)} starts with the folder "${folder}", which the CDN reads as a transformation`,
		`Its first folder "${folder}" has the shape of a CDN transformation (tr-… or thumb-, spec §3.11): the CDN reads ${read}, ` +
			"so the bytes read could be another file's (one of the same size and " +
			`second cannot be told apart) and no copy could be shown to hold the source's. ${none(verb)} ` +
			'A file under such a folder cannot be copied or moved through the CDN. Download it with File → Download (it checks ' +
			'the size against the listing, not the bytes), check by hand that the bytes are its own, upload them under a key ' +
			`whose first folder does not start with 'tr-' or 'thumb-' (e.g. 'img/${folder}/…'), and only then delete it with ` +
			'File → Delete. If Download fails or gives other bytes, the file cannot be read through the CDN at all.',
	);
}

function destinationRefusal(item: Item, { verb, field, to }: CopyLinks): NodeOperationError | undefined {
	const folder = transformShapedDestination(to);
	if (folder === undefined) return undefined;
	const rest = to.slice(folder.length + 1);
	return item.fail(
		`${verb}: the destination '${to}' (parameter '${field}') starts with the folder "${folder}", which the CDN reads as a transformation`,
		`The CDN reads a link whose first folder starts with 'tr-' or 'thumb-' as a transformation of another file ` +
			`(there: '${rest || '…'}' transformed by "${folder}"), so no read of the copy at the destination could show its bytes: ` +
			`the copy could not be checked. ${none(verb)} ` +
			`Choose a ${field} whose first folder does not start with 'tr-' or 'thumb-' (e.g. with a folder such as 'copies/' in front).`,
	);
}
