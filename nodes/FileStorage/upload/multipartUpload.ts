import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	cancelMultipartUpload,
	completeMultipartUpload,
	learnPathFamily,
	startMultipartUpload,
	uploadFile,
	uploadPart,
	type StoredFile,
} from '../transport/api';
import { freeKeyCheck, stillStored } from '../listing/stillStored';
import { apiNotFound, failedOnRetryWith } from '../transport/errors';
import { writeMayStillLand } from '../transport/outcome';
import { SharedPartBodies, type FileForm } from '../transport/formData';
import type { FileStorageClient } from '../transport/request';
import type { Item } from '../item';
import {
	asNodeError,
	checkedPlan,
	MAX_PARTS,
	partBodies,
	partsAfter,
	sendParts,
	withRoomForEach,
	type MultipartResult,
	type MultipartSettings,
	type MultipartTarget,
	type PartBodies,
} from './parts';
import { requireStoredAll } from './storedAll';
import { atStart, type UploadSource } from './uploadSource';

/**
 * The multipart engine: Start, the parts (several at once), Complete, and Cancel after a
 * failure. Where a part is sent: `sendAll` below, through transport/api.ts's uploadPart.
 */

/** One upload in parts: the item it is for, where it goes, what it sends and how. */
export interface PartsUpload {
	item: Item;
	target: MultipartTarget;
	source: UploadSource;
	settings: MultipartSettings;
}

export interface MultipartOptions {
	/**
	 * A source of unknown length that turns out to fit in one part goes in one request instead
	 * (Upload does this; Multipart Upload always uses parts).
	 */
	oneRequestIfOnePart?: boolean;
	/** The most parts a source of unknown length may give (the service's limit, MAX_PARTS, unless a test asks for fewer). */
	maxParts?: number;
	/**
	 * The key must still be free when the parts are sent (Refuse Existing File, Replace Existing
	 * File off): it is checked again just before Complete, and a file found there cancels the
	 * upload with this error (the check before the parts only covers the time until then). A
	 * Complete (or the one request) sent again is sent only onto a key checked free once more.
	 */
	refuseIfTaken?: () => Error;
	/**
	 * Upload and Multipart Upload: the answer must say every byte sent was stored (requireStoredAll).
	 * Copy and Move leave it to their check of the copy, which lists the file too (files/copyCheck.ts).
	 */
	storedAll?: boolean;
}

/** An upload in parts under way: the plan, the bodies, and the reader of the source. */
interface Run extends PartsUpload {
	client: FileStorageClient;
	options: MultipartOptions;
	partSize: number;
	bodies: PartBodies;
	reader: AsyncGenerator<Buffer>;
}

/**
 * Uploads a source in parts with a fixed pool of part bodies. A source of unknown length (a URL
 * without Content-Length) is read two parts ahead: when it ends there its length is
 * known after all; otherwise Start announces the most parts the service allows, since the
 * spec treats totalParts as informational, and the parts are numbered as they come.
 */
export async function multipartUpload(
	upload: PartsUpload,
	options: MultipartOptions = {},
): Promise<StoredFile & MultipartResult> {
	const { item, target, source, settings } = upload;
	const known = source.size;
	let plan: { partSize: number; totalParts: number };
	let bodies: PartBodies;
	try {
		plan = checkedPlan(item, known ?? 0, settings);
		// At most parallelUploads parts are in flight while the next one is read.
		// A file smaller than one part needs no more than its own size per body.
		bodies = await partBodies(item, {
			target,
			partSize: known === undefined ? plan.partSize : Math.min(plan.partSize, known),
			settings,
			contentType: known === undefined ? target.contentType : undefined,
		});
	} catch (error) {
		// Refused before a byte was read: the source (a URL's open response) is let go of all the same.
		source.discard();
		throw error as NodeOperationError;
	}
	try {
		const client = await item.client();
		const reader = withRoomForEach(
			source.parts(plan.partSize, () => bodies.take()),
			bodies,
		);
		return await uploadInParts(
			{ ...upload, client, options, partSize: plan.partSize, bodies, reader },
			plan.totalParts,
		);
	} finally {
		// Shared bodies go back to the run's budget whatever happened; a pool of its own is garbage.
		if (bodies instanceof SharedPartBodies) bodies.close();
	}
}

/** A generator not started yet runs no `finally` on return: the source is let go of as well. */
async function abandon(run: Run): Promise<void> {
	await run.reader.return(undefined);
	run.source.discard();
}

/** What reading ahead found: the parts read, and how many Start announces. */
interface Ahead {
	ahead: Buffer[];
	/** The source ended within the parts read ahead. */
	ended: boolean;
	totalParts: number;
}

