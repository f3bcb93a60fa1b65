import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Item } from '../item';
import type { BucketRef, UploadedPart, Visibility } from '../transport/api';
import { PartBodyPool, SharedPartBodies, formEnvelope } from '../transport/formData';
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

/** The plan for a file of `fileSize` bytes, or the item's error naming the setting to change. */
export function checkedPlan(item: Item, fileSize: number, settings: MultipartSettings) {
	const plan = planParts(fileSize, settings);
	if ('problem' in plan) throw item.fail(plan.problem, plan.hint);
	return plan;
}

/**
 * Uploads up to `parallelUploads` parts at once while reading the next one. Resolves with the parts in order, or rejects
 * with the first failure (of a part or of reading the file) once every part already sent has settled: a part still on
 * its way when the upload is cancelled could be stored after the cancel on S3-like services.
 */
export async function sendParts(
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

/** Any error as the item's: the service's and the node's own as they are. */
export function asNodeError(item: Item, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
}

/** The part bodies of one upload: its own pool, or (version 3) the run's shared memory budget. */
export type PartBodies = PartBodyPool | SharedPartBodies;

/** What the bodies of one upload are made for. */
export interface BodySpec {
	target: BucketRef & { key: string };
	partSize: number;
	settings: MultipartSettings;
	contentType?: string;
}

/** The pooled bodies of one upload, the first allocated at once: a Part Size this Node.js cannot hold fails before Start. */
export async function partBodies(item: Item, spec: BodySpec): Promise<PartBodies> {
	const { target, partSize, settings } = spec;
	const envelope = formEnvelope(target.key, spec.contentType ?? 'application/octet-stream');
	const bodies = item.pool
		? new SharedPartBodies(item.pool, envelope, partSize)
		: new PartBodyPool(envelope, partSize, settings.parallelUploads + 1);
	try {
		if (bodies instanceof SharedPartBodies) await bodies.ready();
		bodies.release(bodies.take());
	} catch (error) {
		if (bodies instanceof SharedPartBodies) bodies.close();
		// By name: the error may come from another realm than this module's RangeError.
		if ((error as Error).name !== 'RangeError')
			throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
		throw item.fail(
			`Part Size ${settings.partSizeMiB} MiB is larger than one buffer of the Node.js running n8n can hold`,
			'Node.js 20 (n8n 1.x) holds at most 4 GiB in one buffer: set Part Size to at most 4095 MiB. Nothing was uploaded.',
		);
	}
	return bodies;
}

/** The parts of a source being sent: those read ahead, then the rest. */
export interface PartStream {
	item: Item;
	source: UploadSource;
	ahead: Buffer[];
	rest: AsyncGenerator<Buffer>;
	partSize: number;
	/** The most parts a source of unknown length may give. */
	maxParts: number;
}

/** The parts, after the ones already read ahead; no more than the service allows. */
export async function* partsAfter(stream: PartStream): AsyncGenerator<Buffer> {
	const { item, source, ahead, rest, partSize, maxParts } = stream;
	let count = 0;
	for (const part of ahead) {
		count += 1;
		yield part;
	}
	for await (const part of rest) {
		count += 1;
		if (count > maxParts) {
			throw item.fail(
				`${atStart(source)} is longer than ${maxParts} parts of ${partSize / MIB} MiB, the most the service allows`,
				'Raise Part Size: the size of the source was not known in advance.',
			);
		}
		yield part;
	}
}

/**
 * With shared bodies, a part is read only once the budget has room for its body: the wait
 * happens here, holding no body that waits for it.
 */
export async function* withRoomForEach(reader: AsyncGenerator<Buffer>, bodies: PartBodies): AsyncGenerator<Buffer> {
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
