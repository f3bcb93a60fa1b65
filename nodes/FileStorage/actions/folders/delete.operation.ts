import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { folderPrefix } from '../../files/keys';
import { MAX_PAGE_SIZE, walkEntries, type FolderListing } from '../../listing/listing';
import type { Item } from '../../item';
import { deleteFile, type BucketRef, type ListEntry } from '../../transport/api';
import type { FileStorageClient } from '../../transport/request';
import { optionsCollection } from '../common';
import { folderFields, folderOf } from '../folder';

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
	// What a run will do, said before it runs: off by default, Dry Run is not a safety net.
	...deletionNotices(),
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

/** The notice under Dry Run: what a run of the node as set will delete, or that it deletes nothing. */
function deletionNotices(): INodeProperties[] {
	const notice = (displayName: string, when: Record<string, boolean[]>): INodeProperties => ({
		displayName,
		name: 'deletionNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, ...when } },
	});
	const tail = 'with no way back. Turn on Dry Run to list them first.';
	return [
		notice(`A run deletes every file under Folder, in all its sub-folders too, ${tail}`, {
			dryRun: [false],
			includeSubfolders: [true],
		}),
		notice(`A run deletes every file directly in Folder (not its sub-folders), ${tail}`, {
			dryRun: [false],
			includeSubfolders: [false],
		}),
		notice('Dry Run: a run lists the files a delete would remove, and deletes nothing.', { dryRun: [true] }),
	];
}

/** Rounds of listing and deleting while a listing took several pages (which may have shifted). */
const MAX_ROUNDS = 3;

/** One Delete Folder: the item, its client, and the folder it empties. */
interface Deletion {
	item: Item;
	client: FileStorageClient;
	where: BucketRef;
	prefix: string;
	recursive: boolean;
	/** Files deleted (or found gone) and files listed, over every round. */
	deleted: number;
	listed: number;
}

/**
 * Every file under the prefix, listed before the first delete: deleting shifts the pages of a walk.
 * A folder's marker (its own key, e.g. 'reports/') is a file of the folder too, so it goes with it.
 * `paged`: some folder took several list requests, between which a file removed by someone else
 * can pull one not listed yet onto a page already read (see walkEntries): the walk may miss files.
 */
async function filesUnder({ client, where, prefix, recursive }: Deletion) {
	const files: ListEntry[] = [];
	let paged = false;
	const onFolder = (listing: FolderListing) => (paged ||= listing.pages > 1);
	for await (const entry of walkEntries(client, { where, prefix, pageSize: MAX_PAGE_SIZE, recursive, onFolder })) {
		// Without sub-folders only the folder's own files go: a service that lists deeper files
		// (a flat listing, or one not matching the spec's one level) must not widen the delete.
		if (!recursive && entry.path.slice(prefix.length).includes('/')) continue;
		if (entry.type === 'file') files.push(entry);
	}
	return { files, paged };
}

/** A file's output item. */
function fileItem(deletion: Deletion, entry: ListEntry, json: IDataObject): INodeExecutionData {
	const { where, item } = deletion;
	return {
		json: { key: entry.path, size: entry.size ?? null, bucket: where.bucket, region: where.region, ...json },
		pairedItem: { item: item.index },
	};
}

/** Deletes `files`, four at a time; the first failure stops it and is thrown with the tally. */
async function deleteFiles(deletion: Deletion, files: ListEntry[]): Promise<INodeExecutionData[]> {
	const { client, where } = deletion;
	const results: INodeExecutionData[] = new Array(files.length);
	deletion.listed += files.length;
	let next = 0;
	let failure: { key: string; error: Error } | undefined;
	const worker = async () => {
		while (!failure && next < files.length) {
			const index = next++;
			const entry = files[index];
			try {
				const removal = await deleteFile(client, where, entry.path);
				results[index] = fileItem(deletion, entry, { deleted: true, doneByEarlierAttempt: removal.earlierAttempt });
				deletion.deleted += 1;
			} catch (error) {
				// Gone between the listing and the delete (another run, a person): the goal is reached.
				if (error instanceof NodeApiError && error.httpCode === '404') {
					results[index] = fileItem(deletion, entry, { deleted: true, alreadyGone: true });
					deletion.deleted += 1;
				} else failure ??= { key: entry.path, error: error as Error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, files.length) }, worker));
	if (!failure) return results;
	throw deletion.item.fail(
		`Deleted ${deletion.deleted} of ${deletion.listed} files under '${deletion.prefix || '(whole bucket)'}'; deleting '${failure.key}' failed: ${failure.error.message}`,
		'The files already deleted are gone; the others are still there. Run the node again to delete the rest.',
	);
}

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const prefix = folderPrefix(folderOf(item));
	const recursive = item.param('includeSubfolders', true) as boolean;
	const dryRun = item.param('dryRun', false) as boolean;
	if (!prefix && item.options().allowWholeBucket !== true) {
		throw item.fail(
			"The parameter 'Folder' is empty: that would delete the whole bucket",
			'Pick the folder to delete. To empty the whole bucket on purpose, turn on the Allow Whole Bucket option (try Dry Run first).',
		);
	}
	const client = await item.client();
	const deletion: Deletion = { item, client, where, prefix, recursive, deleted: 0, listed: 0 };
	let { files, paged } = await filesUnder(deletion);
	if (dryRun) return files.map((entry) => fileItem(deletion, entry, { deleted: false, dryRun: true }));
	const results: INodeExecutionData[] = [];
	for (let round = 1; ; round++) {
		results.push(...(await deleteFiles(deletion, files)));
		// A walk of several pages may have missed files (pages shift under removals): list again,
		// and delete what is still there (a file written again since goes too, and is said again).
		if (!paged || files.length === 0 || round === MAX_ROUNDS) return results;
		({ files, paged } = await filesUnder(deletion));
	}
}
