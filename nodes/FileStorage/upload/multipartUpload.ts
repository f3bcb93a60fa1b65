import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	cancelMultipartUpload,
	completeMultipartUpload,
	learnPathFamily,
	startMultipartUpload,
	uploadFile,
	uploadPart,
	type BucketRef,
	type StoredFile,
	type UploadedPart,
	type Visibility,
} from '../transport/api';
import { apiNotFound, failedOnRetryWith, timedOut } from '../transport/errors';
import { PartBodyPool, SharedPartBodies, formEnvelope } from '../transport/formData';
import { runPoolOf } from '../transport/pool';
import type { FileStorageClient } from '../transport/request';
import { atStart, type UploadSource } from './uploadSource';

export const MIB = 1024 * 1024;
export const MIN_PART_SIZE_MIB = 5;
export const MAX_PART_SIZE_MIB = 5 * 1024;
export const MAX_PARTS = 10_000;
export const MAX_PARALLEL_UPLOADS = 16;

export interface MultipartSettings {
	partSizeMiB: number;
	parallelUploads: number;
}

export interface MultipartTarget extends BucketRef {
	key: string;
	visibility: Visibility;
	contentType: string;
}

export interface MultipartResult extends IDataObject {
	uploadId?: string;
	partCount?: number;
	partSize?: number;
}

export type PartPlan = { partSize: number; totalParts: number } | { problem: string; hint?: string };

/** How a file of `fileSize` bytes splits into parts, or why the settings cannot work. */
export function planParts(fileSize: number, settings: MultipartSettings): PartPlan {
	const { partSizeMiB, parallelUploads } = settings;
	if (!Number.isFinite(partSizeMiB) || partSizeMiB < MIN_PART_SIZE_MIB || partSizeMiB > MAX_PART_SIZE_MIB) {
		return {
			problem: `Part Size must be between ${MIN_PART_SIZE_MIB} and ${MAX_PART_SIZE_MIB} MiB (got ${partSizeMiB})`,
			hint: `The service needs every part but the last to be at least ${MIN_PART_SIZE_MIB} MiB and any part at most 5 GiB.`,
		};
	}
	if (!Number.isInteger(parallelUploads) || parallelUploads < 1 || parallelUploads > MAX_PARALLEL_UPLOADS) {
		return {
			problem: `Parallel Uploads must be a whole number from 1 to ${MAX_PARALLEL_UPLOADS} (got ${parallelUploads})`,
		};
	}
	const partSize = Math.floor(partSizeMiB * MIB);
	const totalParts = Math.ceil(fileSize / partSize);
	if (totalParts > MAX_PARTS) {
		return {
			problem: `The file needs ${totalParts} parts at a Part Size of ${partSizeMiB} MiB; the service allows at most ${MAX_PARTS}`,
			hint: `Set Part Size to at least ${Math.ceil(fileSize / MAX_PARTS / MIB)} MiB for this file.`,
		};
	}
	return { partSize, totalParts };
}

function checkedPlan(ctx: IExecuteFunctions, itemIndex: number, fileSize: number, settings: MultipartSettings) {
	const plan = planParts(fileSize, settings);
	if ('problem' in plan) {
		throw new NodeOperationError(ctx.getNode(), plan.problem, { itemIndex, description: plan.hint });
	}
	return plan;
}

/**
 * Uploads up to `parallelUploads` parts at once while reading the next one. Resolves with the parts in order, or rejects
 * with the first failure (of a part or of reading the file) once every part already sent has settled: a part still on
 * its way when the upload is cancelled could be stored after the cancel on S3-like services.
 */
