import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fileInfoAfterCopy, type CopyCheck } from '../../files/copyCheck';
import { hashedSource } from '../../upload/hashedSource';
import { hasDotSegment, joinKey } from '../../files/keys';
import type { StoredRecord } from '../../files/storedRecord';
import { getSignedUrl, type BucketRef, type Visibility } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import type { Item } from '../../item';
import { destinationBucketOf, readDestinationPath } from './copyFields';
import { fileExists } from './existingFile';
import { fileKeyOf, fileNameOf } from './fileKey';
import { runCopyAtLocation, runCopyWords } from './runLocation';
import { storeSource } from './storeSource';
import type { UploadSource } from '../../upload/uploadSource';
import { isMissingSource, missingSource, openStoredSource, sourceContentType } from './storedSource';
import { unreadableLinkRefusal, type DestinationField } from './unreadableLink';

export interface FileRef extends BucketRef {
	key: string;
}

function destinationOf(item: Item, from: FileRef, options: IDataObject): FileRef {
	const typed = readDestinationPath(item);
	if (!typed.trim()) {
		throw item.fail(
			"The parameter 'Destination Path' is empty",
			'Enter where the file should go, e.g. done/report.pdf, or a folder ending in "/" such as done/.',
		);
	}
	const key = typed.endsWith('/') ? joinKey(typed, fileNameOf(from.key)) : typed;
	return { ...destinationBucketOf(options, from), key: item.validKey(key, 'Destination Path') };
}

export function describeRef(ref: FileRef): string {
	return `'${ref.key}' in bucket '${ref.bucket}' (region ${ref.region})`;
}

/**
 * Whether a file is at the destination; a check that fails leaves it unknown and copies nothing.
 * `replacing`: Replace Existing File(s) is on (the check then decides whether a file there is
 * compared first, Folder → Copy and Move), so the words do not offer it.
 */
export async function exists(
	item: Item,
	client: FileStorageClient,
	ref: FileRef,
	verb: 'Copy' | 'Move',
	replacing = false,
): Promise<boolean> {
	return await fileExists(client, ref, ref.key).catch((error: unknown) => {
		const words = error instanceof Error ? error.message : String(error);
		const none = `Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Run the node again later`;
		throw item.fail(
			`${verb}: could not tell whether the destination ${describeRef(ref)} already exists: ${words}`,
			replacing
				? `What is done with a file at the destination depends on whether one is there. ${none}.`
				: `Replace Existing File is off, so a file that may be there is not written over. ${none}, or turn on Replace Existing File if overwriting is fine.`,
		);
	});
}

export interface Copied {
	from: FileRef;
	to: FileRef;
	client: FileStorageClient;
	/** The service's record of the source when it was read: Move deletes only that version. */
	sourceRecord: StoredRecord;
	/** The listing's record of the copy its check proved: Move deletes the source only while it is unchanged. */
	destinationRecord: StoredRecord;
	json: IDataObject;
}

/**
 * A Move's failure before its delete, saying that the source stays. A failure before the source
 * was even named (a parameter) is given as it is.
 */
export function sourceStays(item: Item, error: unknown): NodeApiError | NodeOperationError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	let from: FileRef;
	try {
		from = { ...item.bucket(), key: fileKeyOf(item) };
	} catch {
		return failure;
	}
	const before = failure.description ? `${failure.description} ` : '';
	failure.description = isMissingSource(error)
		? `${before}There is no source to move: a Move that ran before may have moved it already. Nothing was copied or deleted.`
		: `${before}The source ${describeRef(from)} was not deleted.`;
	return failure;
}

/** Both files are read through their links (the source's bytes, the copy's check). */
function dotSegmentRefusal(item: Item, verb: 'Copy' | 'Move', from: FileRef, to: FileRef) {
	// A link of a key with a '.' segment reaches another file (see linkRewritesKey).
	for (const [role, ref] of [
		['source', from],
		['destination', to],
	] as const) {
		if (!hasDotSegment(ref.key)) continue;
		return item.fail(
			`${verb}: the ${role} '${ref.key}' has a '.' segment, which its link cannot carry`,
			`A URL client resolves '.' segments in a link, so the ${role}'s link would reach another file and the copy could not be made or checked. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Use a key without a '.' segment.`,
		);
	}
	return undefined;
}

/** One file to copy: from where, to where, with the options of its item (Replace Existing File and the upload's). */
export interface CopyJob {
	verb: 'Copy' | 'Move';
	from: FileRef;
	to: FileRef;
	/** The field that named the destination, for the words of a refusal. */
	field: DestinationField;
	options: IDataObject;
}

/**
 * Copies a file by streaming its signed link (a plain GET: the CDN gets no credential and no
 * signature of ours; a public source's CDN cache purged first, and the answer compared with the
 * service's record, see storedSource.ts) into an upload with the bounded part pool, then checks
 * the copy (see copyCheck.ts). Nothing here deletes the source: Move does that only after this.
 */
