import { randomBytes } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitIntoParts } from './binaryInput';
import { checkedChunks, readFailureReason, type StreamProblem } from './streamChunks';
import type { UploadSource } from './uploadSource';

/**
 * Files on the n8n host go through n8n's own file helpers only, so N8N_RESTRICT_FILE_ACCESS_TO,
 * n8n's blocked folders and N8N_BLOCK_FILE_PATTERNS apply exactly as for Read/Write Files from
 * Disk. Community nodes get no stat, rename or delete from them: what a file is, is learnt from
 * resolving and opening it.
 */
export type ResolvedFilePath = Awaited<ReturnType<IExecuteFunctions['helpers']['resolvePath']>>;
export type FileContent = Parameters<IExecuteFunctions['helpers']['writeContentToFile']>[1];

const FIELD = 'File Path';

function codeOf(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === 'string' ? code : '';
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

function dirOf(path: string): string {
	const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
	return cut <= 0 ? path.slice(0, cut + 1) : path.slice(0, cut);
}

export function baseNameOf(path: string): string {
	return path.split(/[\\/]/).pop() ?? path;
}

/** n8n's own folder, from the storage path it gives each node (`<n8n folder>/storage/<node type>`). */
function n8nFolderOf(ctx: IExecuteFunctions): string | undefined {
	try {
		return ctx.helpers.getStoragePath().replace(/[\\/]storage[\\/][^\\/]*$/, '');
	} catch {
		return undefined;
	}
}

function within(folder: string, path: string): boolean {
	return path === folder || path.startsWith(`${folder}/`) || path.startsWith(`${folder}\\`);
}

/** Which of n8n's settings refuses the path, as far as a node can tell without reading them. */
function refusedError(ctx: IExecuteFunctions, itemIndex: number, shown: string, resolved: string) {
	const n8nFolder = n8nFolderOf(ctx);
	let reason: string;
	let description: string;
	if (n8nFolder && within(n8nFolder, resolved)) {
		reason = `it is inside n8n's own folder (${n8nFolder})`;
		description =
			'n8n keeps nodes out of its own folder (N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES, on by default). Use a folder outside it, allowed by N8N_RESTRICT_FILE_ACCESS_TO.';
	} else if (/(^|[\\/])\.git([\\/]|$)/.test(resolved)) {
		reason = 'it matches N8N_BLOCK_FILE_PATTERNS (by default any .git folder)';
		description = 'Use a path outside .git folders, or change N8N_BLOCK_FILE_PATTERNS.';
	} else {
		reason = 'it is outside the folders N8N_RESTRICT_FILE_ACCESS_TO allows';
		description =
			'Put the file in an allowed folder, or add its folder to N8N_RESTRICT_FILE_ACCESS_TO (folders separated by ";") and restart n8n. ' +
			'n8n 2.x allows only ~/.n8n-files when the variable is not set; it may also be refused by N8N_BLOCK_FILE_PATTERNS.';
	}
	return fail(ctx, itemIndex, `n8n does not allow access to '${shown}' (parameter '${FIELD}'): ${reason}`, description);
}

async function isFolder(ctx: IExecuteFunctions, resolved: ResolvedFilePath): Promise<boolean> {
	// Resolving "<path>/." succeeds for a folder only (a file gives ENOTDIR, nothing ENOENT).
	return await ctx.helpers.resolvePath(`${resolved}/.`).then(
		() => true,
		() => false,
	);
}

/**
 * A path that need not exist yet, resolved as n8n resolves it: its folder's real path plus its
 * name. n8n's helper does this itself, but only for errors that are `instanceof Error` of its own
 * realm, which fails when the file system's errors come from another (as under test runners).
 */
async function resolveMaybeMissing(ctx: IExecuteFunctions, path: string): Promise<ResolvedFilePath> {
	return await ctx.helpers.resolvePath(path).then(
		(resolved) => resolved,
		async (error: unknown) => {
			if (codeOf(error) !== 'ENOENT') throw error as Error;
			const folder = await ctx.helpers.resolvePath(dirOf(path) || '.');
			return `${folder.replace(/[\\/]+$/, '')}/${baseNameOf(path)}` as ResolvedFilePath;
		},
	);
}

/** The path resolved (symlinks of its folders followed, as n8n does), checked against n8n's rules. */
async function resolveAllowed(ctx: IExecuteFunctions, itemIndex: number, text: string): Promise<ResolvedFilePath> {
	const shown = text.trim();
	if (!shown) {
		throw fail(
			ctx,
			itemIndex,
			`The parameter '${FIELD}' is empty`,
			'Enter the full path of the file on the n8n host, e.g. /home/node/.n8n-files/video.mp4.',
		);
	}
	if (typeof ctx.helpers.resolvePath !== 'function' || typeof ctx.helpers.writeContentToFile !== 'function') {
		throw fail(
			ctx,
			itemIndex,
			"This n8n version gives nodes no file helpers: 'File Path' needs n8n 1.x or later",
			'Update n8n, or read the file with Read/Write Files from Disk and use Binary Field.',
		);
	}
	const resolved = await resolveMaybeMissing(ctx, shown).then(
		(path) => path,
		(error: unknown) => {
			throw codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR'
				? fail(
						ctx,
						itemIndex,
						`The folder of '${shown}' does not exist (parameter '${FIELD}')`,
						'Check the path: it is on the n8n host (in queue mode, on the worker that runs the execution).',
					)
				: fail(
						ctx,
						itemIndex,
						`The path '${shown}' could not be resolved (parameter '${FIELD}'): ${readFailureReason(error)}`,
						'Check the path and the permissions of its folders.',
					);
		},
	);
	if (ctx.helpers.isFilePathBlocked(resolved)) throw refusedError(ctx, itemIndex, shown, resolved);
	return resolved;
}

const TYPES: Record<string, string> = {
	avi: 'video/x-msvideo',
	csv: 'text/csv',
	gif: 'image/gif',
	gz: 'application/gzip',
	html: 'text/html',
	jpeg: 'image/jpeg',
	jpg: 'image/jpeg',
	json: 'application/json',
	m4a: 'audio/mp4',
	mkv: 'video/x-matroska',
	mov: 'video/quicktime',
	mp3: 'audio/mpeg',
	mp4: 'video/mp4',
	pdf: 'application/pdf',
	png: 'image/png',
	tar: 'application/x-tar',
	txt: 'text/plain',
	wav: 'audio/wav',
	webm: 'video/webm',
	webp: 'image/webp',
	xml: 'application/xml',
	zip: 'application/zip',
};

function typeOfName(name: string): string {
	const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
	return TYPES[extension] ?? 'application/octet-stream';
}

function readFault(ctx: IExecuteFunctions, itemIndex: number, shown: string, problem: StreamProblem) {
	const detail = problem.kind === 'broke' ? problem.reason : problem.kind;
	return fail(
		ctx,
		itemIndex,
		`Reading '${shown}' failed after ${'received' in problem ? problem.received : 0} bytes (parameter '${FIELD}'): ${detail}`,
		'The file could not be read to the end.',
	);
}

/** A file on the n8n host as the source of an upload. Its length is learnt while it is read. */
export async function openFileSource(ctx: IExecuteFunctions, itemIndex: number, text: string): Promise<UploadSource> {
	const shown = text.trim();
	const resolved = await resolveAllowed(ctx, itemIndex, text);
	if (await isFolder(ctx, resolved)) {
		throw fail(
			ctx,
			itemIndex,
			`'${shown}' is a folder, not a file (parameter '${FIELD}')`,
			'Enter the path of one file. To upload every file of a folder, list them first (e.g. Read/Write Files from Disk with a wildcard) and pass each path.',
		);
	}
	const stream = await ctx.helpers.createReadStream(resolved).then(
		(opened) => opened,
		(error: unknown) => {
			if (codeOf(error) === 'ENOENT' || /could not be accessed/.test((error as Error)?.message ?? '')) {
				throw fail(
					ctx,
					itemIndex,
					`There is no file at '${shown}' (parameter '${FIELD}')`,
					'Check the path: it is read on the n8n host (in queue mode, on the worker that runs the execution).',
				);
			}
			if (codeOf(error) === 'EACCES' || codeOf(error) === 'EPERM') {
				throw fail(
					ctx,
					itemIndex,
					`n8n may not read '${shown}' (parameter '${FIELD}'): permission denied`,
					'Give the user n8n runs as read access to the file.',
				);
			}
			throw fail(
				ctx,
				itemIndex,
				`'${shown}' could not be opened (parameter '${FIELD}'): ${readFailureReason(error)}`,
				'n8n refuses symlinks and files that change while they are opened.',
			);
		},
	);
	const fileName = baseNameOf(resolved);
	const fault = (problem: StreamProblem) => readFault(ctx, itemIndex, shown, problem);
	return {
		kind: 'filePath',
		label: `the file '${shown}'`,
		fileName,
		mimeType: typeOfName(fileName),
		size: undefined,
		parts: (partSize, nextPart) =>
			splitIntoParts(checkedChunks(stream, { fail: fault, copiedBeforeNext: true }), partSize, nextPart),
		discard: () => stream.destroy(),
		output: { source: 'filePath', filePath: resolved },
	};
}

export interface FileTarget {
	/** As typed, for messages. */
	shown: string;
	resolved: ResolvedFilePath;
	/** The sibling the bytes go to first: the target itself is only written once they are complete. */
	temporary: ResolvedFilePath;
}

/** Where a download goes: the path checked, and a temporary sibling for the bytes on their way. */
export async function fileTarget(ctx: IExecuteFunctions, itemIndex: number, text: string): Promise<FileTarget> {
	const shown = text.trim();
	const resolved = await resolveAllowed(ctx, itemIndex, text);
	if (await isFolder(ctx, resolved)) {
		throw fail(
			ctx,
			itemIndex,
			`'${shown}' is a folder (parameter '${FIELD}')`,
			`Enter the path of the file to write, with its name, e.g. ${shown.replace(/[\\/]+$/, '')}/video.mp4.`,
		);
	}
	const temporary = temporarySibling(resolved);
	if (ctx.helpers.isFilePathBlocked(temporary)) throw refusedError(ctx, itemIndex, temporary, temporary);
	return { shown, resolved, temporary };
}

/** What `.<name>.<8 hex digits>.partial` adds to a name, in bytes. */
const TEMPORARY_EXTRA_BYTES = '..12345678.partial'.length;
/** Names up to this long keep their whole name in the temporary one. */
const SHORT_NAME_BYTES = 64;

/** The longest start of `text` that is at most `bytes` long in UTF-8, whole characters only. */
function startWithin(text: string, bytes: number): string {
	let used = 0;
	let end = 0;
	for (const character of text) {
		used += Buffer.byteLength(character);
		if (used > bytes) break;
		end += character.length;
	}
	return text.slice(0, end);
}

/**
 * A new, unique name for a file in the same folder as `path` (so it is on the same disk). It is
 * never longer than the target's own name, or than 82 bytes: a name the file system takes for
 * the target it takes for the temporary file too (a 255-byte name is valid, 273 bytes is not).
 */
export function temporarySibling(path: string): ResolvedFilePath {
	const name = baseNameOf(path);
	const stem = startWithin(name, Math.max(Buffer.byteLength(name) - TEMPORARY_EXTRA_BYTES, SHORT_NAME_BYTES));
	return `${dirOf(path)}/.${stem}.${randomBytes(4).toString('hex')}.partial` as ResolvedFilePath;
}

interface WritableEnd {
	write(chunk: Buffer): boolean;
	once(event: string, listener: () => void): unknown;
	removeListener(event: string, listener: () => void): unknown;
	end(): unknown;
	destroy(error?: Error): unknown;
	readonly destroyed?: boolean;
}

/**
 * Content for n8n's writeContentToFile, which pipes a stream into the file with `pipe()`: a
 * source that fails never ends the file then, and the write would wait forever. This object's
 * `pipe` copies the chunks itself and ends the file when they are all written, or fails it
 * (so the helper rejects) when the source fails.
 */
export function fileContentFrom(chunks: AsyncIterable<Buffer>): { content: FileContent; written: () => number } {
	let written = 0;
	const pipe = (file: WritableEnd) => {
		void (async () => {
			try {
				for await (const chunk of chunks) {
					if (file.destroyed) return;
					written += chunk.length;
					if (!file.write(chunk)) {
						await new Promise<void>((resolve) => {
							const done = () => {
								file.removeListener('drain', done);
								file.removeListener('close', done);
								resolve();
							};
							file.once('drain', done);
							file.once('close', done);
						});
					}
				}
				file.end();
			} catch (error) {
				file.destroy(error as Error);
			}
		})();
		return file;
	};
	return { content: { pipe } as unknown as FileContent, written: () => written };
}
