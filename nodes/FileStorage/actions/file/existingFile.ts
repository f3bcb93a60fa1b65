import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { stillStored } from '../../listing/stillStored';
import type { BucketRef } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';

/**
 * Upload and Multipart Upload replace a file already at their key, as the API does; Copy and
 * Move refuse unless told. The panel says so, and Refuse Existing File (off by default, so saved
 * workflows keep replacing) makes an upload fail before it sends a byte.
 */
export const REFUSE_EXISTING_FIELD = 'Refuse Existing File';

export function replaceNotice(show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties {
	return {
		displayName: `A file already at this key is replaced without asking. To fail instead, add the option ${REFUSE_EXISTING_FIELD}.`,
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	};
}

export const refuseExistingOption: INodeProperties = {
	displayName: REFUSE_EXISTING_FIELD,
	name: 'refuseExisting',
	type: 'boolean',
	default: false,
	description:
		'Whether to fail, before any byte is sent, when a file is already at Folder + Path in Folder. Off: the existing file is replaced.',
};

/**
 * Whether a file is at the key (one signed-link request). Only the API's own "not found" says no:
 * any other failure (a 5xx after its retries, a 403, a 404 that is not the API's) leaves it
 * unknown and is thrown, so a caller that must not write over a file never guesses "not there".
 */
export async function fileExists(client: FileStorageClient, where: BucketRef, key: string): Promise<boolean> {
	// The trigger's question too. A missing bucket is a 404 as well: the upload then says so in its own words.
	return await stillStored(client, where, key);
}

/** A file another writer stored at the key while the parts were sent: the upload was cancelled. */
export function takenDuringUpload(item: Item, target: BucketRef & { key: string }, rename: string): Error {
	return item.fail(
		`The file '${target.key}' was stored in bucket '${target.bucket}' (region ${target.region}) by another writer during the upload`,
		`${REFUSE_EXISTING_FIELD} is on: the key was free when the upload began, but held a file just before it would complete, so the upload was cancelled and that file kept. ${rename}, or turn the option off to replace the file.`,
	);
}

/**
 * Fails when Refuse Existing File is on and a file is at the key; one request, no bytes sent.
 * `rename`: how to store under another name, in the words of the field that named the file.
 */
export async function refuseExistingFile(
	item: Item,
	client: FileStorageClient,
	target: BucketRef & { key: string },
	rename = 'Choose another Path in Folder',
): Promise<void> {
	if (item.options().refuseExisting !== true || !(await fileExists(client, target, target.key))) return;
	throw item.fail(
		`The file '${target.key}' already exists in bucket '${target.bucket}' (region ${target.region})`,
		`${REFUSE_EXISTING_FIELD} is on, so nothing was uploaded. ${rename}, or turn the option off to replace the file.`,
	);
}
