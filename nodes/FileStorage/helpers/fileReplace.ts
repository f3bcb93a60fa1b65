import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fileContentFrom, temporarySibling, type FileTarget, type ResolvedFilePath } from './filePath';
import { checkedChunks, readFailureReason } from './streamChunks';

/**
 * Copying a complete download from its temporary file under the final name. n8n gives community
 * nodes no rename, so the final file is truncated and written again: on a disk without room for
 * it, an older file there would be lost half-way. So before that, the room the copy will take is
 * reserved once (and given back): if the disk cannot hold it, the old file is never touched.
 */

/** Beyond the growth from the old file to the new one: block rounding and the file system's records. */
const ROOM_MARGIN_BYTES = 64 * 1024;
const ZEROS = Buffer.alloc(1024 * 1024);
const NO_ROOM_CODES = ['ENOSPC', 'EDQUOT', 'EFBIG'];

function codeOf(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === 'string' ? code : '';
}

export async function emptyFile(ctx: IExecuteFunctions, path: ResolvedFilePath): Promise<void> {
	await ctx.helpers.writeContentToFile(path, Buffer.alloc(0)).then(
		() => undefined,
		() => undefined,
	);
}

/**
 * The size of the file already at the path, by reading it (n8n gives nodes no stat); undefined
 * when there is none. A file that cannot be read counts as 0 bytes: all the room is then reserved.
 */
async function sizeOfExisting(ctx: IExecuteFunctions, path: ResolvedFilePath): Promise<number | undefined> {
	const stream = await ctx.helpers.createReadStream(path).then(
		(opened) => opened,
		(error: unknown) =>
			codeOf(error) === 'ENOENT' || /could not be accessed/.test((error as Error)?.message ?? '') ? undefined : null,
	);
	if (stream === undefined) return undefined;
	if (stream === null) return 0;
	let size = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) size += chunk.length;
	} catch {
		return 0;
	} finally {
		stream.destroy();
	}
	return size;
}

async function* zeros(bytes: number): AsyncGenerator<Buffer> {
	for (let left = bytes; left > 0; left -= ZEROS.length) yield ZEROS.subarray(0, Math.min(left, ZEROS.length));
}

/** Writes `bytes` to a sibling and empties it again: the error of a disk without that room, if any. */
async function reserveRoom(ctx: IExecuteFunctions, target: FileTarget, bytes: number): Promise<unknown> {
	const probe = temporarySibling(target.resolved);
	const failure = await ctx.helpers.writeContentToFile(probe, fileContentFrom(zeros(bytes)).content).then(
		() => undefined,
		(error: unknown) => error ?? new Error('unknown error'),
	);
	await emptyFile(ctx, probe);
	return failure;
}

/** The complete download (`size` bytes in the target's temporary file) copied under the final name. */
export async function replaceWithDownload(
	ctx: IExecuteFunctions,
	key: string,
	target: FileTarget,
	size: number,
	itemIndex: number,
): Promise<void> {
	const oldSize = await sizeOfExisting(ctx, target.resolved);
	// A new path loses nothing if the copy fails; an old file no larger than the new one frees
	// at least the room the copy takes.
	if (oldSize !== undefined && size > oldSize) {
		const growth = size - oldSize + ROOM_MARGIN_BYTES;
		const failure = await reserveRoom(ctx, target, growth);
		if (failure !== undefined) {
			const untouched = `Nothing was written to '${target.shown}'.`;
			throw NO_ROOM_CODES.includes(codeOf(failure))
				? new NodeOperationError(
						ctx.getNode(),
						`There is not enough room on the disk to replace '${target.shown}' with the download of '${key}' (${size} bytes)`,
						{
							itemIndex,
							description: `${untouched} Replacing it needs ${size + growth} bytes free on its disk (the download is written beside the file first, then copied over it): make room, then run the node again.`,
						},
					)
				: new NodeOperationError(
						ctx.getNode(),
						`Download of '${key}' could not be written next to '${target.shown}': ${readFailureReason(failure)}`,
						{
							itemIndex,
							description: `${untouched} Check that n8n may write in that folder and that the disk has room.`,
						},
					);
		}
	}
	const failure = await copyInto(ctx, key, target, size, itemIndex).then(
		() => undefined,
		(error: unknown) => error,
	);
	if (failure === undefined) return;
	if (failure instanceof NodeOperationError) throw failure;
	// Part of a file is worse than none: a new path is left empty.
	if (oldSize === undefined) await emptyFile(ctx, target.resolved);
	throw new NodeOperationError(ctx.getNode(), `Writing '${target.shown}' failed: ${readFailureReason(failure)}`, {
		itemIndex,
		description:
			oldSize === undefined
				? `The download of '${key}' was complete, but not all of it could be written: '${target.shown}' was left empty. Check that n8n may write it and that the disk has room, then run the node again.`
				: `The download of '${key}' was complete; the file at '${target.shown}' may be incomplete. Check that n8n may write it and that the disk has room, then run the node again.`,
	});
}

async function copyInto(
	ctx: IExecuteFunctions,
	key: string,
	target: FileTarget,
	size: number,
	itemIndex: number,
): Promise<void> {
	const stream = await ctx.helpers.createReadStream(target.temporary);
	const copy = fileContentFrom(
		checkedChunks(stream, {
			expected: size,
			fail: (problem) =>
				new NodeOperationError(ctx.getNode(), `Copying the download of '${key}' into '${target.shown}' failed`, {
					itemIndex,
					description: `Reading the temporary file ${target.temporary} gave ${problem.kind === 'broke' ? problem.reason : problem.kind}. The file at '${target.shown}' may be incomplete: run the node again.`,
				}),
		}),
	);
	try {
		await ctx.helpers.writeContentToFile(target.resolved, copy.content);
	} finally {
		// Closes the file also when the write failed before it read a byte (e.g. a symlink at the path).
		stream.destroy();
	}
}