/**
 * A source of unknown length, read a part or two ahead. Two parts ahead tell a source that ends
 * there; with shared bodies one, so that an upload never holds a body while it waits for the budget.
 */
async function readAhead(run: Run): Promise<Ahead> {
	const ahead: Buffer[] = [];
	let ended = false;
	while (ahead.length < (run.bodies instanceof SharedPartBodies ? 1 : 2) && !ended) {
		const next = await run.reader.next();
		if (next.done) ended = true;
		else ahead.push(next.value);
		// Only the last part is shorter than Part Size.
		if (!next.done && next.value.length < run.partSize) ended = true;
	}
	if (ahead.length === 0) {
		throw run.item.fail(`${atStart(run.source)} is empty (0 bytes)`, 'There is nothing to upload. Check the source.');
	}
	return { ahead, ended, totalParts: ended ? ahead.length : (run.options.maxParts ?? MAX_PARTS) };
}

/** Start, beside (version 3, several parts) the request that learns the path family. */
async function start(run: Run, totalParts: number): Promise<string> {
	const { client, target } = run;
	// Version 3 sends parts at once: the path family is learned beside Start, not by part 1
	// while the others wait (version 1 and 2 keep the requests they always sent).
	const shared = run.bodies instanceof SharedPartBodies;
	const learning = shared && totalParts > 1 ? learnPathFamily(client, target, target.key) : undefined;
	const [started] = await Promise.all([
		startMultipartUpload(client, target, {
			key: target.key,
			contentType: target.contentType,
			visibility: target.visibility,
			totalParts,
		}),
		learning,
	]);
	return started.uploadId;
}

async function uploadInParts(run: Run, plannedParts: number): Promise<StoredFile & MultipartResult> {
	const { item, client, target, source, bodies } = run;
	let read: Ahead = { ahead: [], ended: false, totalParts: plannedParts };
	let uploadId: string;
	try {
		if (source.size === undefined) {
			read = await readAhead(run);
			if (read.ended && read.ahead.length === 1 && run.options.oneRequestIfOnePart) {
				const form = bodies.form(read.ahead[0]);
				const { refuseIfTaken, storedAll } = run.options;
				const sent = storedAll ? read.ahead[0].length : undefined;
				return { ...(await uploadWhole(item, target, form, { mustNotReplace: refuseIfTaken !== undefined, sent })) };
			}
		}
		uploadId = await start(run, read.totalParts);
	} catch (error) {
		await abandon(run);
		throw asNodeError(item, error);
	}
	const completing = { now: false, sent: 0 };
	let stored: StoredFile & MultipartResult;
	try {
		stored = await sendAll(run, { uploadId, ...read }, completing);
	} catch (error) {
		const failure = asNodeError(item, error);
		if (completing.now && failedOnRetryWith(error, 404)) {
			// The upload ID vanished between attempts of Complete: most likely an earlier
			// attempt succeeded and only its answer was lost. Say so instead of guessing.
			failure.description = `An earlier attempt may have completed the upload before its answer was lost: check whether '${target.key}' exists before uploading again.`;
			item.writeMayStillLand(target);
			throw failure;
		}
		// A Complete whose outcome is unknown (no answer in time, a gateway's 504, any 5xx: outcome.ts)
		// may have been carried out all the same.
		const mayHaveRun = completing.now && writeMayStillLand(error);
		const cancelled = await cancelAfterFailure(client, target, uploadId, failure, mayHaveRun);
		// A Complete sent and not cancelled may still land: later items of the run leave the key alone.
		if (completing.now && !cancelled) item.writeMayStillLand(target);
		throw failure;
	}
	// Completed: a short file is not cancelled (it is stored), only reported.
	if (run.options.storedAll) requireStoredAll(item, target, stored, completing.sent);
	return stored;
}