async function sendParts(
	parts: AsyncIterable<Buffer>,
	parallelUploads: number,
	send: (partNumber: number, bytes: Buffer) => Promise<UploadedPart>,
): Promise<{ uploaded: UploadedPart[]; bytesRead: number }> {
	const inFlight = new Set<Promise<void>>();
	const uploaded: UploadedPart[] = [];
	let failure: { error: unknown } | undefined;
	let partNumber = 0;
	let bytesRead = 0;
	try {
		for await (const bytes of parts) {
			partNumber += 1;
			bytesRead += bytes.length;
			const task: Promise<void> = send(partNumber, bytes)
				.then(
					(part) => {
						uploaded.push(part);
					},
					(error: unknown) => {
						failure ??= { error };
					},
				)
				.finally(() => inFlight.delete(task));
			inFlight.add(task);
			if (inFlight.size >= parallelUploads) await Promise.race(inFlight);
			if (failure) break;
		}
	} catch (readError) {
		failure ??= { error: readError };
	}
	await Promise.all(inFlight);
	if (failure) throw failure.error;
	uploaded.sort((a, b) => a.partNumber - b.partNumber);
	return { uploaded, bytesRead };
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** The part bodies of one upload: its own pool, or (version 3) the run's shared memory budget. */
type PartBodies = PartBodyPool | SharedPartBodies;

/** The pooled bodies of one upload, the first allocated at once: a Part Size this Node.js cannot hold fails before Start. */
async function partBodies(
	ctx: IExecuteFunctions,
	itemIndex: number,
	target: MultipartTarget,
	partSize: number,
	settings: MultipartSettings,
	contentType = 'application/octet-stream',
): Promise<PartBodies> {
	const envelope = formEnvelope(target.key, contentType);
	const pool = runPoolOf(ctx);
	const bodies = pool
		? new SharedPartBodies(pool, envelope, partSize)
		: new PartBodyPool(envelope, partSize, settings.parallelUploads + 1);
	try {
		if (bodies instanceof SharedPartBodies) await bodies.ready();
		bodies.release(bodies.take());
	} catch (error) {
		if (bodies instanceof SharedPartBodies) bodies.close();
		// By name: the error may come from another realm than this module's RangeError.
		if ((error as Error).name !== 'RangeError')
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		throw new NodeOperationError(
			ctx.getNode(),
			`Part Size ${settings.partSizeMiB} MiB is larger than one buffer of the Node.js running n8n can hold`,
			{
				itemIndex,
				description:
					'Node.js 20 (n8n 1.x) holds at most 4 GiB in one buffer: set Part Size to at most 4095 MiB. Nothing was uploaded.',
			},
		);
	}
	return bodies;
}

/**
 * Cancels after a failure, on a signal of its own (the execution may have been stopped), and
 * says in the error what became of the upload.
 */
async function cancelAfterFailure(
	client: FileStorageClient,
	target: MultipartTarget,
	uploadId: string,
	failure: NodeApiError | NodeOperationError,
	completeMayHaveRun: boolean,
): Promise<void> {
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
			return;
		}
		gone = true;
	}
	failure.description =
		gone && completeMayHaveRun
			? `${before}The service no longer knows the upload ${uploadId}: the completion most likely went through before its answer came. Check whether '${target.key}' exists before uploading again.`
			: `${before}The multipart upload ${uploadId} was cancelled on the service; nothing was stored.`;
}

