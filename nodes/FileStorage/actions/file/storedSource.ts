import { sleep } from 'n8n-workflow';

import { fileNotFound } from '../../files/fileInfo';
import { linkRewritesKey, rewrittenLinkWords } from '../../files/keys';
import { existenceOf, sourceReadDecision, type SourceReadAction } from '../../files/proof';
import { purgeBeforeRead } from '../../files/storedRead';
import { findStoredRecord, type StoredRecord } from '../../files/storedRecord';
import type { UploadSource } from '../../upload/uploadSource';
import { openUrlSource } from '../../upload/urlSource';
import { datedSignedUrl, type BucketRef, type SignedUrl } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { transportSettings, type Item } from '../../item';
import { failedAnswer } from '../../transport/apiAnswer';
import { goneByService } from '../../listing/stillStored';

/** The source's link only needs to outlive the start of the transfer (its retries included). */
const SOURCE_LINK_SECONDS = 900;

type Ref = BucketRef & { key: string };

/** The "not found" errors of a source that is not there: a Move then has no source to keep. */
const missingSources = new WeakSet<object>();

export function isMissingSource(error: unknown): boolean {
	return typeof error === 'object' && error !== null && missingSources.has(error);
}

function where(ref: Ref): string {
	return `'${ref.key}' in bucket '${ref.bucket}' (region ${ref.region})`;
}

export interface StoredSource {
	link: SignedUrl;
	/** The bytes, through the source's link, not read yet. */
	opened: UploadSource;
	/** The service's record of the source, which the bytes' answer agreed with. */
	record: StoredRecord;
}

/**
 * A stored file's content type, whole (a charset included): the service's record of it where the listing gives
 * one (the CDN may add or drop parameters), else the answer's Content-Type, else application/octet-stream.
 */
export function sourceContentType(source: Pick<StoredSource, 'opened' | 'record'>): string {
	return source.record.content_type || source.opened.mimeType || 'application/octet-stream';
}

/** The "not found" of a source, marked so that Move says there is no source to keep. */
export function missingSource(item: Item, from: Ref, more = '') {
	const missing = fileNotFound(item, from, from.key);
	if (more) missing.description = `${more} ${missing.description ?? ''}`.trim();
	missingSources.add(missing);
	return missing;
}

/** The source's link, and the Date of its answer (the service's clock, before the read: files/proof.ts). */
async function sourceLink(item: Item, client: FileStorageClient, from: Ref, verb: string) {
	const { link, date } = await datedSignedUrl(client, from, from.key, SOURCE_LINK_SECONDS).catch((error: unknown) => {
		// Only the API's own 404 shows the source missing; a proxy's or web server's 404 page shows nothing.
		if (existenceOf(failedAnswer(error)) !== 'absent') throw error;
		throw missingSource(item, from);
	});
	// The link as the service spelled it (another encoding of a '.' segment included) must still
	// name the source once parsed: else the copy would be of another file.
	const rewrite = linkRewritesKey(link.url);
	if (rewrite) {
		const words = rewrittenLinkWords(`${verb} of '${from.key}'`, rewrite);
		throw item.fail(words.message, words.description);
	}
	return { link, date };
}

/**
 * A public source's plain location is answered by a CDN that may still hold an earlier version
 * (spec §3.9): its cache is purged first, the purge call existing for exactly this. A purge that
 * fails (other than the API's 404) leaves the read unsure, so nothing is copied. Gives the Date of
 * its answer (the service's clock, before the read), when it had one.
 */
async function purgeSource(item: Item, client: FileStorageClient, from: Ref, none: string) {
	// The API's own "not found" (nothing cached, or the file went, which the read and the record
	// find out) is no failure there (files/storedRead.ts). Anything else leaves the cache as it was.
	return await purgeBeforeRead(client, from, from.key).catch((error: unknown) => {
		const words = error instanceof Error ? error.message : String(error);
		throw item.fail(
			`Clearing the CDN cache of the public source ${where(from)} failed: ${words}`,
			`A public file is read through the CDN, which can answer an earlier version until its cache is cleared, so the source is not read without it. ${none} Run the node again later.`,
		);
	});
}

/**
 * An answer that cannot be shown to be of the stored version (files/proof.ts, sourceReadDecision):
 * a CDN may keep an earlier version despite the purge (spec §3.9). Nothing is copied (or deleted).
 */
