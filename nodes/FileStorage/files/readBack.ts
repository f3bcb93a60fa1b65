import { sleep } from 'n8n-workflow';

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
 * held the source's bytes then, whoever wrote them. A write after it is what the listing just
 * before the delete is for (moveSource.ts).
 */
async function readBackOnce(
	item: Item,
	client: FileStorageClient,
	to: BucketRef & { key: string },
	facts: Pick<ReadBack, 'sent' | 'written'>,
): Promise<ReadBack> {
	const failed = (why: string): ReadBack => ({ ...facts, answer: { failed: why } });
	let link;
	try {
		const dated = await datedSignedUrl(client, to, to.key, LINK_SECONDS);
		link = { ...dated.link, date: dated.date };
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
		return { ...facts, serviceDate: link.date, answer };
	} catch (error) {
		return failed(wordsOf(error));
	}
}

/** Reads of the copy at most: a kept answer fetched too early is read again once its second has passed. */
const READS = 3;

/** The read-back's decision (readBackDecision), read again (as its answer's times say) while too early. */
export async function readBackProof(
	item: Item,
	client: FileStorageClient,
	to: BucketRef & { key: string },
	facts: Pick<ReadBack, 'sent' | 'written'>,
): Promise<{ action: 'good' } | { action: 'keep'; why: string }> {
	for (let read = 1; ; read++) {
		const decision = readBackDecision(await readBackOnce(item, client, to, facts));
		if (decision.action !== 'read-again') return decision;
		if (read === READS) {
			return {
				action: 'keep',
				why: 'read back through its link, a cache kept each answer from before the copy was written',
			};
		}
		await sleep(Math.min(decision.afterMs, 5000));
	}
}
