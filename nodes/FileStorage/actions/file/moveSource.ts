import { NodeApiError } from 'n8n-workflow';

import { sourceDeleteDecision } from '../../files/proof';
import { findStoredRecord } from '../../files/storedRecord';
import type { Item } from '../../item';
import { deleteFile } from '../../transport/api';
import { describeRef, type Copied } from './copyFile';

function wordsOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The source went between the copy and its delete: nothing is left to delete, and both exist no more. */
function sourceGone(item: Item, copied: Copied) {
	return item.fail(
		`Move: the copy ${describeRef(copied.to)} is complete and checked, but the source ${describeRef(copied.from)} is no longer there`,
		'Something else deleted or moved the source after it was copied: another item of this run moving the same file, or another workflow. The copy holds the source as it was read; there is nothing left to delete.',
	);
}

function bothExist(item: Item, copied: Copied, message: string, why = '') {
	return item.fail(
		message,
		`Both files exist now: the source ${describeRef(copied.from)} and the copy ${describeRef(copied.to)}.${why} Delete the source yourself, or run File → Delete on it.`,
	);
}

/**
 * Move's last step: the source goes only after a checked copy, and only while the service still
 * records the version that was copied (a file replaced during the copy is a newer version, which
 * the copy does not hold). A failed delete says both exist; a source already gone says so.
 */
export async function deleteSourceAfterCopy(item: Item, copied: Copied) {
	const { from } = copied;
	let now;
	try {
		now = await findStoredRecord(copied.client, from, from.key);
	} catch (error) {
		throw bothExist(
			item,
			copied,
			`Move: the copy is complete and checked, but whether the source is still the version copied could not be asked: ${wordsOf(error)}`,
			' The source was not deleted.',
		);
	}
	const decision = sourceDeleteDecision(copied.sourceRecord, now);
	if (decision === 'gone') throw sourceGone(item, copied);
	if (decision === 'keep') {
		throw bothExist(
			item,
			copied,
			`Move: the source ${describeRef(from)} was replaced while it was copied, so it was not deleted`,
			' The copy holds the version that was read, the source the newer one. Run the Move again to move the newer version (with Replace Existing File on).',
		);
	}
	try {
		return await deleteFile(copied.client, from, from.key);
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') throw sourceGone(item, copied);
		throw bothExist(
			item,
			copied,
			`Move: the copy is complete and checked, but deleting the source failed: ${wordsOf(error)}`,
		);
	}
}