function unprovenSource(item: Item, from: Ref, verb: 'Copy' | 'Move', why: string) {
	const move =
		'A CDN can keep serving an earlier version of the same size even after its cache is cleared, and Move would then delete the only copy of the newer one. Nothing was copied or deleted. Run the node again in a few minutes (once the CDN no longer keeps it), or download the file, check it, upload it to the destination and delete the source with File → Delete.';
	const copy =
		'A CDN can keep serving an earlier version even after its cache is cleared, and the copy would then be of a version the service no longer stores. Nothing was copied. Run the node again in a few minutes, once the CDN no longer keeps it.';
	return item.fail(
		`${verb}: the answer read for the source ${where(from)} cannot be shown to be the version the service stores: ${why}`,
		verb === 'Move' ? move : copy,
	);
}

/**
 * Opens the source as the service stores it (a key whose link the CDN reads as a transformation never
 * comes here: unreadableLink.ts refuses it before any request): its link (public: its cache purged first), then
 * its record in the listing (the API's, not the CDN's), which the CDN's answer must agree with
 * (size, and Last-Modified where sent). A disagreement means the CDN answered another version:
 * nothing is copied. Read after the answer came, so a file replaced since is caught too.
 */
async function openOnce(
	item: Item,
	client: FileStorageClient,
	from: Ref,
	verb: 'Copy' | 'Move',
): Promise<{ source: StoredSource; decision: Exclude<SourceReadAction, { action: 'refuse' }> }> {
	const none = `Nothing was copied${verb === 'Move' ? ' or deleted' : ''}.`;
	const { link, date: linkDate } = await sourceLink(item, client, from, verb);
	// The service's last answer before the read: its Date bounds the read's time (files/proof.ts).
	const purgeDate = link.is_public ? await purgeSource(item, client, from, none) : undefined;
	const opened = await openUrlSource(
		item,
		new URL(link.url),
		{},
		{
			...transportSettings(item.options()),
			withoutLengthHint: `The CDN stated no length for the source file, so the copy could not be checked against it. ${none} Run the node again later; if the CDN keeps leaving out Content-Length, download the file and upload it instead.`,
		},
	).catch(async (error: unknown) => {
		// Another item or workflow may have moved it away between its link and its read.
		if (await goneByService(client, from, from.key)) {
			throw missingSource(item, from, 'It was deleted (or moved) while it was being read.');
		}
		throw error;
	});
	const record = await findStoredRecord(client, from, from.key).catch((error: unknown) => {
		opened.discard();
		throw error;
	});
	if (!record) {
		opened.discard();
		throw missingSource(
			item,
			from,
			`The service's listing does not show it any more: it was deleted (or moved) while it was being read. ${none}`,
		);
	}
	const decision = sourceReadDecision({
		verb,
		isPublic: link.is_public === true,
		size: opened.size,
		headers: opened.cdnHeaders ?? {},
		record,
		serviceDate: purgeDate ?? linkDate,
	});
	if (decision.action !== 'refuse') return { source: { link, opened, record }, decision };
	opened.discard();
	if (decision.proof === 'unproven') throw unprovenSource(item, from, verb, decision.why);
	throw item.fail(
		`${verb}: the source ${where(from)} read through the CDN is not the version the service stores: ${decision.why}`,
		`The CDN answered an earlier version from its cache${link.is_public ? ', even after its cache was cleared' : ''}, or the file was replaced while it was read. ${none} Run the node again in a few minutes.`,
	);
}

/** Reads of a source written moments ago that a Move waits out before it copies. */
const SETTLE_READS = 3;

/** The longest wait between two reads: a CDN clock behind the storage's is waited out in steps. */
const SETTLE_STEP_MS = 5000;

/**
 * The source opened (see openOnce); for a Move, only once its answer is shown to be read after
 * any same-size rewrite in the listed second could have happened (files/proof.ts): a read too
 * early is let go, waited out by the answers' Dates (the CDN's and the service's, never the n8n host's
 * clock) and done again.
 */
export async function openStoredSource(
	item: Item,
	client: FileStorageClient,
	from: Ref,
	verb: 'Copy' | 'Move',
): Promise<StoredSource> {
	// Not a retry (nothing failed): the same read once the source's second has passed. Failures
	// are retried by the one attempt loop (transport/attempts.ts) of each request it sends.
	for (let read = 1; ; read++) {
		const { source, decision } = await openOnce(item, client, from, verb);
		if (decision.action === 'copy') return source;
		source.opened.discard();
		if (read === SETTLE_READS) {
			throw item.fail(
				`Move: the source ${where(from)} was written moments before it was read, so a newer version could not be told apart from it`,
				`The service dates files to the second, and the read's time (the CDN's Date, no later than the service's) stayed too close to that second. Nothing was copied or deleted. Run the node again in a few seconds.`,
			);
		}
		await sleep(Math.min(decision.afterMs, SETTLE_STEP_MS));
	}
}
