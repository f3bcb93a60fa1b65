import { transportSettings, type Item } from '../item';
import { datedSignedUrl, purgeFile, type BucketRef } from '../transport/api';
import { withBodyMemory } from '../transport/pool';
import type { FileStorageClient } from '../transport/request';
import { digestWhole } from '../upload/hashedSource';
import { openUrlSource } from '../upload/urlSource';
import { purgeFailure, readBackDecision, type ReadBack } from './proof';
import { failedAnswer } from '../transport/apiAnswer';

/** The one buffer the read-back hashes through (reserved from the run's memory budget in version 3). */
const CHUNK = 256 * 1024;

/** The copy's link only needs to outlive its one read. */
const LINK_SECONDS = 300;

function wordsOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A public copy's CDN cache cleared (the copy's own HEAD may have filled it); why not, when it could not be. */
async function purged(client: FileStorageClient, to: BucketRef & { key: string }): Promise<string | undefined> {
	return await purgeFile(client, to, to.key).then(
		() => undefined,
		(error: unknown) =>
			purgeFailure(failedAnswer(error)) === 'nothing-cached'
				? undefined
				: `clearing its CDN cache failed: ${wordsOf(error)}`,
	);
}

/**
 * Move's read of its copy back through the copy's link, hashed as it passes (one buffer, through
 * the run's memory budget), for readBackDecision (proof.ts) when the check had no MD5 to compare.
 *
 * No settle wait, unlike the source's read (storedSource.ts): that one must show the bytes copied
 * are the version the listing records, as a same-size rewrite in the listed second looks the same.
 * Here the listing's record is not what is proved: an answer no cache marks is the origin's
 * version when it was fetched, and an MD5 equal to the MD5 of the bytes sent shows the destination
 * held the source's bytes then, whoever wrote them, provided it is dated in the copy's listed second:
 * one CDN location serves the key of every bucket of the account (spec §3.9), so an answer of another
 * date may be another bucket's file. A write after it is what the listing just before the delete is
 * for (moveSource.ts).
 */
async function readBackOnce(
	item: Item,
	client: FileStorageClient,
	to: BucketRef & { key: string },
	facts: Pick<ReadBack, 'sent' | 'record'>,
): Promise<ReadBack> {
	const failed = (why: string): ReadBack => ({ ...facts, answer: { failed: why } });
	let link;
	try {
		link = (await datedSignedUrl(client, to, to.key, LINK_SECONDS)).link;
	} catch (error) {
		return failed(`its link could not be had: ${wordsOf(error)}`);
	}
	if (link.is_public) {
		const notPurged = await purged(client, to);
		if (notPurged) return failed(notPurged);
	}
	try {
		const opened = await openUrlSource(item, new URL(link.url), {}, transportSettings(item.options()));
		const digest = await withBodyMemory(item.pool, CHUNK, async () => await digestWhole(opened, CHUNK));
		const answer = { size: opened.size, headers: opened.cdnHeaders ?? {}, digest };
		return { ...facts, answer };
	} catch (error) {
		return failed(wordsOf(error));
	}
}

/** The read-back's decision (readBackDecision): one read, as a kept answer is never proof however long it waits. */
export async function readBackProof(
	item: Item,
	client: FileStorageClient,
	to: BucketRef & { key: string },
	facts: Pick<ReadBack, 'sent' | 'record'>,
): Promise<{ action: 'good' } | { action: 'keep'; why: string }> {
	return readBackDecision(await readBackOnce(item, client, to, facts));
}
