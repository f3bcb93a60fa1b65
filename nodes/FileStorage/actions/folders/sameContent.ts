import type { IDataObject } from 'n8n-workflow';

import type { StoredRecord } from '../../files/storedRecord';
import { sameMediaType } from '../../files/mediaType';
import type { Item } from '../../item';
import { withBodyMemory } from '../../transport/pool';
import type { FileStorageClient } from '../../transport/request';
import { digestWhole } from '../../upload/hashedSource';
import { exists, type CopyJob } from '../file/copyFile';
import { runCopyAtLocation, runCopyWords } from '../file/runLocation';
import { isMissingSource, openStoredSource, sourceContentType, type StoredSource } from '../file/storedSource';

/** The buffer each of the two reads of a comparison hashes through (one per read, reused). */
const CHUNK = 256 * 1024;

/**
 * What a comparison of a source with the file already at its destination showed:
 * - same: both were read whole, each shown to be the version the service stores (as a Move's
 *   source must be: see storedSource.ts), and they have the same bytes (size and MD5), visibility
 *   and content type as a copy would have (with both records: a Move lists the destination again
 *   before its delete, see moveSource.ts);
 * - different: the same reads show they differ (the reason says how);
 * - unproven: a read could not be shown to be the stored version, or failed;
 * - sourceGone: the source is no longer there (the API's own "not found");
 * - oneLocation: both have one CDN location (one key in two buckets), so no read tells them apart.
 */
export type Compared =
	| { kind: 'same'; sourceRecord: StoredRecord; destinationRecord: StoredRecord; md5: string; size: number }
	| { kind: 'different' | 'unproven' | 'oneLocation'; why: string }
	| { kind: 'sourceGone' };

function wordsOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Reads an opened file to its end, hashing it through one reused buffer. */
async function digestOf(stored: StoredSource) {
	return await digestWhole(stored.opened, CHUNK);
}

/** What a copy of the source would be given: its visibility and content type (copyFile.ts). */
function wanted(job: CopyJob, source: StoredSource): IDataObject {
	const { visibility } = job.options;
	return {
		public: visibility === 'public' || visibility === 'private' ? visibility === 'public' : source.link.is_public,
		type: String(job.options.contentType || sourceContentType(source)),
	};
}

/** Why two opened files are not the same as a copy would make them, before reading them. */
function differsBeforeReading(job: CopyJob, source: StoredSource, there: StoredSource): string | undefined {
	const want = wanted(job, source);
	if (source.record.size !== there.record.size) {
		return `the destination is ${there.record.size} bytes, the source ${source.record.size}`;
	}
	if (want.public !== there.link.is_public) return `the destination is ${there.link.is_public ? 'public' : 'private'}`;
	// As media types: `Text/CSV` is `text/csv`, but another charset is another file to a reader (mediaType.ts).
	const theirs = sourceContentType(there);
	if (!sameMediaType(String(want.type), theirs)) {
		return `the destination's content type is ${theirs}, the copy's would be ${String(want.type)}`;
	}
	return undefined;
}

/** Where a link reads, without its signature: one key in two buckets has one CDN location (spec §3.9). */
function placeOf(url: string): string {
	return url.split(/[?#]/)[0];
}

async function openSource(item: Item, client: FileStorageClient, job: CopyJob): Promise<StoredSource | Compared> {
	try {
		return await openStoredSource(item, client, job.from, 'Move');
	} catch (error) {
		const gone = isMissingSource(error) || !(await exists(item, client, job.from, job.verb).catch(() => true));
		if (gone) return { kind: 'sourceGone' };
		return { kind: 'unproven', why: `the source could not be read as the version stored: ${wordsOf(error)}` };
	}
}

/**
 * Compares the source of `job` with the file already at its destination, by reading both whole
 * (the listing has no hashes, spec §3.12: equal sizes and dates prove nothing). Reads only: no
 * byte is written, and nothing is deleted here.
 */
export async function compareStored(item: Item, client: FileStorageClient, job: CopyJob): Promise<Compared> {
	for (const ref of [job.from, job.to]) {
		// A file this run wrote at either key in another bucket may answer that read (runLocation.ts).
		const there = await runCopyAtLocation(item, client, ref);
		if (there) return { kind: 'oneLocation', why: runCopyWords(ref, there) };
	}
	const source = await openSource(item, client, job);
	if ('kind' in source) return source;
	let there: StoredSource;
	try {
		there = await openStoredSource(item, client, job.to, 'Move');
	} catch (error) {
		source.opened.discard();
		return { kind: 'unproven', why: `the destination could not be read as the version stored: ${wordsOf(error)}` };
	}
	if (placeOf(source.link.url) === placeOf(there.link.url)) {
		// The location names the key, not the bucket: both reads may answer one file, which is not a comparison.
		source.opened.discard();
		there.opened.discard();
		const why = `the source and the destination have one CDN location (${placeOf(there.link.url)}), which names their key but not their bucket, so reading both could read one file twice`;
		return { kind: 'oneLocation', why };
	}
	const early = differsBeforeReading(job, source, there);
	if (early) {
		source.opened.discard();
		there.opened.discard();
		return { kind: 'different', why: early };
	}
	try {
		// Both at once: a body left waiting while the other is read could time out.
		const [mine, theirs] = await withBodyMemory(
			item.pool,
			2 * CHUNK,
			async () => await Promise.all([digestOf(source), digestOf(there)]),
		);
		if (mine.bytes !== theirs.bytes || mine.md5 !== theirs.md5) {
			return { kind: 'different', why: `the destination's bytes differ (MD5 ${theirs.md5}, the source's ${mine.md5})` };
		}
		return {
			kind: 'same',
			sourceRecord: source.record,
			destinationRecord: there.record,
			md5: mine.md5,
			size: mine.bytes,
		};
	} catch (error) {
		source.opened.discard();
		there.opened.discard();
		return { kind: 'unproven', why: `reading both files to compare them failed: ${wordsOf(error)}` };
	}
}