/** The parts, after the ones already read ahead; no more than the service allows. */
async function* partsAfter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	ahead: Buffer[],
	rest: AsyncGenerator<Buffer>,
	source: UploadSource,
	partSize: number,
	maxParts: number,
): AsyncGenerator<Buffer> {
	let count = 0;
	for (const part of ahead) {
		count += 1;
		yield part;
	}
	for await (const part of rest) {
		count += 1;
		if (count > maxParts) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${atStart(source)} is longer than ${maxParts} parts of ${partSize / MIB} MiB, the most the service allows`,
				{ itemIndex, description: 'Raise Part Size: the size of the source was not known in advance.' },
			);
		}
		yield part;
	}
}

export interface MultipartOptions {
	/**
	 * A source of unknown length that turns out to fit in one part goes in one request instead
	 * (Upload does this; Multipart Upload always uses parts).
	 */
	oneRequestIfOnePart?: boolean;
	/** The most parts a source of unknown length may give (the service's limit, MAX_PARTS, unless a test asks for fewer). */
	maxParts?: number;
}

/**
 * Uploads a source in parts with a fixed pool of part bodies. A source of unknown length (a URL
 * without Content-Length) is read two parts ahead: when it ends there its length is
 * known after all; otherwise Start announces the most parts the service allows, since the
 * spec treats totalParts as informational, and the parts are numbered as they come.
 */
export async function multipartUpload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	target: MultipartTarget,
	source: UploadSource,
	settings: MultipartSettings,
	options: MultipartOptions = {},
): Promise<StoredFile & MultipartResult> {
	const known = source.size;
	let plan: { partSize: number; totalParts: number };
	let bodies: PartBodies;
	try {
		plan = checkedPlan(ctx, itemIndex, known ?? 0, settings);
		// At most parallelUploads parts are in flight while the next one is read.
		// A file smaller than one part needs no more than its own size per body.
		bodies = await partBodies(
			ctx,
			itemIndex,
			target,
			known === undefined ? plan.partSize : Math.min(plan.partSize, known),
			settings,
			known === undefined ? target.contentType : undefined,
		);
	} catch (error) {
		// Refused before a byte was read: the source (a URL's open response) is let go of all the same.
		source.discard();
		throw error as NodeOperationError;
	}
	try {
		return await uploadInParts(ctx, itemIndex, client, target, source, settings, options, plan, bodies);
	} finally {
		// Shared bodies go back to the run's budget whatever happened; a pool of its own is garbage.
		if (bodies instanceof SharedPartBodies) bodies.close();
	}
}

/**
 * With shared bodies, a part is read only once the budget has room for its body: the wait
 * happens here, holding no body that waits for it.
 */
async function* withRoomForEach(reader: AsyncGenerator<Buffer>, bodies: PartBodies): AsyncGenerator<Buffer> {
	if (!(bodies instanceof SharedPartBodies)) return yield* reader;
	try {
		for (;;) {
			await bodies.ready();
			const next = await reader.next();
			if (next.done) return;
			yield next.value;
		}
	} finally {
		bodies.unused();
		await reader.return(undefined);
	}
}

async function uploadInParts(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	target: MultipartTarget,
	source: UploadSource,
	settings: MultipartSettings,
	options: MultipartOptions,
	plan: { partSize: number; totalParts: number },
	bodies: PartBodies,
): Promise<StoredFile & MultipartResult> {
	const known = source.size;
	const maxParts = options.maxParts ?? MAX_PARTS;
	const shared = bodies instanceof SharedPartBodies;
	const { partSize } = plan;
	let totalParts = plan.totalParts;
	const reader = withRoomForEach(
		source.parts(partSize, () => bodies.take()),
		bodies,
	);
	// A generator not started yet runs no `finally` on return: the source is let go of as well.
	const abandon = async () => {
		await reader.return(undefined);
		source.discard();
	};
	const ahead: Buffer[] = [];
	try {
		if (known === undefined) {
			let ended = false;
			// Two parts ahead tell a source that ends there; with shared bodies one, so that an
			// upload never holds a body while it waits for the budget.
			while (ahead.length < (shared ? 1 : 2) && !ended) {
				const next = await reader.next();
				if (next.done) ended = true;
				else ahead.push(next.value);
				// Only the last part is shorter than Part Size.
				if (!next.done && next.value.length < partSize) ended = true;
			}
			if (ahead.length === 0) {
				throw new NodeOperationError(ctx.getNode(), `${atStart(source)} is empty (0 bytes)`, {
					itemIndex,
					description: 'There is nothing to upload. Check the source.',
				});
			}
			totalParts = ended ? ahead.length : maxParts;
			if (ended && ahead.length === 1 && options.oneRequestIfOnePart) {
				const stored = await uploadFile(client, target, {
					key: target.key,
					visibility: target.visibility,
					form: bodies.form(ahead[0]),
				});
				return { ...stored };
			}
		}
	} catch (error) {
		await abandon();
		throw asNodeError(ctx, error, itemIndex);
	}
	let started: Awaited<ReturnType<typeof startMultipartUpload>>;
	try {
		// Version 3 sends parts at once: the path family is learned beside Start, not by part 1
		// while the others wait (version 1 and 2 keep the requests they always sent).
		const learning = shared && totalParts > 1 ? learnPathFamily(client, target, target.key) : undefined;
		[started] = await Promise.all([
			startMultipartUpload(client, target, {
				key: target.key,
				contentType: target.contentType,
				visibility: target.visibility,
				totalParts,
			}),
			learning,
		]);
	} catch (error) {
		await abandon();
		throw asNodeError(ctx, error, itemIndex);
	}
	const { uploadId } = started;
	let completing = false;
	try {
		const { uploaded, bytesRead } = await sendParts(
			partsAfter(ctx, itemIndex, ahead, reader, source, partSize, maxParts),
			// Shared bodies: the budget and the run's request slots bound the parts in flight.
			shared ? Number.MAX_SAFE_INTEGER : settings.parallelUploads,
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
			throw new NodeOperationError(
				ctx.getNode(),
				`Read ${bytesRead} bytes in ${uploaded.length} parts from ${source.label}, but the file is ${known ?? bytesRead} bytes (${expectedParts} parts)`,
				{ itemIndex, description: 'The binary data changed or is damaged.' },
			);
		}
		completing = true;
		const stored = await completeMultipartUpload(client, target, uploadId, target.key, uploaded);
		return { ...stored, uploadId, partCount: uploaded.length, partSize };
	} catch (error) {
		const failure = asNodeError(ctx, error, itemIndex);
		if (completing && failedOnRetryWith(error, 404)) {
			// The upload ID vanished between attempts of Complete: most likely an earlier
			// attempt succeeded and only its answer was lost. Say so instead of guessing.
			failure.description = `An earlier attempt may have completed the upload before its answer was lost: check whether '${target.key}' exists before uploading again.`;
			throw failure;
		}
		// A Complete without an answer in time may have been carried out all the same.
		await cancelAfterFailure(client, target, uploadId, failure, completing && timedOut(error));
		throw failure;
	}
}