/** Every part sent, then Complete; `completing.now` says whether Complete was sent, `sent` how many bytes its parts hold. */
async function sendAll(
	run: Run,
	{ uploadId, ahead, totalParts }: Ahead & { uploadId: string },
	completing: { now: boolean; sent: number },
): Promise<StoredFile & MultipartResult> {
	const { item, client, target, source, bodies, partSize } = run;
	const known = source.size;
	const maxParts = run.options.maxParts ?? MAX_PARTS;
	const { uploaded, bytesRead } = await sendParts(
		partsAfter({ item, source, ahead, rest: run.reader, partSize, maxParts }),
		// Shared bodies: the budget and the run's request slots bound the parts in flight.
		bodies instanceof SharedPartBodies ? Number.MAX_SAFE_INTEGER : run.settings.parallelUploads,
		async (partNumber, bytes) => {
			try {
				const form = bodies.form(bytes);
				return await uploadPart(client, target, { uploadId, key: target.key, partNumber, totalParts, form });
			} finally {
				bodies.release(bytes);
			}
		},
	);
	const expectedParts = known === undefined ? Math.ceil(bytesRead / partSize) : totalParts;
	if ((known !== undefined && bytesRead !== known) || uploaded.length !== expectedParts) {
		throw item.fail(
			`Read ${bytesRead} bytes in ${uploaded.length} parts from ${source.label}, but the file is ${known ?? bytesRead} bytes (${expectedParts} parts)`,
			'The binary data changed or is damaged.',
		);
	}
	const refuse = run.options.refuseIfTaken;
	// The check and the Complete acting on it go through one client counting their waits (transport/looks.ts).
	const looking = client.forLook();
	const lookedAt = looking.waits.mark();
	if (refuse && (await stillStored(looking, target, target.key))) throw refuse();
	completing.now = true;
	completing.sent = bytesRead;
	// Asked again in Complete's slot when anything waited since that check began (its slot, a pause of the pool, a
	// retry), and before a repeat.
	const resendCheck = refuse ? freeKeyCheck(target, target.key, lookedAt) : undefined;
	const stored = await completeMultipartUpload(looking, target, {
		uploadId,
		key: target.key,
		parts: uploaded,
		resendCheck,
	});
	return { ...stored, uploadId, partCount: uploaded.length, partSize };
}

/**
 * One upload in one request. One whose outcome is unknown (no answer in time, a gateway's 504: see
 * outcome.ts) may still be carried out by the service: the transport marks its key (ApiCall.writes),
 * so later items of the run leave it alone. `mustNotReplace` (Refuse Existing File on, Replace
 * Existing File off): a repeat goes out only onto a key checked free again (freeKeyCheck). `sent`:
 * the file's bytes, when the answer must say all of them were stored (MultipartOptions.storedAll).
 */
export async function uploadWhole(
	item: Item,
	target: MultipartTarget,
	form: FileForm,
	{ mustNotReplace = false, sent }: { mustNotReplace?: boolean; sent?: number } = {},
): Promise<StoredFile> {
	// Its waits counted apart from the item's other requests: the check in its slot is held to them (transport/looks.ts).
	const client = (await item.client()).forLook();
	const file = { key: target.key, visibility: target.visibility, form };
	let stored: StoredFile;
	try {
		// Checked again right before the first send too: the source was read (and, in version 3, memory and a slot
		// waited for) after the caller's check, and a file stored meanwhile would be replaced.
		stored = await uploadFile(
			client,
			target,
			file,
			mustNotReplace ? freeKeyCheck(target, target.key, client.waits.mark(), true) : undefined,
		);
	} catch (error) {
		throw asNodeError(item, error);
	}
	if (sent !== undefined) requireStoredAll(item, target, stored, sent);
	return stored;
}

/**
 * Cancels after a failure, on a signal of its own (the execution may have been stopped), and
 * says in the error what became of the upload. True when the service confirmed the cancel.
 */
async function cancelAfterFailure(
	client: FileStorageClient,
	target: MultipartTarget,
	uploadId: string,
	failure: NodeApiError | NodeOperationError,
	completeMayHaveRun: boolean,
): Promise<boolean> {
	const before = failure.description ? `${failure.description} ` : '';
	let gone: boolean;
	try {
		gone = (await cancelMultipartUpload(client, target, uploadId, target.key, { cleanup: true })).earlierAttempt;
	} catch (cancelError) {
		// Only the API's own 404 means the upload is gone; a missing Cancel path leaves it open.
		if (!apiNotFound(cancelError)) {
			const alsoFailed = `${before}Cancelling the multipart upload ${uploadId} failed as well (${(cancelError as Error).message})`;
			// A Complete without an answer may have stored the file: leftover parts are the lesser news.
			failure.description = completeMayHaveRun
				? `${alsoFailed}: the completion may have gone through before its answer came. Check whether '${target.key}' exists before uploading again; if it does not, the upload's parts may remain on the service.`
				: `${alsoFailed}; its parts may remain on the service.`;
			return false;
		}
		gone = true;
	}
	failure.description =
		gone && completeMayHaveRun
			? `${before}The service no longer knows the upload ${uploadId}: the completion most likely went through before its answer came. Check whether '${target.key}' exists before uploading again.`
			: `${before}The multipart upload ${uploadId} was cancelled on the service; nothing was stored.`;
	return !gone;
}
