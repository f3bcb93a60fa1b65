import type { IDataObject } from 'n8n-workflow';

import type { Item } from '../../item';
import type { FileStorageClient } from '../../transport/request';
import { copyChecked, describeRef, exists, inTurn, type Copied, type CopyJob } from '../file/copyFile';
import { deleteSourceAfterCopy } from '../file/moveSource';
import { isMissingSource } from '../file/storedSource';
import { compareStored } from './sameContent';

/**
 * What happened to one file of a Folder → Copy or Move:
 * copied, moved; skipped (a Copy done before: the destination holds the source's bytes; a Move
 * done before is not listed, its source being gone); exists (refused: the destination holds other bytes
 * and Replace Existing Files is off); kept (whether the destination holds the source's bytes
 * could not be shown, and Replace Existing Files is off: nothing was changed); gone (the source
 * was listed, then deleted by another item of the run or someone else before it was read: nothing was changed);
 * refused (its keys alone rule the copy out, e.g. a destination the CDN reads as a transformation: nothing was
 * read or changed, and a run again gives the same answer; Dry Run lists it so too, see transfer.ts).
 * Dry Run: wouldCopy, wouldMove, or destinationExists (a real run compares it first).
 */
export type FileStatus =
	| 'copied'
	| 'moved'
	| 'skipped'
	| 'exists'
	| 'kept'
	| 'gone'
	| 'refused'
	| 'wouldCopy'
	| 'wouldMove'
	| 'destinationExists';

export interface FileOutcome {
	status: FileStatus;
	json: IDataObject;
}

interface Held {
	outcome: FileOutcome;
	/** A copy whose source a Move deletes, after the destination's turn. */
	copied?: Copied;
}

const done = (verb: CopyJob['verb']): FileStatus => (verb === 'Copy' ? 'copied' : 'moved');

/**
 * A source this run listed and then found deleted. It was there at the listing, so no earlier
 * run moved it: another item of this run or someone else deleted (or moved) it since. Nothing is
 * written or deleted for it.
 */
function gone(job: CopyJob, destinationThere: boolean): Held {
	const left = destinationThere
		? `the file already at the destination ${describeRef(job.to)} was left as it was (whether it holds the source's bytes is unknown)`
		: 'nothing was copied';
	// Who is not known: another item of this run moving or deleting the same file (its turn came
	// first), or another workflow or user. The words name both, as File → Move's do.
	const reason = `The source was deleted after the folder was listed (moved or deleted by another item of this run, or by another workflow or user): ${left}.`;
	return { outcome: { status: 'gone', json: { reason } } };
}

/** The copy of File → Copy and Move, its source deleted later for a Move. */
async function copyNow(item: Item, job: CopyJob, client: FileStorageClient, json: IDataObject = {}): Promise<Held> {
	const copied = await copyChecked(item, job, client);
	return { outcome: { status: done(job.verb), json: { ...copied.json, ...json } }, copied };
}

/** A destination not there: copied, or the source found deleted before it was read. */
async function copyAbsent(item: Item, job: CopyJob, client: FileStorageClient): Promise<Held> {
	return await copyNow(item, job, client).catch((error: unknown) => {
		// Only a source missing before anything was stored (storedSource.ts marks it so).
		if (isMissingSource(error)) return gone(job, false);
		throw error;
	});
}

/** A destination already there: compared, then skipped, finished, replaced or left as it is. */
async function onExisting(item: Item, job: CopyJob, client: FileStorageClient): Promise<Held> {
	const compared = await compareStored(item, client, job);
	const { verb, to, from } = job;
	if (compared.kind === 'sourceGone') return gone(job, true);
	if (compared.kind === 'same') {
		const json = { size: compared.size, md5: compared.md5, checked: ['size', 'md5'], destinationWasThere: true };
		if (verb === 'Copy') {
			const reason = 'The destination holds the same bytes as the source (read and compared): copied before.';
			return { outcome: { status: 'skipped', json: { ...json, reason } } };
		}
		// A Move stopped between its copy and its delete: the copy is there, proven, so the source goes.
		const { sourceRecord, destinationRecord } = compared;
		const copied: Copied = { from, to, client, sourceRecord, destinationRecord, json };
		return { outcome: { status: 'moved', json }, copied };
	}
	// One location for both: a copy would read the source there, and may be given the destination.
	if (job.options.replace === true && compared.kind !== 'oneLocation') {
		return await copyNow(item, job, client, { replaced: true });
	}
	const status = compared.kind === 'different' ? 'exists' : 'kept';
	const reason =
		compared.kind === 'different'
			? `The destination ${describeRef(to)} already exists and is not the same file: ${compared.why}. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}; turn on Replace Existing Files to replace it.`
			: `The destination ${describeRef(to)} already exists, and whether it holds the source's bytes could not be shown: ${compared.why}. Nothing was changed; ${compared.kind === 'oneLocation' ? 'pick another Destination Folder' : 'run the node again later'}.`;
	return { outcome: { status, json: { reason } } };
}

/**
 * One file of a Folder → Copy or Move, through the path of File → Copy and Move (copyFile.ts):
 * the same refusals, the destination's turn, the same read of the stored version, upload and
 * check, and for a Move the same delete of the source, only on proof (moveSource.ts). What differs
 * is a destination already there: it is compared with the source before anything is decided.
 */
export async function transferFile(item: Item, job: CopyJob, dryRun: boolean): Promise<FileOutcome> {
	const client = await item.client();
	// The file's source and destination stay this item's turn until its source is deleted.
	return await inTurn(item, job, async (): Promise<FileOutcome> => {
		const there = await exists(item, client, job.to, job.verb, job.options.replace === true);
		if (dryRun) {
			const status = there ? 'destinationExists' : job.verb === 'Copy' ? 'wouldCopy' : 'wouldMove';
			return { status, json: { dryRun: true } };
		}
		const held = there ? await onExisting(item, job, client) : await copyAbsent(item, job, client);
		if (job.verb === 'Copy' || !held.copied) return held.outcome;
		await deleteSourceAfterCopy(item, held.copied);
		return { status: 'moved', json: { ...held.outcome.json, sourceDeleted: true } };
	});
}
