import { existenceOf } from '../files/proof';
import { getSignedUrl, type BucketRef, type ResendCheck } from '../transport/api';
import { failedAnswer } from '../transport/apiAnswer';
import type { FileStorageClient } from '../transport/request';

/** The link is never used: the answer itself is what counts. */
const LINK_LIFETIME_SECONDS = 60;

/**
 * Whether a file a scan did not list is still stored, asked of the service directly: one signed
 * link request (no download). Only the API's own 404 means gone; a 404 that is not the API's
 * (a path this Base URL does not serve) or any other failure is thrown, so nothing that cannot be
 * vouched for is ever reported deleted.
 */
export async function stillStored(client: FileStorageClient, where: BucketRef, key: string): Promise<boolean> {
	const gone = (error: unknown): false => {
		if (existenceOf(failedAnswer(error)) === 'absent') return false;
		throw error;
	};
	return await getSignedUrl(client, where, key, LINK_LIFETIME_SECONDS).then(() => true, gone);
}

/**
 * The check before a write that must not replace a file (Refuse Existing File on, Replace Existing
 * File off) is sent again: the key asked again, as before the first send. A file there now (another
 * writer's, or the earlier attempt's own) is kept: the repeat is not sent (see ResendCheck). The first
 * send is checked too when anything waited since the caller's check began (`lookedAt`, its client's
 * waits.mark() then); with `first`, always.
 */
export function freeKeyCheck(where: BucketRef, key: string, lookedAt: number, first = false): ResendCheck {
	const ask = async (via: FileStorageClient) => ((await stillStored(via, where, key)) ? 'keep' : 'send');
	return { guards: 'replace', first, lookedAt, ask };
}

/** What the service itself says of a file after a read of it failed; `unknown` when it could not be asked. */
export type ServiceWord = { says: 'stored' } | { says: 'gone' } | { says: 'unknown'; why: string };

/**
 * Asks the service about a file after a read of it failed: only its own 404 of the file's link says
 * gone (a CDN's or a proxy's 404 page says nothing of the file); a failure to ask is `unknown`, so
 * nothing is called "not found", nor "stored", that the service did not confirm.
 */
export async function askService(client: FileStorageClient, where: BucketRef, key: string): Promise<ServiceWord> {
	return await stillStored(client, where, key).then(
		(stored): ServiceWord => (stored ? { says: 'stored' } : { says: 'gone' }),
		(error: unknown): ServiceWord => ({ says: 'unknown', why: (error as Error).message }),
	);
}

/**
 * Whether the service itself says a file is gone (askService): a failure to ask says no, so the
 * read's own error stands. The one decision of Copy's and Move's source read, File → Download and the trigger.
 */
export async function goneByService(client: FileStorageClient, where: BucketRef, key: string): Promise<boolean> {
	return (await askService(client, where, key)).says === 'gone';
}