export async function copyFile(item: Item, verb: 'Copy' | 'Move'): Promise<Copied> {
	const where = item.bucket();
	const from: FileRef = { ...where, key: fileKeyOf(item) };
	const options = item.options();
	const to = destinationOf(item, from, options);
	const job: CopyJob = { verb, from, to, field: 'Destination Path', options };
	refuseBeforeRequests(item, job);
	// Both keys: the source (Move deletes it) and the destination, held until the item finishes.
	await item.takeTurns([from, to]);
	return await copyHeld(item, job);
}

/**
 * The path every copy takes, File → Copy and Move's and each file's of Folder → Copy and Move:
 * `work` after the refusals made before any request, while the file's source and destination are
 * this item's turn alone in its run (given back after `work`: a folder item copies several files
 * at once, each holding only its own keys).
 */
export async function inTurn<T>(item: Item, job: CopyJob, work: () => Promise<T>): Promise<T> {
	refuseBeforeRequests(item, job);
	const release = await item.run.turns.take([job.from, job.to]);
	try {
		item.refuseUnsettled([job.from, job.to]);
		return await work();
	} finally {
		release();
	}
}

/** The same key in another bucket: one CDN location (it names the key, not the bucket, spec §3.9). */
export function sharesLocation(job: CopyJob): boolean {
	const { from, to } = job;
	return to.key === from.key && (to.bucket !== from.bucket || to.region !== from.region);
}

/**
 * Why a Move to the same key in another bucket is refused: the copy's location is the source's,
 * so no read of the copy (its check's ETag, its read-back) can be told from a read of the source,
 * and another writer's file there would pass as the copy; the source is only deleted on proof.
 */
export const ONE_LOCATION_MOVE_WORDS =
	"A file has one CDN location whatever its bucket (it names the key only), so a read of the copy could be answered by the source itself: that the copy holds the source's bytes cannot be shown, and the source is only deleted on proof. Nothing was changed.";

/** The refusals made before any request, thrown: File → Copy and Move fail with them. */
function refuseBeforeRequests(item: Item, job: CopyJob): void {
	const refusal = keyRefusal(item, job);
	if (refusal) throw refusal;
}

/**
 * The refusals decided from the keys alone, nothing read or written: the same file as source and
 * destination, a '.' segment, a source or destination the CDN reads as a transformation. A Folder
 * run gives one as that file's status and goes on (see transfer.ts); File → Copy and Move fail.
 */
export function keyRefusal(item: Item, job: CopyJob): NodeOperationError | undefined {
	const { verb, from, to } = job;
	if (to.key === from.key && to.bucket === from.bucket && to.region === from.region) {
		return item.fail(
			`${verb}: the source and the destination are the same file`,
			`Both are ${describeRef(from)}. Set Destination Path to another path, or another bucket or region in the options. Nothing was changed.`,
		);
	}
	if (verb === 'Move' && sharesLocation(job)) {
		return item.fail(
			`Move: the destination ${describeRef(to)} is the source's own path in another bucket`,
			`${ONE_LOCATION_MOVE_WORDS} Move it to another path in that bucket (e.g. in a folder), or Copy it there, check the copy, and delete the source with File → Delete.`,
		);
	}
	return (
		dotSegmentRefusal(item, verb, from, to) ??
		unreadableLinkRefusal(item, { verb, field: job.field, from: from.key, to: to.key, level: 'file' })
	);
}

/**
 * Refuses a copy onto the same key in another bucket that has a file with the source's CDN location:
 * the location names the key, not the bucket (spec §3.9), so the source's read could be answered
 * with the destination's bytes, and a Move would delete a source it never copied. A link that
 * cannot be had is left to the copy's own words.
 */
