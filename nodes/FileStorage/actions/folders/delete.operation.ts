import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { folderPrefix } from '../../files/keys';
import { MAX_PAGE_SIZE, walkEntries } from '../../listing/listing';
import { deleteFile, type BucketRef, type ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { optionsCollection } from '../common';
import { folderFields, folderOf } from '../folder';
import type { Item } from '../../item';

const show = { resource: ['folder'], operation: ['delete'] };

/** Deletes at once: few enough to be gentle on the service, enough to hide its latency. */
const PARALLEL_DELETES = 4;

export const description: INodeProperties[] = [
	...folderFields(show, 'Folder whose files are deleted, e.g. reports/2025/'),
	{
		displayName: 'Include Subfolders',
		name: 'includeSubfolders',
		type: 'boolean',
		default: true,
		description: 'Whether the files of every sub-folder are deleted too. Off: only the files directly in the folder.',
		displayOptions: { show },
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description: 'Whether to only list the files that would be deleted, and delete nothing',
		displayOptions: { show },
	},
	optionsCollection(show, [
		{
			displayName: 'Allow Whole Bucket',
			name: 'allowWholeBucket',
			type: 'boolean',
			default: false,
			description:
				'Whether an empty Folder may delete every file of the bucket. Off: an empty Folder fails and nothing is deleted.',
		},
	]),
];

/**
 * Every file under the prefix, listed before the first delete: deleting shifts the pages of a walk.
 * A folder's marker (its own key, e.g. 'reports/') is a file of the folder too, so it goes with it.
 */
async function filesUnder(
	client: FileStorageClient,
	where: BucketRef,
	prefix: string,
	recursive: boolean,
): Promise<ListEntry[]> {
	const files: ListEntry[] = [];
	for await (const entry of walkEntries(client, { where, prefix, pageSize: MAX_PAGE_SIZE, recursive })) {
		if (entry.type === 'file') files.push(entry);
	}
	return files;
}

export async function execute(at: Item): Promise<INodeExecutionData[]> {
	const where = at.bucket();
	const prefix = folderPrefix(folderOf(at));
	const recursive = at.param('includeSubfolders', true) as boolean;
	const dryRun = at.param('dryRun', false) as boolean;
	if (!prefix && at.options().allowWholeBucket !== true) {
		throw at.fail(
			"The parameter 'Folder' is empty: that would delete the whole bucket",
			'Pick the folder to delete. To empty the whole bucket on purpose, turn on the Allow Whole Bucket option (try Dry Run first).',
		);
	}
	const client = await at.client();
	const files = await filesUnder(client, where, prefix, recursive);
	const item = (entry: ListEntry, json: IDataObject): INodeExecutionData => ({
		json: { key: entry.path, size: entry.size ?? null, bucket: where.bucket, region: where.region, ...json },
		pairedItem: { item: at.index },
	});
	if (dryRun) return files.map((entry) => item(entry, { deleted: false, dryRun: true }));
	const results: INodeExecutionData[] = new Array(files.length);
	let next = 0;
	let deleted = 0;
	let failure: { key: string; error: Error } | undefined;
	const worker = async () => {
		while (!failure && next < files.length) {
			const index = next++;
			const entry = files[index];
			try {
				const removal = await deleteFile(client, where, entry.path);
				// Gone between the listing and the delete (another run, a person): the goal is reached.
				results[index] = item(entry, { deleted: true, doneByEarlierAttempt: removal.earlierAttempt });
				deleted += 1;
			} catch (error) {
				if (error instanceof NodeApiError && error.httpCode === '404') {
					results[index] = item(entry, { deleted: true, alreadyGone: true });
					deleted += 1;
				} else failure ??= { key: entry.path, error: error as Error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, files.length) }, worker));
	if (failure) {
		throw at.fail(
			`Deleted ${deleted} of ${files.length} files under '${prefix || '(whole bucket)'}'; deleting '${failure.key}' failed: ${failure.error.message}`,
			'The files already deleted are gone; the others are still there. Run the node again to delete the rest.',
		);
	}
	return results;
}
