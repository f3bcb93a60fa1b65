import type { IBinaryData, IExecuteFunctions, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { transformShapedFolder, transformShapedNote, transformShapedWords } from '../files/keys';
import { existenceOf } from '../files/proof';
import type { StoredRecord } from '../files/storedRecord';
import { askService } from '../listing/stillStored';
import { datedSignedUrl, type BucketRef } from '../transport/api';
import { failedAnswer } from '../transport/apiAnswer';
import { watchBody } from '../transport/bodyWatch';
import type { FollowedAnswer } from '../transport/redirects';
import type { FileStorageClient } from '../transport/request';
import { judgeLength, lengthFacts, type LengthFacts } from './downloadLength';
import { listedSize } from './listedSize';
import {
	confirmStoredAfterRead,
	judgeStoredRead,
	prepareStoredRead,
	readAgainAfterPurge,
	readyToReadAgain,
	recordAfterRead,
	type StoredRead,
} from './storedVersion';

/** Only needs to outlive the start of the transfer that follows at once. */
const LINK_LIFETIME_SECONDS = 900;

type DownloadContext = IExecuteFunctions | IPollFunctions;
type BinaryBody = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** Whether an error of reading the body is the connection ending, not the store refusing it. */
function connectionEnded(error: unknown): boolean {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	return (
		['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET'].includes(String(code)) ||
		/aborted|premature close|socket hang up|terminated/i.test(String(message))
	);
}

function stalledError(
	fault: (problem: string, description: string) => NodeOperationError,
	idleMs: number,
	ofTotal: string,
): NodeOperationError {
	return fault(
		`stalled: no data for ${Math.round(idleMs / 1000)} s after ${ofTotal}`,
		'The CDN or the network stopped sending. Run the node again; on a very slow link raise the Timeout option.',
	);
}

function ofTotal(received: number, facts: LengthFacts): string {
	return `${received} of ${facts.announced ?? facts.expected ?? 'an unknown number of'} bytes`;
}

/** One file to download, for the node (an item) or the trigger (item 0). */
export interface Download {
	ctx: DownloadContext;
	client: FileStorageClient;
	where: BucketRef;
	key: string;
	fileName: string;
	/** The item the download's errors name. */
	itemIndex: number;
	/** The file's size as the service stated it (e.g. in a listing), when the caller knows it. */
	expectedSize?: number;
	/** The listing's record of the version to download (the trigger's), which the answer must agree with. */
	listed?: StoredRecord;
	/**
	 * Another URL of the file's bytes to fetch instead of its signed link (a CDN transformation):
	 * its length is the CDN's alone, so the listing's size is not asked.
	 */
	link?: string;
}

type Fault = (problem: string, description: string) => NodeOperationError;

/** The file is not there: said only once the API itself answered its own 404 for the file. */
function notFoundError({ ctx, where, key, itemIndex }: Download): NodeApiError {
	return new NodeApiError(ctx.getNode(), { status: 404 } as JsonObject, {
		message: `The file '${key}' was not found in bucket '${where.bucket}' (region ${where.region})`,
		description: 'Check the key, and the bucket name and region (a bucket is identified by both).',
		httpCode: '404',
		itemIndex,
	});
}

/**
 * The read of a link the service gave failed. A CDN's or proxy's 404 says nothing of the file (only
 * the API's own does): the service is asked, as for Copy's source (askService). A file it still
 * stores is not called "not found": a transformation-shaped first folder may have been read as a
 * transformation of another file, else the CDN (or what is in front of it) answered 404 wrongly.
 */
async function failedRead(download: Download, error: unknown, fault: Fault): Promise<never> {
	const status = error instanceof NodeApiError ? error.httpCode : undefined;
	const folder = download.link === undefined ? transformShapedFolder(download.key) : undefined;
	if (folder && status === '403') {
		// A 403 of the service's own signed link is not the credential, but what the CDN read in it.
		throw new NodeApiError(download.ctx.getNode(), { status: 403 } as JsonObject, {
			message: (error as NodeApiError).message,
			description: `Nothing was stored. ${transformShapedWords(folder)}`,
			httpCode: status,
			itemIndex: download.itemIndex,
		});
	}
	if (status !== '404') throw error;
	const service = await askService(download.client, download.where, download.key);
	if (service.says === 'gone') throw notFoundError(download);
	if (service.says === 'unknown') {
		throw fault(
			`failed: the CDN answered HTTP 404, and asking the service whether it still stores the file failed: ${service.why}`,
			'A CDN or a proxy may answer 404 for a file the service stores, so only the service can say it is gone. Nothing was stored. Run the node again in a few minutes.',
		);
	}
	if (folder) throw fault('failed: the CDN found no file at its link (HTTP 404)', transformShapedWords(folder));
	throw fault(
		'failed: the CDN answered HTTP 404 for a file the service stores',
		"The service's own answer shows the file, so the CDN (or a proxy in front of it) answered 404 wrongly, e.g. an edge that does not hold the file yet. Run the node again in a few minutes; if it goes on, check the CDN or proxy in front of the files.",
	);
}

/**
 * The answer of the file's signed link (a public file's CDN copy purged first and its record read:
 * storedVersion.ts; a private one read again when a cache kept it), and what the read is judged by.
 * "Not found" is said only when the API's own 404 shows it, whichever step failed (failedRead).
 */
async function openDownload(
	download: Download,
	fault: Fault,
): Promise<{ response: FollowedAnswer; read?: StoredRead }> {
	const { client, where, key, link: given } = download;
	const linkRefused = (error: unknown) => {
		// Only the API's own 404 shows the file absent; a proxy's or web server's 404 page shows nothing.
		throw existenceOf(failedAnswer(error)) === 'absent' ? notFoundError(download) : error;
	};
	// A signed link works for private and public files alike, and keeps the transfer off
	// the API host (the CDN serves the bytes).
	const read: StoredRead | undefined =
		given === undefined
			? await datedSignedUrl(client, where, key, LINK_LIFETIME_SECONDS).then(
					({ link, date }) => ({ client, where, key, link, serviceDate: date, listed: download.listed }),
					linkRefused,
				)
			: undefined;
	if (read) await prepareStoredRead(read, fault);
	const url = given ?? read!.link.url;
	const fetchIt = async () =>
		await client
			.fetchLink(url, `Download of '${key}'`)
			.catch(async (error: unknown) => await failedRead(download, error, fault));
	const response = await fetchIt();
	if (!read || !readAgainAfterPurge(read, response)) return { response, read };
	// A cache kept a private file's answer: its body is closed before any further request, the cache
	// purged, and the file read once more, judged like a public file's (storedVersion.ts).
	(response.body as { destroy?: () => void } | undefined)?.destroy?.();
	await readyToReadAgain(read, fault);
	return { response: await fetchIt(), read };
}

/**
 * The facts to judge a body by. When nothing stated the file's size and the answer's own length
 * does not confirm the count (none was stated: a close-delimited or chunked answer, whose end may
 * be a cut; or a body the HTTP client unpacked), one list request asks the service for the file's
 * size, so a short body fails instead of being kept. A file that listing does not show leaves the
 * size unconfirmed, as before. A key whose first folder has a transformation's shape is always
 * checked so: the CDN's own length may be another file's.
 */
async function withListedSize(
	{ client, where, key }: Download,
	received: number,
	facts: LengthFacts,
	fault: Fault,
): Promise<LengthFacts> {
	if (facts.expected !== undefined) return facts;
	const folder = transformShapedFolder(key);
	if (received === facts.announced && !folder) return facts;
	try {
		const expected = await listedSize(client, where, key);
		return expected === undefined ? facts : { ...facts, expected };
	} catch (error) {
		// Asked for a whole answer only when the key's first folder has a transformation's shape (above).
		const why = received === facts.announced && folder ? transformShapedNote(folder) : 'the CDN stated no length';
		throw fault(
			`could not be checked: ${why}, and asking the listing for the file's size failed: ${(error as Error).message}`,
			folder ? `Run the node again. ${transformShapedWords(folder)}` : 'Run the node again.',
		);
	}
}

export interface DownloadedFile {
	binary: IBinaryData;
	size: number;
	/** False when nothing stated the file's size (see judgeLength): it may be incomplete. */
	sizeConfirmed: boolean;
}

/**
 * Streams a file into n8n's binary store through a signed link, and fails when the body stalls
 * or ends short of a stated length (`expectedSize`, or the record's, included), or when the answer
 * is not shown to be the version the service stores (storedVersion.ts): nothing is stored then.
 */
export async function downloadToBinary(download: Download): Promise<DownloadedFile> {
	const { ctx, client, key, fileName, itemIndex } = download;
	const fault = (problem: string, description: string) =>
		new NodeOperationError(ctx.getNode(), `Download of '${key}' ${problem}`, {
			itemIndex,
			description: `Nothing was stored. ${description}`,
		});
	const { response, read } = await openDownload(download, fault);
	const closeBody = () => (response.body as { destroy?: () => void } | undefined)?.destroy?.();
	if (response.statusCode === 206) {
		// 206 answers a Range, which this plain GET never sends: its body is a part of the file.
		closeBody();
		const range = response.headers?.['content-range'];
		throw fault(
			`got only a part of the file: the CDN answered HTTP 206 (Partial Content${range ? `, ${String(range)}` : ''})`,
			'A plain download never asks for a part. Run the node again; if it goes on, the CDN is misconfigured.',
		);
	}
	// Judged before a byte is kept: an answer not shown to be the stored version is never attached.
	const recorded = read
		? await Promise.resolve()
				.then(() => judgeStoredRead({ ...read, response }, fault))
				.catch((error: unknown) => {
					closeBody();
					throw error;
				})
		: undefined;
	const contentType = String(response.headers?.['content-type'] ?? '').split(';')[0] || undefined;
	const facts = lengthFacts(response.headers, download.expectedSize ?? recorded);
	const progress = watchBody(response.body, client.idleTimeoutMs, response.closeConnection);
	let binary: IBinaryData;
	try {
		// The body is a stream: n8n's binary store writes it to disk as it arrives.
		binary = await ctx.helpers.prepareBinaryData(response.body as BinaryBody, fileName, contentType);
	} catch (error) {
		// A body the store gave up on may be left unread; version 3 holds a request slot until the
		// body closes, so close it here or the slot would never come back to the run.
		(response.body as { destroy?: () => void } | undefined)?.destroy?.();
		if (progress.silentForIdleTime) throw stalledError(fault, client.idleTimeoutMs, ofTotal(progress.received, facts));
		if (connectionEnded(error)) {
			throw fault(
				`was cut short after ${ofTotal(progress.received, facts)}: ${(error as Error).message}`,
				'The connection ended early. Run the node again.',
			);
		}
		// n8n's binary store refused the file (e.g. over the database mode's size limit): its
		// own words say which setting to change.
		throw fault(
			`could not be stored by n8n: ${(error as Error).message}`,
			"The file arrived, but n8n's binary data store did not take it.",
		);
	} finally {
		progress.stop();
	}
	if (progress.stalled) throw stalledError(fault, client.idleTimeoutMs, ofTotal(progress.received, facts));
	const size = binary.id
		? (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize
		: Buffer.byteLength(binary.data, 'base64');
	// File → Download: the record listed now, which the read is judged by below, states the size too.
	const after = read ? await recordAfterRead(read, fault) : undefined;
	const listedNow = after ? { ...facts, expected: facts.expected ?? after.size ?? undefined } : undefined;
	const judged = download.link ? facts : (listedNow ?? (await withListedSize(download, size, facts, fault)));
	const verdict = judgeLength(size, judged);
	if (verdict.problem !== undefined) {
		const folder = transformShapedFolder(key);
		if (!folder) throw fault(verdict.problem, verdict.hint);
		// The CDN's answer is whole by its own length but not the listed file: most likely the
		// link was read as a transformation of another file (the message is all the trigger keeps).
		if (!download.link && size === facts.announced) {
			throw fault(
				`got another file's bytes: the CDN answered ${size} bytes in full, the listing gives ${judged.expected} for it; ${transformShapedNote(folder)}`,
				transformShapedWords(folder),
			);
		}
		throw fault(verdict.problem, `${verdict.hint} ${transformShapedWords(folder)}`);
	}
	// Never another bucket's file at the key, nor a version not stored at it when it was read (storedVersion.ts).
	if (read && after) confirmStoredAfterRead(read, response, { size, record: after }, fault);
	return { binary, size, sizeConfirmed: verdict.confirmed };
}