async function refuseOneLocation(item: Item, client: FileStorageClient, job: CopyJob): Promise<void> {
	const { verb, from, to } = job;
	const place = (url: string) => url.split(/[?#]/)[0];
	if (!(await fileExists(client, to, to.key).catch(() => false))) return;
	const [source, destination] = await Promise.all(
		[from, to].map(async (ref) => await getSignedUrl(client, ref, ref.key, 60).catch(() => undefined)),
	);
	if (!source || !destination || place(source.url) !== place(destination.url)) return;
	throw item.fail(
		`${verb}: the source ${describeRef(from)} and the destination ${describeRef(to)} have one CDN location`,
		`Their location (${place(source.url)}) names the key but not the bucket, so reading the source could read the file at the destination. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Copy to another path, or delete the destination first.`,
	);
}

/**
 * The same key in another bucket: the destination was free when checked, but a file another writer
 * stored there while the source was opened has the source's CDN location, and may be what was read
 * (spec §3.9). So it must still be free once the source's answer came; else nothing is copied.
 */
async function refuseAppearedAtOneLocation(item: Item, client: FileStorageClient, job: CopyJob, opened: UploadSource) {
	const { verb, from, to } = job;
	if (to.key !== from.key || (to.bucket === from.bucket && to.region === from.region)) return;
	if ((await fileExists(client, to, to.key).catch(() => true)) === false) return;
	opened.discard();
	throw item.fail(
		`${verb}: a file is at the destination ${describeRef(to)} now, which was not there when the copy began`,
		`Another writer stored it while the source was being read. It has the source's CDN location (the location names the key, not the bucket), so the bytes read may be that file's rather than the source's. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Check the destination, then run the node again.`,
	);
}

/**
 * A file this run wrote at the source's key in another bucket: the source's read could be answered with it. At the
 * destination's: the copy's check could (HEAD, read-back), so a Move is refused, a Copy checked by its listing (true).
 */
async function refuseRunCopyAtLocations(item: Item, client: FileStorageClient, job: CopyJob): Promise<boolean> {
	const { verb, from, to } = job;
	const atDestination = await runCopyAtLocation(item, client, to);
	if (atDestination && verb === 'Move') {
		throw item.fail(
			`Move: the copy at ${describeRef(to)} could not be checked apart from a file this run wrote`,
			`${runCopyWords(to, atDestination)}. Nothing was copied or deleted. Move to another path, or Copy it, check the copy, and delete the source with File → Delete.`,
		);
	}
	const there = await runCopyAtLocation(item, client, from);
	if (!there) return atDestination !== undefined;
	throw item.fail(
		`${verb}: the source ${describeRef(from)} cannot be read apart from a file this run wrote`,
		`${runCopyWords(from, there)}. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}: both files stay. While both exist, a read of either may be answered with the other: check them (File → Download) before moving either. In one run, do not write a file at the key another item reads in another bucket.`,
	);
}

/** Replace Existing File off: a file another writer stored at the destination since the check. */
function takenDuringCopy(item: Item, job: CopyJob, when: string): Error {
	const { verb, to } = job;
	return item.fail(
		`${verb}: the destination ${describeRef(to)} was stored by another writer ${when}`,
		`Replace Existing File is off: the destination was free when checked, and that file is kept. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}. Turn on Replace Existing File to overwrite it, or choose another Destination Path.`,
	);
}

/** Replace Existing File off: the destination checked again once the source is open (after any wait for it to settle). */
async function refuseTakenSinceCheck(item: Item, client: FileStorageClient, job: CopyJob, opened: UploadSource) {
	if (job.options.replace === true) return;
	const taken = await exists(item, client, job.to, job.verb).catch((error: unknown) => {
		opened.discard();
		throw error;
	});
	if (!taken) return;
	opened.discard();
	throw takenDuringCopy(item, job, 'while the source was opened');
}

async function copyHeld(item: Item, job: CopyJob): Promise<Copied> {
	const { verb, from, to, options } = job;
	const client = await item.client();
	if (options.replace === true && to.key === from.key) await refuseOneLocation(item, client, job);
	if (options.replace !== true && (await exists(item, client, to, verb))) {
		// A Move run again after it succeeded finds its destination taken and its source gone:
		// that is said as it is (a source that cannot be looked up is left to the usual words).
		const sourceThere = verb === 'Move' ? await exists(item, client, from, verb).catch(() => true) : true;
		if (!sourceThere) {
			throw missingSource(item, from, `The destination ${describeRef(to)} already exists.`);
		}
		throw item.fail(
			`${verb}: the destination ${describeRef(to)} already exists`,
			`Turn on the Replace Existing File option to overwrite it. Nothing was copied${verb === 'Move' ? ' or deleted' : ''}.`,
		);
	}
	return await copyChecked(item, job, client);
}

/**
 * The copy itself, once the destination may be written: the source as the service stores it,
 * stored at the destination, the copy checked.
 */
export async function copyChecked(item: Item, job: CopyJob, client: FileStorageClient): Promise<Copied> {
	const { verb, from, to, options } = job;
	const runCopyAtDestination = await refuseRunCopyAtLocations(item, client, job);
	const { link, opened, record } = await openStoredSource(item, client, from, verb);
	await refuseAppearedAtOneLocation(item, client, job, opened);
	const source = hashedSource({ ...opened, label: `the source file '${from.key}'` });
	const visibility: Visibility =
		options.visibility === 'public' || options.visibility === 'private'
			? options.visibility
			: link.is_public
				? 'public'
				: 'private';
	const contentType = String(options.contentType || sourceContentType({ opened, record }));
	await refuseTakenSinceCheck(item, client, job, opened);
	const refuseIfTaken =
		options.replace === true ? undefined : () => takenDuringCopy(item, job, 'before the copy completed');
	// A short answer is judged by the copy's check, with the listing (fileInfoAfterCopy).
	const stored = await storeSource(item, { ...to, visibility, contentType }, source, { refuseIfTaken });
	const check: CopyCheck = await fileInfoAfterCopy(item, client, {
		to,
		visibility,
		announced: opened.size,
		digest: source.digest(),
		storedSize: stored.size,
		verb,
		sharesSourceLocation: sharesLocation(job) || runCopyAtDestination,
	});
	return {
		from,
		to,
		client,
		sourceRecord: record,
		destinationRecord: check.record,
		json: {
			key: to.key,
			bucket: to.bucket,
			region: to.region,
			size: check.size,
			content_type: stored.content_type ?? contentType,
			visibility,
			location: stored.location,
			md5: check.md5,
			checked: check.checked,
			source: { key: from.key, bucket: from.bucket, region: from.region },
		},
	};
}
